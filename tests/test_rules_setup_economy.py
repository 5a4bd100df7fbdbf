"""rules-reference §10: Setup (R1–R10) and Economy and limits (R11–R32)."""

from collections import Counter

import pytest
from helpers import (
    all_cards,
    empty_pile,
    end_turns,
    entries,
    legal,
    mulligan,
    pass_reactions,
    play,
    set_deck,
    set_hand,
    start,
    turn_of,
)

from weathering_tui.content import default_content
from weathering_tui.engine import IllegalAction, apply, legal_actions, new_game
from weathering_tui.engine import actions as act
from weathering_tui.engine.common import card_def, card_id
from weathering_tui.engine.state import Setup

CONFIGS = ["1v1", "2v1", "3v1", "4v1", "2v2", "3v2"]


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("config", ["2v1", "3v1", "4v1", "2v2", "3v2"])
def test_r1_multi_configuration_gauge_starts_at_10(config):
    assert start(config).hp == 10


def test_r2_one_versus_one_gauge_starts_at_15():
    assert start("1v1").hp == 15


@pytest.mark.parametrize("config", CONFIGS)
def test_r3_every_player_starts_with_4_cards_and_3_ap(config):
    state = new_game(Setup.standard(config, seed=3))
    assert [len(p.hand) for p in state.players] == [4] * len(state.players)
    assert [p.ap for p in state.players] == [3] * len(state.players)


@pytest.mark.parametrize("config", CONFIGS)
def test_r4_ecologist_seats_come_first_and_order_never_changes(config):
    state = start(config, seed=5, events=True)
    sides = [p.side for p in state.players]
    assert sides == sorted(sides)  # "ecologist" < "lobbyist"
    order = [p.character for p in state.players]
    turns = []
    for _ in range(40):
        if state.over:
            break
        if state.pending.kind == "turn":
            turns.append((state.round, state.pending.seat))
            apply(state, act.EndTurn(state.pending.seat))
        else:
            apply(state, legal(state)[0])
    assert [p.character for p in state.players] == order
    by_round = {}
    for rnd, seat in turns:
        by_round.setdefault(rnd, []).append(seat)
    for seats in list(by_round.values())[:-1]:
        assert seats == list(range(len(order)))
    with pytest.raises(IllegalAction):
        new_game(Setup("2v1", tuple(reversed(Setup.standard("2v1").seats))))


def test_r5_mulligan_puts_cards_under_and_redraws_as_many():
    state = start("2v1", seed=1, mulligan=False)
    hand = list(state.players[0].hand)
    top_three = state.draw_pile[-3:]
    mulligan(state, 0, (hand[0], hand[2], hand[3]))
    assert state.draw_pile[:3] == [hand[3], hand[2], hand[0]]
    assert len(state.players[0].hand) == 4
    assert hand[1] in state.players[0].hand
    assert sorted(state.players[0].hand) == sorted([hand[1], *top_three])


def test_r6_no_mulligan_after_it_was_used_or_once_round_one_started():
    state = start("2v1", seed=1, mulligan=False)
    apply(state, act.ChooseCard(0, None))
    with pytest.raises(IllegalAction):
        apply(state, act.ChooseCard(0, None))
    for seat in (1, 2):
        apply(state, act.ChooseCard(seat, None))
    assert state.round == 1
    for seat in range(3):
        assert state.pending.kind != "mulligan"
        assert act.ChooseCard(seat, None) not in legal_actions(state, seat)
        with pytest.raises(IllegalAction):
            apply(state, act.ChooseCard(seat, None))


def test_r7_mulligan_opens_no_reaction_window():
    state = start("2v1", seed=1, mulligan=False)
    set_hand(state, 2, "boycott", "manifestation", "cyclone", "canicule")
    state.players[2].ap = 10
    hand = list(state.players[0].hand)
    mulligan(state, 0, hand)
    assert state.pending.kind == "mulligan" and state.pending.seat == 1
    assert not entries(state, "announce")


def test_r8_event_pile_of_20_shuffled_cards_or_none_in_discovery_mode():
    content = default_content()
    printed = [f"{e.id}#{n}" for e in content.events.values() for n in range(1, e.copies + 1)]
    state = new_game(Setup.standard("3v2", seed=2))
    assert len(state.event_pile) == 20
    assert sorted(state.event_pile) == sorted(printed) and state.event_pile != printed
    other = new_game(Setup.standard("3v2", seed=3))
    assert other.event_pile != state.event_pile
    discovery = start("3v2", seed=2, events=False)
    assert discovery.event_pile == []
    end_turns(discovery, 10)
    assert discovery.round == 3
    assert not entries(discovery, "event_revealed")


