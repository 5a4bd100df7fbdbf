"""rules-reference §10: Characters (R88–R94), Cancellation (R95–R104), End of game (R105–R109)."""

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
    stack_events,
    start,
    turn_of,
)

from weathering_tui.engine import IllegalAction, apply, legal_actions, view_for
from weathering_tui.engine import actions as act
from weathering_tui.engine.flow import outcome_for

# ---------------------------------------------------------------- characters


def test_r88_green_tax_gives_3_from_the_reserve_and_may_target_thomas():
    state = start("2v1", characters=["thomas", "amir", "insatiable"])
    turn_of(state, 0, ap=5)
    state.players[2].ap = 9
    apply(state, act.UsePower(0, target=2))
    pass_reactions(state)
    assert state.players[0].ap == 2 and state.players[2].ap == 10
    turn_of(state, 0, ap=4)
    apply(state, act.UsePower(0, target=0))
    pass_reactions(state)
    assert state.players[0].ap == 4  # paid 3, received 3


def test_r89_direct_action_needs_a_lobbyist_with_cards():
    state = start("2v2", characters=["cassy", "amir", "insatiable", "fossilise"])
    set_hand(state, 2)
    set_hand(state, 3)
    turn_of(state, 0, ap=5)
    assert not any(isinstance(a, act.UsePower) for a in legal_actions(state, 0))
    with pytest.raises(IllegalAction):
        apply(state, act.UsePower(0, target=2))
    cards = set_hand(state, 3, "surconsommation", "monoculture")
    ap3 = state.players[3].ap
    assert {a.target for a in legal_actions(state, 0) if isinstance(a, act.UsePower)} == {3}
    apply(state, act.UsePower(0, target=3))
    pass_reactions(state)
    assert len(state.players[3].hand) == 1 and state.players[3].ap == ap3
    assert set(state.players[3].hand) < set(cards)


def test_r90_diplomacy_cannot_be_refused_and_each_chooses_what_they_give():
    state = start("2v1", characters=["morgan", "amir", "fossilise"])
    mine = set_hand(state, 0, "mangroves", "boycott")
    theirs = set_hand(state, 2, "deforestation", "cyclone")
    turn_of(state, 0, ap=5)
    apply(state, act.UsePower(0, target=2))
    pass_reactions(state)
    assert state.pending.kind == "choose_exchange" and state.pending.seat == 0
    apply(state, act.ChooseCard(0, mine[1]))
    assert state.pending.kind == "choose_exchange" and state.pending.seat == 2
    apply(state, act.ChooseCard(2, theirs[0]))
    assert sorted(state.players[0].hand) == sorted([mine[0], theirs[0]])
    assert sorted(state.players[2].hand) == sorted([theirs[1], mine[1]])
    assert not entries(state, "trade_answer")


def test_r91_forecast_shows_mirai_the_next_events_or_action_cards():
    state = start("2v1", characters=["mirai", "amir", "fossilise"], events=True)
    turn_of(state, 0, ap=5)
    top_two = list(reversed(state.event_pile[-2:]))
    apply(state, act.UsePower(0))
    pass_reactions(state)
    peek = entries(state, "peek")[-1]
    assert peek.secret["cards"] == top_two and peek.audience == [0]
    mine = view_for(state, 0).log[-1]
    theirs = view_for(state, 1).log[-1]
    assert mine.secret["cards"] == top_two and theirs.secret == {}
    assert state.pending.kind == "turn"  # she acts on it the same turn
    discovery = start("2v1", characters=["mirai", "amir", "fossilise"])
    turn_of(discovery, 0, ap=5)
    top_cards = list(reversed(discovery.draw_pile[-2:]))
    apply(discovery, act.UsePower(0))
    pass_reactions(discovery)
    assert entries(discovery, "peek")[-1].secret["cards"] == top_cards
    assert entries(discovery, "peek")[-1].data["pile"] == "draw"


