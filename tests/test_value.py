"""bots/value.py: the win chance a round's start gives, and the search that judges its
rollouts by it (shorter rollouts, the same blindness to hidden cards)."""

import random

from helpers import another_hand_dealt

from weathering_tui.bots import SearchBot
from weathering_tui.bots.expert import rollout
from weathering_tui.bots.heuristic import HeuristicBot
from weathering_tui.bots.value import FEATURES, ecologist_chance, features
from weathering_tui.bots.value_fit import solve
from weathering_tui.bots.value_weights import MODEL
from weathering_tui.engine import LeanView, Setup, apply_chosen, clone, new_game, view_for


def at_round_start(config="2v1", seed=40, round_=3, events=True):
    """A heuristic game stopped at the first decision of `round_`."""
    state = new_game(Setup.standard(config, seed=seed, events=events))
    bots = [HeuristicBot(seed + i) for i in range(len(state.players))]
    while state.round < round_:
        view = LeanView(state, state.pending.seat)
        apply_chosen(state, bots[state.pending.seat].choose(view), view)
    return state


def test_every_fit_weighs_every_feature_and_every_configuration_has_its_rounds():
    state = at_round_start()
    assert len(features(state)) == len(FEATURES)
    for (configuration, round_), (weights, spread) in MODEL.items():
        assert len(weights) == len(FEATURES), (configuration, round_)
        assert spread > 0
    configurations = {c for c, _ in MODEL}
    assert configurations == {"1v1", "2v1", "3v1", "4v1", "2v2", "3v2"}
    assert all((c, r) in MODEL for c in configurations for r in range(2, 11))


def test_the_ecologists_chance_rises_with_the_gauge():
    state = at_round_start()
    chance, expected = ecologist_chance(state)
    assert 0.0 < chance < 1.0 and 0.0 <= expected <= 30.0
    state.hp += 4
    higher, _ = ecologist_chance(state)
    state.hp -= 8
    lower, _ = ecologist_chance(state)
    assert lower < chance < higher


def test_the_lobbyists_spare_pa_lower_the_ecologists_chance():
    state = at_round_start("1v1", seed=41)
    lobbyist = next(p for p in state.players if p.side == "lobbyist")
    before, _ = ecologist_chance(state)
    lobbyist.stored_ap += 3
    after, _ = ecologist_chance(state)
    assert after < before


def test_decouverte_is_not_judged():
    state = at_round_start(events=False)
    assert ecologist_chance(state) is None


def test_a_judged_rollout_stops_at_the_next_round_and_gives_a_chance():
    state = at_round_start("2v2", seed=43)
    seat = state.pending.seat
    view = view_for(state, seat)
    action = view.legal[0]
    short = clone(state)
    score, won = rollout(
        view, short, action, random.Random(1), state.content, 1, lean=True, judged=True
    )
    assert short.round == state.round + 1 and not short.over
    assert 0.0 < won < 1.0
    full = clone(state)
    _, won_full = rollout(view, full, action, random.Random(1), state.content, lean=True)
    assert full.over and won_full in (0.0, 1.0)


def test_least_squares_recover_a_known_line():
    rows = [([1.0, x, x * x], 2.0 + 3.0 * x - 0.5 * x * x) for x in range(-20, 21)]
    weights, _ = solve(rows)
    assert [round(w, 1) for w in weights] == [2.0, 3.0, -0.5]


def test_the_judged_search_decides_from_the_view_only():
    for seed in (44, 45):
        state = at_round_start("2v1", seed=seed, round_=4)
        seat = state.pending.seat
        bot = SearchBot(seed=seed, budget=24, horizon=1)
        action = bot.choose(view_for(state, seat))
        twin = another_hand_dealt(state, seat)
        again = SearchBot(seed=seed, budget=24, horizon=1).choose(view_for(twin, seat))
        assert action == again and action in view_for(state, seat).legal


def test_a_training_game_is_read_at_every_round_start_with_its_final_gauge():
    from weathering_tui.bots.value_fit import play

    rows = play(("2v1", 1_000_001))
    rounds = [r for r, _, _ in rows]
    assert rounds == list(range(rounds[0], rounds[0] + len(rounds))) and rounds[0] <= 2
    assert len({hp for _, _, hp in rows}) == 1 and 0 <= rows[0][2] <= 30
    assert all(len(x) == len(FEATURES) for _, x, _ in rows)