@pytest.mark.parametrize("config", CONFIGS)
def test_r9_each_player_has_one_character_of_their_side_never_twice(config):
    content = default_content()
    for seed in range(10):
        state = new_game(Setup.standard(config, seed=seed))
        chars = [p.character for p in state.players]
        assert len(set(chars)) == len(chars)
        for p in state.players:
            assert content.characters[p.character].side == p.side
    with pytest.raises(IllegalAction):
        start("2v1", characters=["priya", "priya", "fossilise"])


def test_r10_action_pile_holds_76_cards_by_type():
    state = new_game(Setup.standard("3v2", seed=0))
    cards = all_cards(state)
    assert len(cards) == 76 and len(set(cards)) == 76
    types = Counter(card_def(state, c).type for c in cards)
    assert types == {"anthropique": 39, "terrestre": 13, "atmospherique": 13, "oceanique": 11}


# ---------------------------------------------------------------- economy


def test_r11_pa_beyond_10_go_back_to_the_reserve():
    state = start("2v1", characters=["thomas", "priya", "fossilise"])
    turn_of(state, 0, ap=9)
    state.players[1].ap = 9
    apply(state, act.UsePower(0, target=1))
    pass_reactions(state)
    assert state.players[1].ap == 10
    assert entries(state, "gain_ap")[-1].data["amount"] == 1


def test_r11_a_turn_begun_at_10_pa_gains_nothing_and_the_log_says_why():
    from weathering_tui.engine import view_for
    from weathering_tui.words import Tr
    from weathering_tui.words.log_lines import log_line

    state = start("2v1")
    state.players[1].ap = 10
    end_turns(state, 1)  # seat 0 ends: seat 1's turn begins
    assert state.active == 1 and state.players[1].ap == 10
    view = view_for(state, 0)
    turn = next(e for e in reversed(view.log) if e.kind == "turn")
    assert turn.data["income"] == 0
    assert log_line(Tr("en"), view, turn).endswith("+0 PA → 10 (10 PA at most)")


def test_r12_the_cap_ignores_stored_pa():
    state = start("2v1")
    set_hand(state, 0, "surconsommation")
    turn_of(state, 0, ap=8)
    state.players[0].stored_ap = 6
    apply(state, act.Discard(0, state.players[0].hand[0]))
    pass_reactions(state)
    assert state.players[0].ap == 10  # 8 + 2: the cap looked at 8, not 14
    state.players[0].ap = 10
    state.players[0].stored_ap = 6
    assert state.players[0].ap + state.players[0].stored_ap == 16


def test_r13_storing_moves_pa_one_way():
    state = start("2v1", characters=["amir", "thomas", "fossilise"])
    set_hand(state, 2, "tempete")
    turn_of(state, 0, ap=5)
    apply(state, act.StoreAp(0, 3))
    pass_reactions(state)
    assert (state.players[0].ap, state.players[0].stored_ap) == (2, 3)
    turn_of(state, 2, ap=5)
    play(state, 2, "tempete", target=0)
    pass_reactions(state)
    assert (state.players[0].ap, state.players[0].stored_ap) == (0, 3)


def test_r14_store_and_deck_only_for_oneself():
    state = start("2v1")
    cards = set_hand(state, 0, "potager_partage")
    turn_of(state, 0, ap=5)
    assert "target" not in act.StoreAp.__attrs_attrs__.__dir__()
    assert {a.name for a in act.StoreAp.__attrs_attrs__} == {"seat", "amount"}
    assert {a.name for a in act.PutInDeck.__attrs_attrs__} == {"seat", "card"}
    apply(state, act.PutInDeck(0, cards[0]))
    pass_reactions(state)
    assert state.players[0].deck == cards and state.players[1].deck == []
    assert all(a.seat == 0 for a in legal_actions(state, 0))


def test_r15_hand_overflow_discards_at_once_without_pa_or_the_discard_action():
    state = start("2v1")
    set_hand(state, 1, *["surconsommation"] * 3, "monoculture", "monoculture", "betonisation")
    turn_of(state, 1, ap=5)
    apply(state, act.Draw(1))
    pass_reactions(state)
    assert state.pending.kind == "choose_discard" and state.pending.seat == 1
    apply(state, act.ChooseCard(1, state.players[1].hand[0]))
    assert len(state.players[1].hand) == 6
    assert state.players[1].ap == 4  # only the draw's 1 PA, nothing gained
    assert any(isinstance(a, act.Discard) for a in legal_actions(state, 1))