def test_r92_war_chest_pays_power_plus_card_and_the_second_card_has_its_own_window():
    state = start("2v1", characters=["priya", "amir", "aux_poches_pleines"])
    clear_hands(state)
    set_hand(state, 2, "greenwashing")
    set_hand(state, 0, "boycott")
    state.players[0].ap = 3
    second = pull(state, "surconsommation")
    state.discard_pile.append(second)
    turn_of(state, 2, ap=7)
    play(state, 2, "greenwashing")
    apply(state, act.Pass(0))  # Boycott holder lets it through; Priya (4 PA) cannot object
    apply(state, act.UsePower(2, card=second))
    assert state.pending.kind == "react"  # step A has its window
    apply(state, act.Pass(0))
    # Surconsommation has one cartouche and no target: step B's only choice plays itself
    assert state.pending.kind == "react" and state.pending.info["card"] == second
    assert state.pending.info["from_discard"] is True
    apply(state, act.Pass(0))
    power = state.content.characters["aux_poches_pleines"].power.levels[0].cost
    assert state.players[2].ap == 7 - 1 - power - 2  # Greenwashing, the power, the second card
    assert state.hp == 10 - 1 - 2


def test_r93_war_chest_needs_a_card_played_this_turn():
    state = start("2v1", characters=["priya", "amir", "aux_poches_pleines"])
    set_hand(state, 2, "greenwashing")
    second = pull(state, "surconsommation")
    state.discard_pile.append(second)
    turn_of(state, 2, ap=7)
    assert not any(isinstance(a, act.UsePower) for a in legal_actions(state, 2))
    with pytest.raises(IllegalAction, match="^power_needs_play"):
        apply(state, act.UsePower(2, card=second))


def test_r27_r94_objection_priya_cannot_pay_is_not_offered():
    """A reaction power is paid as a card is (R27): Priya at 3 PA cannot pay Objection
    (4 PA at level 1), so she is not asked; at 4 PA she is, and may object."""
    for ap, asked in ((3, False), (4, True)):
        state = start("2v1", characters=["priya", "amir", "insatiable"])
        set_hand(state, 0)
        set_hand(state, 1)
        state.players[0].ap = ap
        set_hand(state, 2, "surconsommation")
        turn_of(state, 2, ap=10)
        play(state, 2, "surconsommation")
        offered = state.pending.kind == "react" and state.pending.seat == 0
        assert offered == asked
        if asked:
            assert act.Cancel(0) in legal_actions(state, 0)
        else:
            with pytest.raises(IllegalAction):
                apply(state, act.Cancel(0))
            assert state.players[0].ap == 3


def test_r94_objection_once_per_lobbyist_turn():
    state = start("2v2", characters=["priya", "amir", "insatiable", "au_bras_long"])
    state.players[0].ap = 10
    set_hand(state, 0)
    set_hand(state, 1)
    set_hand(state, 2, "surconsommation", "monoculture")
    set_hand(state, 3, "surconsommation")
    turn_of(state, 2, ap=10)
    play(state, 2, "surconsommation")
    apply(state, act.Cancel(0))
    play(state, 2, "monoculture")
    assert state.pending.kind == "turn"  # Priya was not asked again
    assert state.hp == 8
    apply(state, act.EndTurn(2))
    play(state, 3, "surconsommation")
    assert state.pending.kind == "react" and state.pending.seat == 0
    apply(state, act.Cancel(0))
    assert state.hp == 8


# ---------------------------------------------------------------- cancellation


def test_r95_every_opponent_is_asked_in_seat_order_after_the_actor_allies_are_not():
    """§8.3 [D, revised]: the window goes to the actor's opponents; seat 4, the actor's
    ally, holds a cancel card and is still not asked."""
    state = start("3v2")
    cancels = {0: "boycott", 1: "boycott", 2: "manifestation", 4: "manifestation"}
    for seat, cid in cancels.items():
        set_hand(state, seat, cid)
        state.players[seat].ap = 5
    set_hand(state, 3, "potager_partage")
    turn_of(state, 3, ap=5)
    play(state, 3, "potager_partage")
    asked = []
    while state.pending.kind == "react":
        asked.append(state.pending.seat)
        apply(state, act.Pass(state.pending.seat))
    assert asked == [0, 1, 2]
    assert 4 not in asked and cancels[4] == "manifestation"


