"""rules-reference §10: Turn structure (R33–R43), Phase 2 (R44–R52), Transition (R53–R64)."""

import pytest
from helpers import (
    clear_hands,
    end_turns,
    end_turns_until,
    entries,
    kinds,
    pass_reactions,
    phase2,
    play,
    set_deck,
    set_hand,
    start,
    turn_of,
)

from weathering_tui.content import RULES_DIR, default_content
from weathering_tui.engine import IllegalAction, apply, legal_actions
from weathering_tui.engine import actions as act
from weathering_tui.engine.common import card_def, level_for
from weathering_tui.engine.state import ActiveEvent

# §2.1, copied from rules-reference.md: income / free draw / discard yield, with the
# amendments that rules/balance.md records (and must keep recording).
TUNED = {  # amendments of rules/balance.md (only numbers the rulebook does not print)
    ("1v1", "lobbyist", 1): ((3, 2, 2), (3, 2, 3)),
    ("2v1", "lobbyist", 1): ((4, 2, 2), (3, 2, 2)),
    ("2v1", "lobbyist", 2): ((3, 2, 1), (3, 3, 1)),
    ("3v1", "lobbyist", 1): ((5, 3, 3), (4, 3, 3)),
    ("3v1", "lobbyist", 2): ((5, 3, 1), (4, 3, 1)),
    ("4v1", "ecologist", 1): ((2, 1, 2), (2, 0, 2)),
    ("4v1", "lobbyist", 1): ((9, 3, 3), (4, 3, 4)),
    ("4v1", "lobbyist", 2): ((8, 4, 1), (3, 4, 1)),
    ("2v2", "ecologist", 1): ((2, 2, 2), (2, 2, 3)),
    ("2v2", "lobbyist", 2): ((1, 2, 1), (2, 2, 1)),
    ("3v2", "lobbyist", 1): ((2, 2, 2), (3, 1, 1)),
    ("3v2", "lobbyist", 2): ((1, 2, 1), (2, 2, 1)),
}
TABLE = {
    "1v1": ((3, 2, 3), (3, 0, 1), (3, 2, 2), (2, 2, 1)),
    "2v1": ((2, 2, 2), (1, 0, 1), (4, 2, 2), (3, 2, 1)),
    "3v1": ((2, 1, 2), (1, 0, 1), (5, 3, 3), (5, 3, 1)),
    "4v1": ((2, 1, 2), (1, 0, 1), (9, 3, 3), (8, 4, 1)),
    "2v2": ((2, 2, 2), (1, 0, 1), (1, 1, 2), (1, 2, 1)),
    "3v2": ((2, 1, 2), (1, 0, 1), (2, 2, 2), (1, 2, 1)),
}


def last_turn_of_round(state, rnd):
    """Jump to `rnd` and end turns until the last seat is to play."""
    state.round = rnd
    state.phase = 1 if rnd <= 5 else 2
    end_turns(state, len(state.players) - 1)
    while state.pending.kind != "turn":
        apply(state, legal_actions(state, state.pending.seat)[0])
    assert state.pending.seat == len(state.players) - 1


def test_r33_one_event_revealed_each_round_before_the_first_turn():
    state = start("3v2", seed=4, events=True)
    end_turns(state, 5 * 4)
    rounds = {}
    current = None
    for entry in state.log:
        if entry.kind == "round":
            current = entry.data["round"]
            rounds[current] = []
        elif current is not None and entry.kind in ("event_revealed", "turn"):
            rounds[current].append(entry.kind)
    assert len(rounds) >= 4
    for sequence in rounds.values():
        assert sequence[0] == "event_revealed"
        assert sequence.count("event_revealed") == 1


def test_r34_two_versus_one_ecologist_turn_start_gains_2_and_draws_2_without_window():
    state = start("2v1", seed=2)
    end_turns_until(state, 2)
    # The Lobbyiste could cancel anything announced now: the turn start is not an action.
    set_hand(state, 2, "boycott", "manifestation")
    state.players[2].ap = 10
    set_hand(state, 0)
    state.players[0].ap = 0
    announced = len(entries(state, "announce"))
    apply(state, act.EndTurn(2))
    assert state.pending.kind == "turn" and state.pending.seat == 0
    assert state.players[0].ap == 2 and len(state.players[0].hand) == 2
    assert len(entries(state, "announce")) == announced
    assert len(state.players[2].hand) == 2 and state.players[2].ap == 10


