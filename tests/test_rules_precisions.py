"""rules-reference §12.1: engine precisions R110–R120."""

import json

import pytest
from helpers import (
    clear_hands,
    empty_pile,
    end_turns,
    entries,
    legal,
    pass_reactions,
    phase2,
    play,
    pull,
    set_deck,
    set_hand,
    start,
    turn_of,
)

from weathering_tui.content.converter import get_converter
from weathering_tui.engine import IllegalAction, apply, legal_actions, view_for
from weathering_tui.engine import actions as act
from weathering_tui.engine.common import income
from weathering_tui.engine.state import ActiveEvent


def to_json(view):
    return get_converter().unstructure(view)


def test_r110_planning_with_five_in_hand_overflows_to_six_by_choice():
    state = start("2v1")
    cards = set_hand(
        state, 0, "planification_ecologique", "mangroves", "boycott", "troc", "tempete"
    )
    turn_of(state, 0, ap=5)
    play(state, 0, "planification_ecologique")
    pass_reactions(state)
    assert len(state.players[0].hand) == 7
    assert state.pending.kind == "choose_discard" and state.pending.info["reason"] == "overflow"
    apply(state, act.ChooseCard(0, cards[2]))
    assert len(state.players[0].hand) == 6 and cards[2] in state.discard_pile
    assert state.players[0].ap == 1


def test_r111_a_refused_trade_costs_nothing_and_another_may_follow():
    state = start("2v2")
    for seat in range(4):
        set_hand(state, seat, ["mangroves", "boycott", "troc", "tempete"][seat])
    turn_of(state, 0, ap=3)
    apply(state, act.ProposeTrade(0, 2))
    apply(state, act.AnswerTrade(2, False))
    assert state.players[0].ap == 3 and state.pending.kind == "turn"
    assert act.ProposeTrade(0, 3) in legal_actions(state, 0)
    apply(state, act.ProposeTrade(0, 3))
    apply(state, act.AnswerTrade(3, True))
    pass_reactions(state)
    assert state.players[0].ap == 2


def test_r112_forecast_only_as_the_first_action():
    state = start("2v1", characters=["mirai", "amir", "fossilise"], events=True)
    set_hand(state, 0, "potager_partage")
    turn_of(state, 0, ap=5)
    assert act.UsePower(0) in legal_actions(state, 0)
    play(state, 0, "potager_partage")
    pass_reactions(state)
    assert act.UsePower(0) not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="^power_first_action"):
        apply(state, act.UsePower(0))


@pytest.mark.parametrize("how", ["eureka", "diplomatie", "ecologie_decoloniale"])
def test_r113_hand_effects_never_touch_a_deck(how):
    hero = {"eureka": "amir", "diplomatie": "morgan", "ecologie_decoloniale": "thomas"}[how]
    state = start("2v1", characters=[hero, "priya", "fossilise"])
    clear_hands(state)
    deck = set_deck(state, 1, "mangroves", "reboisement")
    set_hand(state, 1, "troc")
    turn_of(state, 0, ap=10)
    if how == "ecologie_decoloniale":
        set_hand(state, 0, how)
        play(state, 0, how, target=1)
    else:
        set_hand(state, 0, "tempete")
        apply(state, act.UsePower(0, target=1))
    pass_reactions(state)
    while state.pending.kind != "turn":
        apply(state, legal(state)[0])
    assert state.players[1].deck == deck
    if how == "eureka":
        assert entries(state, "look_hand")[-1].secret == {"hand": state.players[1].hand}


def test_r114_zero_waste_never_offers_zero_waste():
    state = start("2v1")
    other = pull(state, "zero_dechet")
    set_hand(state, 0, "zero_dechet")
    taken = [pull(state, "mangroves"), pull(state, "boycott")]
    state.discard_pile.extend([other, *taken])
    turn_of(state, 0, ap=3)
    play(state, 0, "zero_dechet")
    pass_reactions(state)
    assert {a.card for a in legal(state)} == set(taken)
    with pytest.raises(IllegalAction):
        apply(state, act.ChooseCard(0, other))


def test_r115_a_cancelled_discard_is_known_to_every_seat():
    state = start("2v1")
    cards = set_hand(state, 0, "surconsommation")
    set_hand(state, 2, "boycott")
    state.players[2].ap = 5
    turn_of(state, 0, ap=3)
    apply(state, act.Discard(0, cards[0]))
    apply(state, act.Cancel(2, state.players[2].hand[0]))
    assert state.players[0].hand == cards
    for seat in range(3):
        kept = [e for e in view_for(state, seat).log if e.kind == "discard_kept"]
        assert kept and kept[-1].data["card"] == cards[0]


def test_r116_only_the_two_traders_learn_the_swapped_cards():
    state = start("3v1")
    mine = set_hand(state, 0, "mangroves", "troc")
    theirs = set_hand(state, 2, "reboisement", "tempete")
    turn_of(state, 0, ap=3)
    apply(state, act.ProposeTrade(0, 2))
    apply(state, act.AnswerTrade(2, True))
    pass_reactions(state)
    apply(state, act.ChooseCard(0, mine[0]))
    apply(state, act.ChooseCard(2, theirs[0]))
    exchange = entries(state, "exchange")[-1]
    assert set(exchange.audience) == {0, 2}
    for seat in (1, 3):
        text = json.dumps(to_json(view_for(state, seat)))
        assert mine[0] not in text and theirs[0] not in text
    for seat in (0, 2):
        text = json.dumps(to_json(view_for(state, seat)))
        assert mine[0] in text and theirs[0] in text