def test_r96_a_cancelled_play_loses_its_pa_and_card_and_does_nothing():
    state = start("2v1")
    cards = set_hand(state, 0, "sobriete_energetique")
    set_hand(state, 2, "boycott")
    state.players[2].ap = 5
    turn_of(state, 0, ap=5)
    play(state, 0, "sobriete_energetique")
    apply(state, act.Cancel(2, state.players[2].hand[0]))
    assert state.players[0].ap == 2 and state.hp == 10
    assert cards[0] in state.discard_pile and state.pending.seat == 0


def test_r97_a_cancelled_draw_sends_the_top_card_to_the_discard():
    state = start("2v1")
    hand = set_hand(state, 0, "potager_partage")
    set_hand(state, 2, "boycott")
    state.players[2].ap = 5
    turn_of(state, 0, ap=5)
    top = state.draw_pile[-1]
    apply(state, act.Draw(0))
    apply(state, act.Cancel(2, state.players[2].hand[0]))
    assert state.players[0].ap == 4 and state.players[0].hand == hand
    assert state.discard_pile[-1] == top


def test_r98_a_cancelled_discard_keeps_the_card_and_spends_the_action():
    state = start("2v1")
    cards = set_hand(state, 0, "surconsommation", "monoculture")
    set_hand(state, 2, "boycott")
    state.players[2].ap = 5
    turn_of(state, 0, ap=3)
    apply(state, act.Discard(0, cards[0]))
    apply(state, act.Cancel(2, state.players[2].hand[0]))
    assert cards[0] in state.players[0].hand and state.players[0].ap == 3
    assert not any(isinstance(a, act.Discard) for a in legal_actions(state, 0))


@pytest.mark.parametrize("hero", ["thomas", "amir"])
def test_r99_a_cancelled_power_without_card_loses_only_its_cost(hero):
    state = start("2v1", characters=[hero, "priya", "fossilise"])
    hand = set_hand(state, 0, "potager_partage")
    state.players[2].ap = 10
    turn_of(state, 0, ap=5)
    apply(state, act.UsePower(0, target=1 if hero == "amir" else 0))
    apply(state, act.Cancel(2))
    assert state.players[0].ap == 2 and state.players[0].hand == hand and state.hp == 10
    assert not any(isinstance(a, act.UsePower) for a in legal_actions(state, 0))


def test_r100_nobody_responds_to_a_cancellation():
    state = start("2v2")
    set_hand(state, 0, "sobriete_energetique")
    # The actor's ally could cancel the canceller: never asked.
    for seat, cid in ((1, "manifestation"), (2, "boycott"), (3, "boycott")):
        set_hand(state, seat, cid)
        state.players[seat].ap = 5
    turn_of(state, 0, ap=5)
    play(state, 0, "sobriete_energetique")
    assert state.pending.seat == 2
    apply(state, act.Pass(2))
    apply(state, act.Cancel(3, state.players[3].hand[0]))
    assert state.pending.kind == "turn" and state.pending.seat == 0
    assert len(entries(state, "announce")) == 1
    assert len(entries(state, "cancel")) == 1 and state.players[1].hand


def test_r101_a_cancelled_put_in_deck_loses_1_pa_and_the_card():
    state = start("2v1")
    cards = set_hand(state, 0, "mangroves")
    set_hand(state, 2, "boycott")
    state.players[2].ap = 5
    turn_of(state, 0, ap=3)
    apply(state, act.PutInDeck(0, cards[0]))
    apply(state, act.Cancel(2, state.players[2].hand[0]))
    assert state.players[0].ap == 2 and state.players[0].deck == []
    assert cards[0] in state.discard_pile


def test_r102_an_action_is_cancelled_at_most_once():
    state = start("2v2")
    set_hand(state, 0, "sobriete_energetique")
    for seat, cid in ((2, "boycott"), (3, "manifestation")):
        set_hand(state, seat, cid)
        state.players[seat].ap = 5
    turn_of(state, 0, ap=5)
    play(state, 0, "sobriete_energetique")
    apply(state, act.Cancel(2, state.players[2].hand[0]))
    assert state.pending.kind == "turn"
    assert state.players[3].hand  # never asked, never paid
    assert len(entries(state, "cancel")) == 1