def test_r35_one_versus_one_ecologist_phase_one_gains_3_and_discard_gives_3():
    state = start("1v1", seed=2)
    assert state.players[0].ap == 6
    cards = set_hand(state, 0, "surconsommation")
    apply(state, act.Discard(0, cards[0]))
    pass_reactions(state)
    assert state.players[0].ap == 9


def test_r36_one_versus_one_ecologist_phase_two_gains_3_and_discard_gives_1():
    state = start("1v1", seed=2)
    last_turn_of_round(state, 6)
    apply(state, act.EndTurn(1))
    assert state.round == 7 and state.pending.seat == 0
    ap_before = entries(state, "turn")[-1]
    assert ap_before.data["income"] == 3
    cards = set_hand(state, 0, "surconsommation")
    ap = state.players[0].ap
    apply(state, act.Discard(0, cards[0]))
    pass_reactions(state)
    assert state.players[0].ap == ap + 1


def test_r37_multi_ecologist_phase_two_gains_1_and_draws_nothing():
    state = start("3v2", seed=2)
    last_turn_of_round(state, 6)
    clear_hands(state)
    state.players[0].ap = 0
    apply(state, act.EndTurn(4))
    assert state.round == 7
    assert state.players[0].ap == 1 and state.players[0].hand == []


def test_r38_phase_two_discard_gives_1_to_anyone():
    state = start("2v1", seed=2)
    phase2(state)
    for seat in (0, 2):
        cards = set_hand(state, seat, "surconsommation")
        turn_of(state, seat, ap=3)
        apply(state, act.Discard(seat, cards[0]))
        pass_reactions(state)
        assert state.players[seat].ap == 4


@pytest.mark.parametrize("config", list(TABLE))
def test_r39_per_turn_values_match_the_summary_table(config):
    table = default_content().configurations[config]
    cells = TABLE[config]
    record = (RULES_DIR / "balance.md").read_text(encoding="utf-8")
    for (side, phase), cell in zip(
        [("ecologist", 1), ("ecologist", 2), ("lobbyist", 1), ("lobbyist", 2)], cells, strict=True
    ):
        row = table.table(side, phase)
        reference, tuned = TUNED.get((config, side, phase), (cell, cell))
        assert reference == cell  # the amendment starts from the reference's value
        assert (row.income, row.free_draw, row.discard_yield) == tuned
        if tuned != cell:  # every amendment has its reason written
            assert f"{config} {'Écolo' if side == 'ecologist' else 'Lobbyiste'}" in record
    # and the engine plays every value of the table: each side's first seat starts a turn
    # with 0 PA and an empty hand, then discards one card
    for phase_round in (1, 6):
        phase = 1 if phase_round == 1 else 2
        for side in ("ecologist", "lobbyist"):
            row = table.table(side, phase)
            state = start(config, seed=9)
            seat = 0 if side == "ecologist" else table.ecologists
            state.round, state.phase = phase_round, phase
            before = (seat - 1) % len(state.players)
            end_turns_until(state, before)
            clear_hands(state)
            state.players[seat].ap = 0
            apply(state, act.EndTurn(before))
            if seat == 0:
                assert state.round == phase_round + 1
            assert state.pending.kind == "turn" and state.pending.seat == seat
            assert state.players[seat].ap == row.income, (side, phase)
            assert len(state.players[seat].hand) == row.free_draw, (side, phase)
            cards = set_hand(state, seat, "surconsommation")
            apply(state, act.Discard(seat, cards[0]))
            pass_reactions(state)
            assert state.players[seat].ap == min(10, row.income + row.discard_yield), (side, phase)


def test_r40_lobbyists_play_after_every_ecologist():
    state = start("3v2", seed=1, events=True)
    end_turns(state, 15)
    seats_by_round = {}
    for entry in entries(state, "turn"):
        seats_by_round.setdefault(entry.data["round"], []).append(entry.data["seat"])
    for seats in seats_by_round.values():
        sides = [state.players[s].side for s in seats]
        assert sides == sorted(sides)