def test_r117_nobody_can_play_at_30_in_phase_two_is_a_perfect_ecologist_victory():
    state = start("2v1")
    phase2(state)
    state.round = 8
    clear_hands(state)
    empty_pile(state)
    state.hp = 30
    turn_of(state, 1, ap=1)
    apply(state, act.EndTurn(1))
    assert state.over and state.outcome.band == "grand_soleil" and state.outcome.perfect


def test_r118_energy_crisis_and_disinformation_add_up_to_a_gain_of_0():
    state = start("2v1")
    end_turns(state, 2)
    state.active_events += [
        ActiveEvent("crise_energetique", ["crise_energetique#1"], 2),
        ActiveEvent("desinformation", ["desinformation#1"], 2),  # 1 left after this round
    ]
    clear_hands(state)
    state.players[0].ap = 0
    end_turns(state, 1)
    assert state.pending.seat == 0 and state.players[0].ap == 0
    assert entries(state, "turn")[-1].data["income"] == 0


@pytest.mark.parametrize("rule", ["R50", "R67", "R118"])
def test_r50_r67_r118_a_gain_lowered_below_0_is_0_and_takes_no_pa(rule):
    """The floor itself: in 2v1's phase 2 an Écolo gains 1; Crise énergétique (R50) and
    Désinformation (R67) together (R118) take 2 off it: the gain is 0, not −1, so PA
    already held stay whole (a gain computed without the floor would take one away)."""
    state = start("2v1")
    end_turns(state, 2)
    phase2(state)
    events = {
        "R50": [("crise_energetique", 2), ("desinformation", 2)],
        "R67": [("desinformation", 2), ("crise_energetique", 2)],
        "R118": [("crise_energetique", 2), ("desinformation", 2)],
    }[rule]
    state.active_events += [ActiveEvent(e, [f"{e}#1"], n) for e, n in events]
    clear_hands(state)
    state.players[0].ap = 3
    end_turns(state, 1)
    assert state.pending.seat == 0
    assert income(state, 0) == 0, "the gain itself is floored (§7.2), not only what is added"
    assert entries(state, "turn")[-1].data["income"] == 0
    assert state.players[0].ap == 3, "a negative gain never takes PA away"
    from weathering_tui.engine import view_for
    from weathering_tui.words import Tr
    from weathering_tui.words.log_lines import log_line

    view = view_for(state, 1)  # the log says why nothing was gained
    turn = next(e for e in reversed(view.log) if e.kind == "turn")
    assert log_line(Tr("en"), view, turn).endswith("+0 PA → 3 (income cut by an event)")


def test_r119_frugality_lets_an_ecologist_at_0_pa_play_a_1_cost_card():
    state = start("2v1")
    phase2(state)
    set_hand(state, 0, "potager_partage")
    turn_of(state, 0, ap=0)
    play(state, 0, "potager_partage")
    pass_reactions(state)
    assert state.hp == 11 and state.players[0].ap == 0


def test_r120_each_ecologist_effects_from_a_lobbyist_start_at_the_first_seat():
    state = start("3v2")
    for seat in range(3):
        state.players[seat].ap = 5
    set_hand(state, 4, "matraquage_publicitaire")
    turn_of(state, 4, ap=5)
    play(state, 4, "matraquage_publicitaire")
    pass_reactions(state)
    assert [e.data["seat"] for e in entries(state, "lose_ap")] == [0, 1, 2]
    assert [p.ap for p in state.players[:3]] == [3, 3, 3]


def test_r54_every_ecologist_with_a_big_enough_deck_is_asked_even_without_synergy():
    """Asking only the Écolos whose hidden deck qualifies would tell the table which
    decks do: everyone with a deck of 4 or more is asked; without a synergy the only
    answer is to claim nothing."""
    from weathering_tui.engine import actions as act
    from weathering_tui.engine import flow, legal_actions, new_game
    from weathering_tui.engine.common import synergy_of
    from weathering_tui.engine.state import Setup, TransitionFrame

    state = new_game(Setup.standard("2v1", seed=3))
    cards = [c for c in state.content.cards.values() if c.copies >= 2]
    first = next(c for c in cards if c.type == "terrestre")
    second = next(c for c in cards if c.type == "oceanique")
    mixed = [f"{c.id}#{n}" for c in (first, second) for n in (1, 2)]  # two types, four cards
    zones = [state.draw_pile, state.discard_pile]
    zones += [p.hand for p in state.players] + [p.deck for p in state.players]
    for instance in mixed:
        for zone in zones:
            if instance in zone:
                zone.remove(instance)
    state.players[0].deck = list(mixed)
    assert synergy_of(state, 0) is None
    state.stack.append(TransitionFrame())
    flow.step_transition(state, state.stack[-1])
    assert state.pending.kind == "claim_synergy" and state.pending.seat == 0
    assert legal_actions(state, 0) == [act.ClaimSynergy(0, False)]
