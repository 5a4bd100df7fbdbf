"""bots/inference.py: worlds weighed by the opponent's announced move, from the view only."""

from __future__ import annotations

import random

from helpers import another_hand_dealt

from weathering_tui.bots import HeuristicBot, SearchBot
from weathering_tui.bots.inference import Inference
from weathering_tui.content import default_content
from weathering_tui.engine import (
    Setup,
    action_key,
    apply_chosen,
    before_announcement,
    clone,
    determinize,
    new_game,
    view_for,
    window_seats,
)

CONTENT = default_content()


def weighed_windows(config: str, seeds: range):
    """(state, seat) where `seat` is asked to let through an opponent's own turn's action,
    in games of heuristic bots."""
    for seed in seeds:
        state = new_game(Setup.standard(config, seed=seed))
        bots = [HeuristicBot(seed * 10 + i) for i in range(len(state.players))]
        while not state.over:
            if state.pending.kind == "react" and before_announcement(state) is not None:
                for seat in window_seats(state):
                    yield clone(state), seat
            view = view_for(state, state.pending.seat, with_log=False)
            apply_chosen(state, bots[state.pending.seat].choose(view), view)


def _agrees(world) -> bool:
    """Whether the heuristic, in this world, announces what is announced."""
    prior, observed = before_announcement(world)
    chosen = HeuristicBot(0, CONTENT).choose(view_for(prior, observed.seat, with_log=False))
    return action_key(chosen) == action_key(observed)


def test_weighed_worlds_agree_with_the_observed_move_far_more_often_than_uniform_ones():
    inference = Inference(CONTENT)
    rng = random.Random(5)
    uniform = weighed = windows = 0
    for state, seat in weighed_windows("1v1", range(20)):
        view = view_for(state, seat, with_log=False)
        for _ in range(10):
            uniform += _agrees(determinize(view, CONTENT, rng))
            weighed += _agrees(inference.sample(view, rng))
        windows += 1
    assert windows >= 40
    # Measured: 48 % of the uniform worlds agree, 70 % of the weighed ones.
    assert weighed >= uniform + 0.15 * windows * 10, (uniform, weighed, windows)


def test_outside_a_weighed_window_the_worlds_are_determinizes_own():
    inference = Inference(CONTENT)
    state = new_game(Setup.standard("2v1", seed=3))  # the mulligan
    view = view_for(state, state.pending.seat, with_log=False)
    assert before_announcement(state) is None
    assert inference.sample(view, random.Random(9)) == determinize(view, CONTENT, random.Random(9))


def test_the_inferring_expert_decides_from_its_view_only():
    checked = 0
    for state, seat in weighed_windows("2v1", range(8)):
        if checked == 4:
            break
        view = view_for(state, seat)
        if len(view.legal) < 2:
            continue
        action = SearchBot(seed=checked, budget=8, infer=True).choose(view)
        assert action in view.legal
        twin = another_hand_dealt(state, seat)
        assert SearchBot(seed=checked, budget=8, infer=True).choose(view_for(twin, seat)) == action
        checked += 1
    assert checked == 4