def test_r16_a_full_deck_refuses_more_cards():
    state = start("2v1")
    set_deck(
        state, 0, *["sobriete_energetique"] * 3, "potager_partage", "mobilite_douce", "boycott"
    )
    cards = set_hand(state, 0, "reboisement")
    turn_of(state, 0, ap=5)
    assert not any(isinstance(a, act.PutInDeck) for a in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match=r"^deck_full \(limit=6\)"):
        apply(state, act.PutInDeck(0, cards[0]))


def test_r17_an_empty_pile_gives_nothing_and_is_never_reshuffled():
    state = start("2v1")
    set_hand(state, 0, "greenwashing")
    empty_pile(state)
    discard_before = list(state.discard_pile)
    turn_of(state, 0, ap=5)
    play(state, 0, "greenwashing")
    pass_reactions(state)
    assert state.players[0].hand == []
    apply(state, act.EndTurn(0))  # seat 1's free draws come from an empty pile
    assert state.players[1].hand == [c for c in state.players[1].hand]
    assert state.draw_pile == []
    assert state.discard_pile[: len(discard_before)] == discard_before


def test_r18_the_draw_action_needs_a_card_in_the_pile():
    state = start("2v1")
    turn_of(state, 0, ap=5)
    assert act.Draw(0) in legal_actions(state, 0)
    empty_pile(state)
    assert act.Draw(0) not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="^draw_pile_empty"):
        apply(state, act.Draw(0))


def test_r19_discards_caused_by_effects_yield_no_pa():
    state = start("2v1", events=True, characters=["cassy", "thomas", "fossilise"])
    # card: Pluie diluvienne
    set_hand(state, 2, "pluie_diluvienne", "surconsommation")
    turn_of(state, 2, ap=5)
    play(state, 2, "pluie_diluvienne")
    pass_reactions(state)
    assert state.players[2].ap == 3
    # power: Action directe
    set_hand(state, 2, "monoculture")
    turn_of(state, 0, ap=5)
    apply(state, act.UsePower(0, target=2))
    pass_reactions(state)
    assert state.players[2].ap == 3 and state.players[2].hand == []
    # overflow
    set_hand(state, 1, *["surconsommation"] * 3, "monoculture", "monoculture", "betonisation")
    turn_of(state, 1, ap=5)
    apply(state, act.Draw(1))
    pass_reactions(state)
    apply(state, act.ChooseCard(1, state.players[1].hand[0]))
    assert state.players[1].ap == 4
    effect_discards = [e for e in entries(state, "discard") if e.data["reason"] != "action"]
    assert len(effect_discards) == 3 and all(e.data["ap"] == 0 for e in effect_discards)


def test_r20_two_versus_one_ecologist_discard_yields_2():
    state = start("2v1")
    cards = set_hand(state, 0, "surconsommation")
    turn_of(state, 0, ap=3)
    apply(state, act.Discard(0, cards[0]))
    pass_reactions(state)
    assert state.players[0].ap == 5


def test_r21_one_discard_action_per_turn():
    state = start("2v1")
    cards = set_hand(state, 0, "surconsommation", "monoculture")
    turn_of(state, 0, ap=3)
    apply(state, act.Discard(0, cards[0]))
    pass_reactions(state)
    assert not any(isinstance(a, act.Discard) for a in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="^discard_once"):
        apply(state, act.Discard(0, cards[1]))


@pytest.mark.parametrize("cid", ["troc", "effet_d_albedo"])
def test_r22_troc_and_albedo_discards_yield_no_pa(cid):
    state = start("2v1")
    set_hand(state, 0, cid, "surconsommation", "monoculture")
    turn_of(state, 0, ap=3)
    play(state, 0, cid)
    pass_reactions(state)
    apply(state, act.ChooseCard(0, state.players[0].hand[0]))
    if state.pending.kind == "choose_discard":
        apply(state, act.ChooseCard(0, None))
    assert state.players[0].ap == 2  # paid 1, gained nothing
    assert all(e.data["ap"] == 0 for e in entries(state, "discard"))