def test_r41_a_power_once_per_turn():
    state = start("2v1", characters=["thomas", "amir", "insatiable"])
    turn_of(state, 0, ap=10)
    apply(state, act.UsePower(0, target=0))
    pass_reactions(state)
    assert not any(isinstance(a, act.UsePower) for a in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="^power_once"):
        apply(state, act.UsePower(0, target=0))


def test_r42_crossing_a_threshold_mid_turn_lowers_the_price_at_once():
    state = start("2v1", characters=["thomas", "amir", "insatiable"])
    turn_of(state, 0, ap=5)
    state.players[0].stored_ap = 2
    apply(state, act.StoreAp(0, 1))
    pass_reactions(state)
    assert state.players[0].ap == 4
    apply(state, act.UsePower(0, target=1))
    pass_reactions(state)
    assert state.players[0].ap == 2  # paid the level-2 price (2), not 3


@pytest.mark.parametrize(
    ("stored", "level"), [(0, 1), (2, 1), (3, 2), (5, 2), (6, 3), (9, 3), (20, 3)]
)
def test_r43_levels_from_stored_pa(stored, level):
    state = start("2v1")
    assert level_for(state, stored) == level


# ---------------------------------------------------------------- phase 2


def test_r44_ecologists_cannot_take_the_draw_action_in_phase_two():
    state = start("2v1")
    phase2(state)
    turn_of(state, 0, ap=5)
    assert act.Draw(0) not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="^draw_golden_rule"):
        apply(state, act.Draw(0))


def test_r45_greenwashing_still_draws_for_an_ecologist_in_phase_two():
    state = start("2v1")
    phase2(state)
    set_hand(state, 0, "greenwashing")
    turn_of(state, 0, ap=5)
    play(state, 0, "greenwashing")
    pass_reactions(state)
    assert len(state.players[0].hand) == 1 and state.hp == 9


def test_r46_ecologists_neither_start_nor_accept_trades_in_phase_two():
    state = start("2v2")
    phase2(state)
    for seat in range(4):
        set_hand(state, seat, "surconsommation")
    turn_of(state, 0, ap=5)
    assert not any(isinstance(a, act.ProposeTrade) for a in legal_actions(state, 0))
    turn_of(state, 2, ap=5)
    partners = {a.partner for a in legal_actions(state, 2) if isinstance(a, act.ProposeTrade)}
    assert partners == {3}
    with pytest.raises(IllegalAction):
        apply(state, act.ProposeTrade(2, 0))


def test_r47_two_lobbyists_may_trade_in_phase_two():
    state = start("2v2")
    phase2(state)
    set_hand(state, 2, "surconsommation")
    set_hand(state, 3, "monoculture")
    turn_of(state, 2, ap=5)
    apply(state, act.ProposeTrade(2, 3))
    apply(state, act.AnswerTrade(3, True))
    pass_reactions(state)
    assert [c.partition("#")[0] for c in state.players[2].hand] == ["monoculture"]


def test_r48_frugality_for_ecologists_in_phase_two():
    state = start("2v1")
    phase2(state)
    set_hand(state, 0, "sobriete_energetique", "potager_partage")
    turn_of(state, 0, ap=2)
    play(state, 0, "sobriete_energetique")
    pass_reactions(state)
    assert state.players[0].ap == 0
    play(state, 0, "potager_partage")
    pass_reactions(state)
    assert state.players[0].ap == 0 and state.hp == 14


def test_r49_lobbyists_pay_the_printed_cost_in_phase_two():
    state = start("2v1")
    phase2(state)
    set_hand(state, 2, "betonisation")
    turn_of(state, 2, ap=3)
    play(state, 2, "betonisation")
    pass_reactions(state)
    assert state.players[2].ap == 0


def test_r50_energy_crisis_lowers_income_but_not_costs():
    state = start("2v1", seed=3)
    last_turn_of_round(state, 2)
    state.active_events.append(ActiveEvent("crise_energetique", ["crise_energetique#1"], 2))
    clear_hands(state)
    state.players[0].ap = 0
    apply(state, act.EndTurn(2))
    assert state.players[0].ap == 1  # 2 − 1
    set_hand(state, 0, "mobilite_douce")
    with pytest.raises(IllegalAction, match=r"^card_cost .*cost=2"):
        play(state, 0, "mobilite_douce")
    state.players[0].ap = 2
    play(state, 0, "mobilite_douce")
    pass_reactions(state)
    assert state.players[0].ap == 0 and state.hp == 12


