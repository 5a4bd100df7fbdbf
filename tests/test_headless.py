"""The headless path (`engine.headless`: no log, no history; what `weathering simulate`
plays) gives the very game the normal path gives: the same decisions and the same state
after every action, in every configuration, with the random and the heuristic bots.
And the engine's quick tests (a window passing over a seat at a glance) say what the
rules they stand for say, at every window of random games."""

import random

import attrs
import pytest

from weathering_tui import compiled
from weathering_tui.bots import HeuristicBot, RandomBot
from weathering_tui.content import configuration_ids
from weathering_tui.engine import (
    GameState,
    LeanView,
    announce,
    apply,
    apply_chosen,
    decision_for,
    headless,
    legal_actions,
    new_game,
    view_for,
)
from weathering_tui.engine.announce import _asked
from weathering_tui.sim.simulate import play_game, setup_for

# Every field the rules read (the log, kept by one path only, aside).
RULE_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.eq and f.name != "log")


def facts(state) -> tuple:
    return tuple(getattr(state, name) for name in RULE_FIELDS)


def both_ways(configuration: str, seed: int, kind) -> int:
    """Play one game both ways in step; returns how many actions it took."""
    setup = setup_for(configuration, seed)
    normal = new_game(setup)
    fast = headless(new_game(setup))
    assert facts(fast) == facts(normal)
    bots_normal = [kind(seed * 31 + i) for i in range(len(normal.players))]
    bots_fast = [kind(seed * 31 + i) for i in range(len(fast.players))]
    actions = 0
    while not normal.over:
        seat = normal.pending.seat
        view = view_for(normal, seat)  # the full view, log and all
        action = bots_normal[seat].choose(view)
        apply_chosen(normal, action, view)
        assert fast.pending.seat == seat
        # The headless game is read as `simulate` reads it: lean views, decisions.
        lean = LeanView(fast, seat) if bots_fast[seat].needs_view else decision_for(fast, seat)
        assert bots_fast[seat].choose(lean) == action
        apply_chosen(fast, action, lean)
        assert facts(fast) == facts(normal)
        actions += 1
    assert fast.over and fast.outcome == normal.outcome
    # The headless game kept only what `new_game` logged, and no history.
    assert fast.log == normal.log[: len(fast.log)] and len(fast.log) < len(normal.log)
    assert normal.history.actions and not fast.history.actions
    return actions


@pytest.mark.parametrize("configuration", configuration_ids())
def test_a_headless_game_is_the_normal_game_action_by_action(configuration):
    played = 0
    for seed in range(4):
        played += both_ways(configuration, 700 + seed, RandomBot)
        played += both_ways(configuration, 700 + seed, HeuristicBot)
    assert played > 600


@pytest.mark.parametrize("configuration", configuration_ids())
def test_simulate_plays_the_same_games_headless(configuration):
    for seed in range(12):
        setup = setup_for(configuration, 900 + seed)
        kind = ("random", "heuristic")[seed % 2]
        kept, actions = play_game(setup, kind, keep_log=True)
        fast, again = play_game(setup, kind, keep_log=False)
        assert again == actions
        assert facts(fast) == facts(kept)


@pytest.mark.parametrize("configuration", configuration_ids())
@pytest.mark.skipif(
    compiled.RUNNING == "compiled",
    reason="it intercepts a call between two engine modules, which a build makes directly",
)
def test_a_window_passes_over_exactly_the_seats_it_would_not_ask(configuration, monkeypatch):
    """`_next_asked` (a quick look at each seat first) finds the seat that asking
    `_asked` of each seat in turn finds: checked at every step of every window of random
    games, from every place in the window."""
    quick = announce._next_asked
    checked = []

    def both(state, order, index, event, tables=None):
        for start in range(index, len(order) + 1):
            expected = next(
                (i for i in range(start, len(order)) if _asked(state, order[i], event)),
                len(order),
            )
            assert quick(state, order, start, event) == expected
        checked.append(quick(state, order, index, event) < len(order))
        return quick(state, order, index, event)

    monkeypatch.setattr(announce, "_next_asked", both)
    for seed in range(6):
        state = headless(new_game(setup_for(configuration, 300 + seed)))
        rng = random.Random(seed)
        while not state.over:
            apply(state, rng.choice(legal_actions(state, state.pending.seat)))
    assert len(checked) > 300 and any(checked)  # windows that asked someone, and not
