"""engine/before.py: the state as an actor chose the action waiting in a window."""

from __future__ import annotations

import random
from collections import Counter

import attrs

from weathering_tui.bots import HeuristicBot, RandomBot
from weathering_tui.content import default_content
from weathering_tui.engine import Setup, action_key, apply_chosen, clone, new_game, view_for
from weathering_tui.engine.before import before_announcement
from weathering_tui.engine.determinize import determinize
from weathering_tui.engine.window import window_seats

CONTENT = default_content()


def _as_rebuilt(state, seat: int, card: str | None):
    """The real state before an announcement, with what cannot be told back set as
    before_announcement sets it: the played card last in the hand, `acted` off, and
    `played_card` off before a card play."""
    state = clone(state)
    player = state.players[seat]
    if card is not None:
        player.hand.remove(card)
        player.hand.append(card)
        player.turn.played_card = False
    player.turn.acted = False
    return state


def _windows(config: str, seed: int):
    """(state before the action, the action, state in its window) for every turn action
    that opens a window, heuristic bots on even seeds and random ones on odd seeds."""
    state = new_game(Setup.standard(config, seed=seed))
    kind = RandomBot if seed % 2 else HeuristicBot
    bots = [kind(seed * 10 + i) for i in range(len(state.players))]
    while not state.over:
        seat = state.pending.seat
        view = view_for(state, seat, with_log=False)
        earlier = clone(state) if state.pending.kind == "turn" else None
        action = bots[seat].choose(view)
        apply_chosen(state, action, view)
        if earlier is not None and state.pending is not None and state.pending.kind == "react":
            yield earlier, action, state


def test_the_state_before_a_turns_announcement_shows_its_actor_what_it_showed():
    kinds: Counter = Counter()
    for config in CONTENT.configurations:
        for seed in range(12):
            for earlier, taken, state in _windows(config, seed):
                found = before_announcement(state)
                if found is None:
                    continue
                rebuilt, action = found
                ann = state.stack[0].announcement
                assert action_key(action) == action_key(taken)
                card = ann.card if ann.kind == "play_card" else None
                real = _as_rebuilt(earlier, ann.actor, card)
                shown = view_for(rebuilt, ann.actor, with_log=False)
                assert attrs.evolve(shown, can_undo=False) == attrs.evolve(
                    view_for(real, ann.actor, with_log=False), can_undo=False
                )
                assert rebuilt.players == real.players  # other seats' hands too
                kinds[ann.kind] += 1
    assert kinds["play_card"] >= 200 and kinds["draw"] >= 40 and kinds["store_ap"] >= 30, kinds


def test_it_rebuilds_a_sampled_world_as_well_and_leaves_the_window_untouched():
    rng = random.Random(3)
    checked = 0
    for seed in range(12):
        for _, _, state in _windows("2v1", seed):
            if before_announcement(state) is None:
                continue  # a power, a card put in a deck: not taken back
            for seat in window_seats(state):
                view = view_for(state, seat, with_log=False)
                if not view.legal:
                    continue
                world = determinize(view, CONTENT, rng)
                kept = clone(world)
                found = before_announcement(world)
                assert found is not None and found[0].pending.seat == state.active
                assert world == kept  # the window itself is not changed
                checked += 1
    assert checked >= 50


def test_nothing_is_rebuilt_outside_a_turns_own_window():
    for _, _, state in _windows("1v1", 4):
        assert before_announcement(state) is not None or state.stack[0].announcement.kind in {
            "use_power",
            "put_in_deck",
            "discard",
        }
    state = new_game(Setup.standard("1v1", seed=1))  # the mulligan
    assert before_announcement(state) is None