def test_r51_diplomatie_works_in_phase_two():
    state = start("2v1", characters=["morgan", "amir", "fossilise"])
    phase2(state)
    mine = set_hand(state, 0, "mangroves")
    theirs = set_hand(state, 2, "deforestation")
    turn_of(state, 0, ap=5)
    apply(state, act.UsePower(0, target=2))
    pass_reactions(state)
    assert state.players[0].hand == theirs and state.players[2].hand == mine


def test_r52_a_deckless_ecologist_plays_on_in_phase_two():
    state = start("2v1", characters=["thomas", "amir", "fossilise"])
    last_turn_of_round(state, 5)
    set_deck(state, 0)
    set_deck(state, 1, "entraide", "potager_partage", "mobilite_douce")
    apply(state, act.EndTurn(2))
    assert state.round == 6 and state.players[0].hand == []
    assert state.players[0].ap >= 1
    assert any(isinstance(a, act.UsePower) for a in legal_actions(state, 0))
    apply(state, act.UsePower(0, target=0))
    pass_reactions(state)
    apply(state, act.EndTurn(0))
    play(state, 1, "entraide", target=0)
    pass_reactions(state)
    apply(state, act.ChooseCard(1, state.players[1].hand[0]))
    apply(state, act.ChooseCard(1, None))
    end_turns(state, 2)
    assert state.pending.seat == 0 and len(state.players[0].hand) == 1
    assert any(isinstance(a, act.PlayCard) for a in legal_actions(state, 0))


# ---------------------------------------------------------------- transition


def to_transition(state, decks=None, hp=None):
    last_turn_of_round(state, 5)
    for seat, cards in (decks or {}).items():
        set_deck(state, seat, *cards)
    if hp is not None:
        state.hp = hp
    apply(state, act.EndTurn(len(state.players) - 1))


MONO = ["potager_partage", "mobilite_douce", "sobriete_energetique", "renovation_thermique"]
FOUR = ["potager_partage", "reboisement", "mangroves", "eoliennes"]


def test_r53_transition_runs_synergies_then_preparation_then_check():
    state = start("2v1", seed=1)
    to_transition(state, {0: MONO})
    apply(state, act.ClaimSynergy(0, True))
    order = [k for k in kinds(state) if k in ("synergy", "prepare", "round")]
    assert order[-4:] == ["synergy", "prepare", "prepare", "round"]
    assert state.round == 6 and state.phase == 2


def test_r54_single_type_synergy_heals_2():
    state = start("2v1", seed=1)
    to_transition(state, {0: MONO}, hp=12)
    assert state.pending.kind == "claim_synergy" and state.pending.seat == 0
    apply(state, act.ClaimSynergy(0, True))
    assert state.hp == 14


def test_r54_the_synergy_bonus_is_not_a_heal_a_drought_lessens():
    """rules/README.md: the +2 PV is the rules' bonus, not a card's heal: Sécheresse
    ("every heal restores 1 PV less"), still running at the transition, leaves it whole."""
    from weathering_tui.engine.state import ActiveEvent

    state = start("2v1", seed=1)
    to_transition(state, {0: MONO}, hp=12)
    state.active_events.append(ActiveEvent("secheresse", ["secheresse#1"], 1))
    apply(state, act.ClaimSynergy(0, True))
    assert state.hp == 14


def test_r55_four_types_synergy_draws_2_into_the_deck_beyond_6():
    state = start("2v1", seed=1)
    to_transition(state, {0: FOUR + ["boycott", "troc"]})
    pile = len(state.draw_pile)
    apply(state, act.ClaimSynergy(0, True))
    assert len(state.draw_pile) == pile - 2
    assert len(state.players[0].hand) == 8  # the deck of 8 became the hand


def test_r56_three_cards_give_no_synergy():
    state = start("2v1", seed=1)
    to_transition(state, {0: MONO[:3], 1: FOUR[:3]})
    assert not any(e.kind == "synergy" for e in state.log)
    assert state.round == 6