def test_r103_only_a_demonstration_cancels_an_event():
    state = start("2v2", characters=["priya", "amir", "fossilise", "insatiable"], events=True)
    for seat, cards in {
        0: ("boycott", "canicule"),
        1: ("cyclone", "perturbateurs_hormonaux"),
        2: ("boycott",),
        3: ("manifestation",),
    }.items():
        set_hand(state, seat, *cards)
        state.players[seat].ap = 10
    stack_events(state, "maree_noire")
    end_turns(state, 4)
    assert state.pending.kind == "react" and state.pending.seat == 3
    assert [a for a in legal(state) if isinstance(a, act.Cancel)] == [
        act.Cancel(3, state.players[3].hand[0])
    ]


def test_r104_frugality_applies_to_a_boycott_played_in_reaction_in_phase_two():
    state = start("2v1")
    phase2(state)
    set_hand(state, 0, "boycott")
    set_hand(state, 2, "surconsommation")
    state.players[0].ap = 1
    turn_of(state, 2, ap=5)
    play(state, 2, "surconsommation")
    apply(state, act.Cancel(0, state.players[0].hand[0]))
    assert state.players[0].ap == 0 and state.hp == 10


# ---------------------------------------------------------------- end of game


def finish_round_ten(state, hp):
    state.round = 10
    state.phase = 2
    end_turns(state, len(state.players) - 1)
    state.hp = hp
    end_turns(state, 1)


@pytest.mark.parametrize(
    ("hp", "winner", "perfect"),
    [(30, "ecologists", True), (15, "ecologists", False), (14, "lobbyists", False),
     (0, "lobbyists", True), (22, "ecologists", False), (5, "lobbyists", False)],
)  # fmt: skip
def test_r105_after_round_ten_ecologists_win_iff_15_or_more(hp, winner, perfect):
    state = start("2v1", events=True)
    finish_round_ten(state, hp)
    assert state.over and state.outcome.reason == "last_round"
    assert (state.outcome.winner, state.outcome.perfect) == (winner, perfect)


@pytest.mark.parametrize(
    ("hp", "winner"), [(10, "ecologists"), (9, "lobbyists"), (14, "ecologists")]
)
def test_r106_discovery_mode_threshold_is_10(hp, winner):
    state = start("2v1", events=False)
    finish_round_ten(state, hp)
    assert state.outcome.winner == winner


def test_r107_empty_pile_and_hands_in_phase_two_end_the_game_at_once():
    state = start("2v1")
    phase2(state)
    state.round = 7
    clear_hands(state)
    empty_pile(state)
    turn_of(state, 0, ap=2)
    state.hp = 17
    apply(state, act.EndTurn(0))
    assert state.over and state.outcome.reason == "nobody_can_play"
    assert state.outcome.hp == 17 and state.outcome.band == "eclaircies"


def test_r108_a_waiting_deck_keeps_phase_one_alive():
    state = start("2v1")
    clear_hands(state)
    set_deck(state, 0, "mangroves")
    empty_pile(state)
    turn_of(state, 0, ap=2)
    apply(state, act.EndTurn(0))
    assert not state.over


@pytest.mark.parametrize(
    ("hp", "band"),
    [(30, "grand_soleil"), (29, "ensoleille"), (20, "ensoleille"), (19, "eclaircies"),
     (15, "eclaircies"), (14, "orageux"), (10, "orageux"), (9, "tourmente"), (1, "tourmente"),
     (0, "effondrement")],
)  # fmt: skip
def test_r109_forecast_bands(hp, band):
    state = start("2v1", events=True)
    state.hp = hp
    assert outcome_for(state, "test").band == band
    discovery = start("2v1", events=False)
    discovery.hp = hp
    expected = {14: "eclaircies", 10: "eclaircies"}.get(hp, band)
    assert outcome_for(discovery, "test").band == expected
