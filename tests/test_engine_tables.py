"""The engine's remembered tables (engine/tables.py) give what the rules give.

The legal list of a turn is read from tables made once per (content, configuration);
here it is checked against a list built straight from the rule predicates, at every
turn decision of seeded random games in every configuration. A LeanView's costs read
from the same tables: checked against a full view's."""

from __future__ import annotations

import random

import pytest

from weathering_tui.content import effects as fx
from weathering_tui.engine import LeanView, Setup, apply, legal_actions, new_game, view_for
from weathering_tui.engine import actions as act
from weathering_tui.engine.common import (
    card_def,
    character,
    distinct,
    effective_cost,
    level,
    power_cost,
    valid_targets,
)
from weathering_tui.engine.refusals import (
    cost_refusal,
    deck_refusal,
    discard_refusal,
    draw_refusal,
    partner_refusal,
    power_refusal,
    trade_refusal,
)

CONFIGURATIONS = ("1v1", "2v1", "3v1", "4v1", "2v2", "3v2")


def turn_by_the_rules(state, seat) -> list:
    """A turn's legal list made from the predicates alone, in the legal list's order."""
    player = state.players[seat]
    hand = distinct(player.hand)
    out = []
    for instance in hand:
        if cost_refusal(state, seat, instance) is None:
            for index, cartouche in enumerate(card_def(state, instance).cartouches):
                if any(isinstance(e, fx.Cancel) for e in cartouche):
                    continue
                for target in valid_targets(state, fx.target_selector(cartouche), seat):
                    out.append(act.PlayCard(seat, instance, index, target))
    if deck_refusal(state, seat) is None:
        out += [act.PutInDeck(seat, c) for c in hand]
    if discard_refusal(state, seat) is None:
        out += [act.Discard(seat, c) for c in hand]
    if draw_refusal(state, seat) is None:
        out.append(act.Draw(seat))
    if trade_refusal(state, seat) is None:
        out += [
            act.ProposeTrade(seat, other)
            for other in range(len(state.players))
            if partner_refusal(state, seat, other) is None
        ]
    out += [act.StoreAp(seat, amount) for amount in range(1, player.ap + 1)]
    if power_refusal(state, seat) is None:
        power = character(state, seat).power
        left = player.ap - power_cost(state, seat)
        if power.after_play_card:
            out += [
                act.UsePower(seat, card=c)
                for c in distinct(state.discard_pile)
                if effective_cost(state, seat, c) <= left
                and any(
                    not any(isinstance(e, fx.Cancel) for e in cartouche)
                    for cartouche in card_def(state, c).cartouches
                )
            ]
        else:
            effects = power.at(level(state, seat)).effects
            targets = valid_targets(state, fx.target_selector(effects), seat)
            if power.target_must_hold_cards:
                targets = [t for t in targets if t is not None and state.players[t].hand]
            out += [act.UsePower(seat, target=t) for t in targets]
    out.append(act.EndTurn(seat))
    return out


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_a_turns_legal_list_is_the_rules_list_at_every_turn_of_random_games(configuration):
    turns = 0
    for seed in range(3):
        state = new_game(Setup.standard(configuration, seed=100 + seed))
        state.keep_log = False
        rng = random.Random(seed)
        while not state.over:
            seat = state.pending.seat
            legal = legal_actions(state, seat)
            if state.pending.kind == "turn":
                assert legal == turn_by_the_rules(state, seat)
                turns += 1
            apply(state, rng.choice(legal))
    assert turns > 100


@pytest.mark.parametrize("configuration", ("1v1", "3v2"))
def test_a_lean_views_costs_are_the_full_views(configuration):
    state = new_game(Setup.standard(configuration, seed=5))
    rng = random.Random(5)
    checked = 0
    while not state.over:
        seat = state.pending.seat
        lean, full = LeanView(state, seat), view_for(state, seat, with_log=False)
        assert all(lean.cost(card) == cost for card, cost in full.costs.items())
        assert lean.costs == full.costs
        checked += len(full.costs)
        apply(state, rng.choice(full.legal))
    assert checked > 300


def test_distinct_keeps_each_cards_first_copy_in_order():
    hand = ["b#2", "a#1", "b#1", "c#3", "a#2", "c#1"]
    assert distinct(hand) == ["b#2", "a#1", "c#3"]
    assert distinct(["a#1", "b#1"]) == ["a#1", "b#1"]
    assert distinct([]) == []


def test_the_engine_vs_bench_times_a_tree_in_a_fresh_process():
    from weathering_tui.bench.vs import HERE, games_per_second

    wall, cpu = games_per_second(HERE, "1v1", "random", 2, 1)
    assert wall > 0 and cpu > 0