def test_r23_a_lobbyist_may_play_a_heal():
    state = start("2v1")
    set_hand(state, 2, "potager_partage")
    turn_of(state, 2, ap=3)
    play(state, 2, "potager_partage")
    pass_reactions(state)
    assert state.hp == 11


def test_r24_heal_is_clamped_at_30():
    state = start("2v1")
    state.hp = 29
    set_hand(state, 0, "sobriete_energetique")
    turn_of(state, 0, ap=3)
    play(state, 0, "sobriete_energetique")
    pass_reactions(state)
    assert state.hp == 30


def test_r25_damage_is_clamped_at_0():
    state = start("2v1")
    state.hp = 1
    set_hand(state, 2, "dereglementation")
    turn_of(state, 2, ap=4)
    play(state, 2, "dereglementation")
    pass_reactions(state)
    assert state.hp == 0


def test_r26_reaching_0_or_30_mid_phase_does_not_end_the_game():
    state = start("2v1")
    state.round = 3
    state.hp = 2
    set_hand(state, 2, "dereglementation")
    turn_of(state, 2, ap=4)
    play(state, 2, "dereglementation")
    pass_reactions(state)
    end_turns(state, 1)
    assert state.hp == 0 and not state.over and state.round == 4
    state.hp = 30
    end_turns(state, 3)
    assert not state.over and state.round == 5


def test_r27_a_card_you_cannot_pay_is_illegal():
    state = start("2v1")
    cards = set_hand(state, 0, "renovation_thermique")
    turn_of(state, 0, ap=3)
    assert not any(isinstance(a, act.PlayCard) for a in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match=r"^card_cost .*cost=4"):
        apply(state, act.PlayCard(0, cards[0]))
    assert state.players[0].hand == cards and state.players[0].ap == 3


def test_r28_one_draw_action_per_turn():
    state = start("2v1")
    set_hand(state, 0, "potager_partage")
    turn_of(state, 0, ap=5)
    apply(state, act.Draw(0))
    pass_reactions(state)
    assert act.Draw(0) not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="^draw_once"):
        apply(state, act.Draw(0))


def test_r29_an_accepted_trade_costs_the_initiator_1_and_swaps_chosen_cards():
    state = start("2v1")
    mine = set_hand(state, 0, "surconsommation", "potager_partage")
    theirs = set_hand(state, 2, "mangroves", "deforestation")
    turn_of(state, 0, ap=3)
    state.players[2].ap = 3
    apply(state, act.ProposeTrade(0, 2))
    assert state.pending.kind == "trade_answer" and state.players[0].ap == 3
    apply(state, act.AnswerTrade(2, True))
    pass_reactions(state)
    assert state.players[0].ap == 2 and state.players[2].ap == 3
    apply(state, act.ChooseCard(0, mine[0]))
    assert state.pending.seat == 2 and mine[0] in state.players[0].hand  # not swapped yet
    apply(state, act.ChooseCard(2, theirs[0]))
    assert sorted(state.players[0].hand) == sorted([mine[1], theirs[0]])
    assert sorted(state.players[2].hand) == sorted([theirs[1], mine[0]])


def test_r30_an_ecologist_may_trade_with_a_lobbyist_in_phase_one():
    state = start("2v1")
    set_hand(state, 0, "surconsommation")
    set_hand(state, 2, "mangroves")
    turn_of(state, 0, ap=3)
    assert act.ProposeTrade(0, 2) in legal_actions(state, 0)
    turn_of(state, 2, ap=3)
    assert act.ProposeTrade(2, 0) in legal_actions(state, 2)


def test_r31_a_lobbyist_never_builds_a_deck():
    state = start("2v1")
    cards = set_hand(state, 2, "surconsommation")
    turn_of(state, 2, ap=5)
    assert not any(isinstance(a, act.PutInDeck) for a in legal_actions(state, 2))
    with pytest.raises(IllegalAction, match="^deck_ecologists_only"):
        apply(state, act.PutInDeck(2, cards[0]))


def test_r32_no_per_turn_limit_on_playing_cards():
    state = start("2v1")
    set_hand(state, 0, "potager_partage", "mobilite_douce", "haies_bocageres", "herbiers_marins")
    turn_of(state, 0, ap=10)
    for cid in ("potager_partage", "mobilite_douce", "haies_bocageres", "herbiers_marins"):
        play(state, 0, cid)
        pass_reactions(state)
    assert state.hp == 15 and state.players[0].ap == 5
    assert all(card_id(c) != "potager_partage" for c in state.players[0].hand)