def test_r57_a_synergy_claim_shows_only_the_type_corners():
    state = start("2v1", seed=1)
    to_transition(state, {0: MONO})
    deck = list(state.players[0].deck)
    apply(state, act.ClaimSynergy(0, True))
    entry = entries(state, "synergy")[-1]
    assert entry.data["types"] == ["anthropique"] * 4
    assert not any(card in str(entry.data) for card in deck)
    assert set(entry.data) == {"seat", "synergy", "types"}


def test_r58_preparation_discards_the_hand_and_the_deck_becomes_the_hand():
    state = start("2v1", seed=1)
    last_turn_of_round(state, 5)
    hand = set_hand(state, 0, "surconsommation", "monoculture")
    deck = set_deck(state, 0, *(FOUR + ["boycott", "troc", "entraide"])[:6])
    state.players[0].deck.append(state.draw_pile.pop())  # 7 cards, as after a synergy
    deck = list(state.players[0].deck)
    ap = state.players[0].ap
    apply(state, act.EndTurn(2))
    if state.pending.kind == "claim_synergy":
        apply(state, act.ClaimSynergy(state.pending.seat, False))
    assert set(hand) <= set(state.discard_pile)
    assert state.players[0].hand == deck and len(deck) == 7
    assert state.players[0].ap == ap + 1  # only round 6's income, no PA for the discards


def test_r59_after_the_transition_the_next_card_received_brings_the_hand_to_6():
    state = start("2v1", seed=1)
    to_transition(state, {0: FOUR + ["boycott", "troc"]})
    apply(state, act.ClaimSynergy(0, True))
    assert len(state.players[0].hand) == 8
    set_hand(state, 1, "entraide", "potager_partage")
    end_turns(state, 1)
    play(state, 1, "entraide", target=0)
    pass_reactions(state)
    apply(state, act.ChooseCard(1, state.players[1].hand[0]))
    assert state.pending.kind == "choose_discard" and state.pending.seat == 0
    for _ in range(3):
        apply(state, act.ChooseCard(0, state.players[0].hand[0]))
    assert len(state.players[0].hand) == 6


def test_r60_transition_leaves_lobbyist_hands_and_all_pa_unchanged():
    state = start("2v1", seed=1)
    last_turn_of_round(state, 5)
    set_deck(state, 0, *MONO)
    for p in state.players:
        p.stored_ap = p.seat + 1
    before = [(p.ap, p.stored_ap) for p in state.players]
    lobby_hand = list(state.players[2].hand)
    apply(state, act.EndTurn(2))
    apply(state, act.ClaimSynergy(0, False))
    assert [p.stored_ap for p in state.players] == [b[1] for b in before]
    assert state.players[1].ap == before[1][0]  # seat 1 has not played in round 6 yet
    assert state.players[2].ap == before[2][0]
    assert state.players[2].hand == lobby_hand


def test_r61_a_synergy_that_reaches_30_ends_in_a_perfect_ecologist_victory():
    state = start("2v1", seed=1)
    to_transition(state, {0: MONO}, hp=28)
    apply(state, act.ClaimSynergy(0, True))
    assert state.over and state.outcome.band == "grand_soleil" and state.outcome.perfect


def test_r62_gauge_at_0_after_the_transition_is_a_perfect_lobbyist_victory():
    state = start("2v1", seed=1)
    to_transition(state, hp=0)
    assert state.over and state.outcome.band == "effondrement"
    assert state.outcome.winner == "lobbyists" and state.outcome.perfect


def test_r63_no_reaction_window_during_the_transition():
    state = start("2v1", seed=1)
    last_turn_of_round(state, 5)
    set_hand(state, 2, "boycott", "manifestation")
    set_deck(state, 0, *MONO)
    state.players[2].ap = 10
    apply(state, act.EndTurn(2))
    announces = len(entries(state, "announce"))
    apply(state, act.ClaimSynergy(0, True))
    assert state.pending.kind == "turn" and state.round == 6
    assert len(entries(state, "announce")) == announces


def test_r64_an_empty_deck_means_an_empty_hand_in_phase_two():
    state = start("2v1", seed=1)
    to_transition(state, {0: [], 1: []})
    assert state.round == 6
    assert state.players[0].hand == [] and state.players[1].hand == []
    assert card_def(state, state.discard_pile[-1]) is not None
