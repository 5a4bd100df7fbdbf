"""The lean path (engine.LeanView): bots reading it decide exactly as on full views.
Whole games in every configuration are played both ways, seed by seed; any field the
lean view computed differently would change a decision somewhere along them."""

import pytest

from weathering_tui.bots import HeuristicBot, RandomBot
from weathering_tui.content import configuration_ids
from weathering_tui.engine import LeanView, apply_chosen, new_game, view_for
from weathering_tui.sim.simulate import setup_for


def play(configuration, seed, lean, kind=HeuristicBot):
    state = new_game(setup_for(configuration, seed))
    state.keep_log = False
    bots = [kind(seed * 31 + i) for i in range(len(state.players))]
    actions = []
    while not state.over:
        seat = state.pending.seat
        view = LeanView(state, seat) if lean else view_for(state, seat, with_log=False)
        action = bots[seat].choose(view)
        apply_chosen(state, action, view)
        actions.append(action)
    return actions, state.outcome.hp


@pytest.mark.parametrize("configuration", configuration_ids())
def test_the_heuristic_decides_the_same_on_lean_and_full_views(configuration):
    for seed in range(12):
        assert play(configuration, 400 + seed, True) == play(configuration, 400 + seed, False)


def test_the_random_bot_too():
    for seed in range(6):
        assert play("3v2", seed, True, RandomBot) == play("3v2", seed, False, RandomBot)


def test_a_lean_view_answers_every_field_of_the_full_view_alike():
    state = new_game(setup_for("3v2", 5))
    bots = [HeuristicBot(i) for i in range(len(state.players))]
    for _ in range(120):
        if state.over:
            break
        seat = state.pending.seat
        full = view_for(state, seat, with_log=False)
        lean = LeanView(state, seat)
        for name in type(full).__attrs_attrs__:
            if name.name == "log":
                continue
            got = getattr(lean, name.name)
            if name.name == "players":
                got = tuple(got)
            assert got == getattr(full, name.name), name.name
        assert lean.me == full.me
        apply_chosen(state, bots[seat].choose(full), full)
