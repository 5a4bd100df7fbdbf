"""rules-reference §10: Events (R65–R75) and Cards (R76–R87)."""

from collections import Counter

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
    start_with_events,
    turn_of,
)

from weathering_tui.engine import IllegalAction, apply, legal_actions
from weathering_tui.engine import actions as act
from weathering_tui.engine.common import card_id

CALM = ["rapport_du_giec", "maree_noire", "krach_boursier", "desinformation", "fast_fashion"]


def active(state):
    return {a.event: a.remaining for a in state.active_events}


def test_r65_a_two_round_event_revealed_in_round_4_leaves_after_round_5():
    state = start_with_events("2v1", *CALM[:3], "secheresse")
    seen = {}
    for rnd in range(1, 6):
        assert state.round == rnd
        seen[rnd] = "secheresse" in active(state)
        end_turns(state, 3)
    assert seen == {1: False, 2: False, 3: False, 4: True, 5: True}
    assert "secheresse" not in active(state)
    assert any(c.startswith("secheresse#") for c in state.event_discard)


def test_r66_a_repeat_extends_the_active_event_without_stacking():
    state = start_with_events("2v1", "soulevements_ecologiques", "soulevements_ecologiques")
    apply(state, act.ChooseOption(0, 0))  # round 1: +2 PV
    end_turns(state, 3)
    assert state.round == 2
    assert active(state)["soulevements_ecologiques"] == 3
    choices = [
        e for e in entries(state, "option") if e.data["source"] == "soulevements_ecologiques"
    ]
    assert len(choices) == 1  # the repeat's reveal did not resolve the event again
    assert state.pending.kind == "choose_option"


def test_r67_disinformation_lowers_ecologist_income_by_1_this_round():
    """Its floor at 0 is tested with the other gains lowered below 0: R50, R67, R118."""
    state = start_with_events("2v1", "desinformation", *CALM[:1])
    assert entries(state, "turn")[-1].data["income"] == 1  # 2 − 1
    end_turns(state, 3)
    assert entries(state, "turn")[-1].data["income"] == 2  # gone next round


def test_r68_overshoot_day_suspends_only_free_draws():
    state = start_with_events("2v1", "jour_du_depassement")
    assert len(state.players[0].hand) == 4  # no free draw
    set_hand(state, 0, "greenwashing")
    apply(state, act.Draw(0))
    pass_reactions(state)
    assert len(state.players[0].hand) == 2
    play(state, 0, "greenwashing")
    pass_reactions(state)
    assert len(state.players[0].hand) == 2


@pytest.mark.parametrize("event", ["fast_fashion", "convention_citoyenne"])
def test_r69_event_draws_reach_ecologists_in_phase_two(event):
    state = start("2v1", events=True)
    clear_hands(state)
    phase2(state)
    state.round = 7
    stack_events(state, event)
    end_turns(state, 3)
    assert state.round == 8
    assert len(state.players[0].hand) == 1 and len(state.players[1].hand) == 1


def test_r70_uprisings_ask_the_group_every_active_round():
    state = start_with_events("2v1", "soulevements_ecologiques", *CALM[:2])
    assert state.pending.kind == "choose_option" and state.pending.seat == 0
    assert state.pending.info["group"] is True
    apply(state, act.ChooseOption(0, 0))
    assert state.hp == 12
    end_turns(state, 3)
    assert state.pending.kind == "choose_option"
    apply(state, act.ChooseOption(0, 1, 2))
    assert entries(state, "income_mod")[-1].data == {
        "seat": 2,
        "amount": -2,
        "source": "soulevements_ecologiques",
    }
    end_turns(state, 3)
    assert state.round == 3 and "soulevements_ecologiques" not in active(state)


def test_r71_with_two_lobbyists_the_group_names_the_malus_target():
    state = start_with_events("3v2", "soulevements_ecologiques")
    targets = {a.target for a in legal(state) if a.option == 1}
    assert targets == {3, 4}
    apply(state, act.ChooseOption(0, 1, 4))
    end_turns(state, 4)
    base = state.content.configurations["3v2"].lobbyist.phase1.income
    assert entries(state, "turn")[-1].data["seat"] == 4
    assert entries(state, "turn")[-1].data["income"] == max(0, base - 2)
    lobby3 = [e for e in entries(state, "turn") if e.data["seat"] == 3][-1]
    assert lobby3.data["income"] == base


def test_r72_hurricane_each_player_loses_1_pa_or_discards_1_card():
    state = start("2v2", events=True, mulligan=False)
    stack_events(state, "ouragan_devastateur")
    for seat in range(4):
        apply(state, act.ChooseCard(seat, None))
    # the window is over and choices begin; shape each seat's situation now
    set_hand(state, 1, "surconsommation")
    state.players[1].ap = 0
    set_hand(state, 2)
    state.players[2].ap = 3
    set_hand(state, 3)
    state.players[3].ap = 0
    assert state.pending.kind == "choose_option" and state.pending.seat == 0
    apply(state, act.ChooseOption(0, 0))  # seat 0 chose to lose 1 PA
    # seat 1 (0 PA) was forced to discard, seat 2 (no card) forced to lose PA, seat 3 nothing
    lost = {e.data["seat"]: e.data["amount"] for e in entries(state, "lose_ap")}
    assert lost == {0: 1, 2: 1}
    discards = [e.data["seat"] for e in entries(state, "discard")]
    assert discards == [1]
    assert [e.data["seat"] for e in entries(state, "effect_lost")] == [3]
    assert state.players[1].hand == [] and state.players[2].ap == 2
    assert state.pending.kind == "turn"


def test_r73_events_keep_coming_in_phase_two():
    state = start("2v1", events=True)
    phase2(state)
    state.round = 7
    revealed = len(entries(state, "event_revealed"))
    end_turns(state, 3)
    assert state.round == 8
    assert len(entries(state, "event_revealed")) == revealed + 1


def test_r74_a_demonstration_removes_the_revealed_event():
    state = start_with_events("2v1", "rapport_du_giec", "maree_noire")
    set_hand(state, 1, "manifestation")
    state.players[1].ap = 5
    pile = len(state.event_pile)
    end_turns(state, 3)
    assert state.pending.kind == "react" and state.pending.info["card"].startswith("maree_noire")
    hp, ap = state.hp, state.players[1].ap
    apply(state, act.Cancel(1, state.players[1].hand[0]))
    assert state.hp == hp and "maree_noire" not in active(state)
    assert any(c.startswith("maree_noire") for c in state.events_removed)
    assert len(state.event_pile) == pile - 1  # no replacement
    assert state.pending.kind != "react" and state.round == 2
    assert len(entries(state, "event_revealed")) == 2  # round 1's and the cancelled one
    assert state.players[1].ap == ap - 3


def test_r75_no_event_acts_during_the_transition():
    state = start("2v1", events=True)
    state.round = 5
    state.active_events.clear()
    from weathering_tui.engine.state import ActiveEvent

    state.active_events.append(ActiveEvent("secheresse", ["secheresse#1"], 2))
    state.active_events.append(
        ActiveEvent("effondrement_de_la_biodiversite", ["effondrement_de_la_biodiversite#1"], 2)
    )
    end_turns(state, 2)
    set_deck(state, 0, "potager_partage", "mobilite_douce", "troc", "boycott")
    state.hp = 12
    stack_events(state, "rapport_du_giec")
    apply(state, act.EndTurn(2))
    assert state.pending.kind == "claim_synergy"
    apply(state, act.ClaimSynergy(0, True))
    kinds_ = [e.kind for e in state.log]
    first = kinds_.index("transition")
    last = kinds_.index("round", first)
    during = state.log[first:last]
    # Nothing touches the gauge during the transition but the synergy, whole (+2: Sécheresse
    # would make it +1), and no event acts before round 6 begins.
    gauge = [e for e in during if e.kind in ("heal", "damage")]
    assert [(e.kind, e.data["source"], e.data["amount"]) for e in gauge] == [("heal", "synergy", 2)]
    round_end = next(e for e in reversed(state.log[:first]) if e.kind == "round_end")
    assert round_end.data["round"] == 5
    assert gauge[0].data["hp"] == round_end.data["hp"] + 2 == 14
    assert not [e for e in during if e.kind in ("lose_ap", "gain_ap", "discard", "draw")]
    # and nothing touched it silently: from 14, only what round 6 logged has moved it
    after = state.log[last:]
    moved = sum(
        e.data["amount"] if e.kind == "heal" else -e.data["amount"]
        for e in after
        if e.kind in ("heal", "damage")
    )
    assert state.hp == 14 + moved


# ---------------------------------------------------------------- cards


@pytest.mark.parametrize("cid", ["economie_circulaire", "zero_dechet"])
def test_r76_the_player_chooses_the_card_taken_from_the_discard(cid):
    state = start("2v1")
    set_hand(state, 0, cid)
    wanted = [pull(state, c) for c in ("mangroves", "boycott", "reboisement")]
    state.discard_pile.extend(wanted)
    turn_of(state, 0, ap=5)
    play(state, 0, cid)
    pass_reactions(state)
    choices = {a.card for a in legal(state)}
    assert set(wanted) <= choices
    apply(state, act.ChooseCard(0, wanted[1]))
    assert wanted[1] in state.players[0].hand
    from weathering_tui.engine import view_for
    from weathering_tui.words import Tr
    from weathering_tui.words.log_lines import log_line

    view = view_for(state, 1)  # what the others read: from the discard, not an undo
    taken = next(e for e in reversed(view.log) if e.kind == "take_from_discard")
    assert log_line(Tr("en"), view, taken).endswith("takes Boycott from the discard pile")


def test_r77_zero_waste_cannot_take_zero_waste_but_circular_economy_can():
    state = start("2v1")
    empty_pile(state)
    state.draw_pile.extend(state.discard_pile)
    state.discard_pile.clear()
    other = pull(state, "zero_dechet")
    set_hand(state, 0, "zero_dechet", "economie_circulaire")
    state.discard_pile.append(other)
    turn_of(state, 0, ap=5)
    play(state, 0, "zero_dechet")
    pass_reactions(state)
    assert state.pending.kind == "turn" and other in state.discard_pile
    assert entries(state, "effect_lost")
    play(state, 0, "economie_circulaire")
    pass_reactions(state)
    assert other in state.players[0].hand  # the only card there: taken without asking


def test_r78_climate_feedback_is_plus_2_or_minus_2_never_both():
    state = start("2v1")
    set_hand(state, 0, "retroaction_climatique")
    turn_of(state, 0, ap=5)
    plays = [a for a in legal_actions(state, 0) if isinstance(a, act.PlayCard)]
    assert sorted(a.cartouche for a in plays) == [0, 1]
    play(state, 0, "retroaction_climatique", cartouche=1)
    pass_reactions(state)
    assert state.hp == 8 and not entries(state, "heal")


def test_r79_decolonial_ecology_on_a_one_card_hand():
    state = start("2v1")
    set_hand(state, 0, "ecologie_decoloniale")
    lone = set_hand(state, 2, "cyclone")
    turn_of(state, 0, ap=5)
    play(state, 0, "ecologie_decoloniale", target=2)
    pass_reactions(state)
    assert state.players[2].hand == [] and lone[0] in state.discard_pile


def test_r80_storm_on_0_pa_does_nothing_and_on_2_pa_leaves_0():
    state = start("2v1")
    set_hand(state, 2, "tempete", "tempete")
    turn_of(state, 2, ap=5)
    state.players[0].ap, state.players[1].ap = 0, 2
    play(state, 2, "tempete", target=0)
    pass_reactions(state)
    play(state, 2, "tempete", target=1)
    pass_reactions(state)
    assert state.players[0].ap == 0 and state.players[1].ap == 0
    assert [e.data["amount"] for e in entries(state, "lose_ap")] == [0, 2]


def test_r80_a_loss_of_pa_at_0_pa_is_said_in_the_log_not_left_silent():
    from weathering_tui.engine import view_for
    from weathering_tui.words import Tr
    from weathering_tui.words.log_lines import log_line

    state = start("2v1")
    set_hand(state, 2, "tempete")
    turn_of(state, 2, ap=5)
    state.players[0].ap = 0
    # the dialog says it before: each target with what it has to lose
    from weathering_tui.engine import actions as act
    from weathering_tui.words.describe import choice_label

    before = view_for(state, 2)
    labels = {
        a.target: choice_label(Tr("en"), before, a)
        for a in before.legal
        if isinstance(a, act.PlayCard) and a.target is not None
    }
    assert labels[0].endswith("(0 PA now)")
    assert labels[1].endswith(f"({state.players[1].ap} PA now)")
    play(state, 2, "tempete", target=0)
    pass_reactions(state)
    view = view_for(state, 0)
    assert log_line(Tr("fr"), view, view.log[-1]).endswith("n'a aucun PA à perdre")
    assert log_line(Tr("en"), view, view.log[-1]).endswith("has no PA to lose")


def test_r81_heat_dome_also_hits_its_player():
    state = start("2v1")
    set_hand(state, 0, "dome_de_chaleur")
    turn_of(state, 0, ap=5)
    play(state, 0, "dome_de_chaleur")
    pass_reactions(state)
    assert state.players[0].ap == 0


def test_r81_heat_dome_takes_exactly_2_pa_from_each_player_its_own_included():
    """With PA to spare the loss itself shows: 7 − 3 (cost) − 2 = 2 for its player, and
    every other player loses 2 as well (3 or 9 would leave 1 or 0)."""
    state = start("2v1")
    set_hand(state, 0, "dome_de_chaleur")
    turn_of(state, 0, ap=7)
    state.players[1].ap, state.players[2].ap = 6, 5
    play(state, 0, "dome_de_chaleur")
    pass_reactions(state)
    assert [p.ap for p in state.players] == [2, 4, 3]


@pytest.mark.parametrize("cid", ["pluie_diluvienne", "refugies_climatiques"])
def test_r82_own_discards_are_chosen(cid):
    state = start("2v1")
    cards = set_hand(state, 2, cid, "mangroves", "boycott")
    turn_of(state, 2, ap=5)
    play(state, 2, cid)
    pass_reactions(state)
    assert state.pending.kind == "choose_discard" and state.pending.seat == 2
    apply(state, act.ChooseCard(2, cards[2]))
    assert state.players[2].hand == [cards[1]]


@pytest.mark.parametrize(
    ("cid", "power"),
    [("ecologie_decoloniale", False), ("montee_des_eaux", False), (None, True)],
)
def test_r82_hidden_hand_discards_are_random(cid, power):
    picks = Counter()
    for seed in range(150):
        state = start("2v1", seed=seed, characters=["cassy", "amir", "fossilise"])
        targets = set_hand(state, 2, "mangroves", "boycott", "reboisement")
        turn_of(state, 0, ap=10)
        if power:
            apply(state, act.UsePower(0, target=2))
        else:
            set_hand(state, 0, cid)
            play(state, 0, cid, target=2)
        pass_reactions(state)
        picks.update(card_id(c) for c in targets if c not in state.players[2].hand)
    share = picks["boycott"] / sum(picks.values())
    assert len(picks) == 3 and 0.2 < share < 0.47


def test_r83_greenwashing_removes_1_and_draws_1():
    state = start("2v1")
    set_hand(state, 2, "greenwashing")
    turn_of(state, 2, ap=5)
    top = state.draw_pile[-1]
    play(state, 2, "greenwashing")
    pass_reactions(state)
    assert state.hp == 9 and state.players[2].hand == [top]


def test_r84_ecological_planning_heals_2_and_draws_3_together():
    state = start("2v1")
    set_hand(state, 0, "planification_ecologique")
    turn_of(state, 0, ap=5)
    plays = [a for a in legal_actions(state, 0) if isinstance(a, act.PlayCard)]
    assert len(plays) == 1
    play(state, 0, "planification_ecologique")
    pass_reactions(state)
    assert state.hp == 12 and len(state.players[0].hand) == 3


@pytest.mark.parametrize("cid", ["perturbateurs_hormonaux", "canicule", "cyclone"])
def test_r85_two_cartouches_resolve_exactly_one(cid):
    state = start("2v1")
    set_hand(state, 2, cid)
    turn_of(state, 2, ap=5)
    plays = [a for a in legal_actions(state, 2) if isinstance(a, act.PlayCard)]
    assert [a.cartouche for a in plays] == [1]  # the cancel cartouche is not for one's turn
    play(state, 2, cid, cartouche=1)
    pass_reactions(state)
    assert len(entries(state, "damage")) == 1


def test_r86_an_effect_without_target_is_lost_and_the_rest_resolves():
    state = start("2v1")
    set_hand(state, 2, "obsolescence_programmee")
    set_hand(state, 0)
    turn_of(state, 2, ap=5)
    played = state.players[2].hand[0]
    play(state, 2, "obsolescence_programmee", target=0)
    pass_reactions(state)
    assert state.hp == 9  # the rest resolves
    assert state.players[0].hand == [] and state.discard_pile == [played]  # nothing else


def test_r87_boycott_cannot_be_played_on_ones_turn_but_can_be_discarded():
    state = start("2v1")
    cards = set_hand(state, 0, "boycott")
    turn_of(state, 0, ap=5)
    assert not any(isinstance(a, act.PlayCard) for a in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="reaction"):
        apply(state, act.PlayCard(0, cards[0]))
    assert act.Discard(0, cards[0]) in legal_actions(state, 0)


def test_a_log_line_of_an_announcement_says_the_card_as_printed_whatever_runs_now():
    """Seen in play: once Moratoire sur les forages (damage −1) ended, the log said
    'plays Déréglementation (−4 PV)' where it had said '(−3 PV)': a past line must not
    change with the events in force now. The line under it says what it did."""
    from weathering_tui.engine import view_for
    from weathering_tui.engine.state import ActiveEvent, LogEntry
    from weathering_tui.words import Tr
    from weathering_tui.words.log_lines import log_line

    state = start("2v1", seed=1)
    entry = LogEntry(
        "announce",
        {
            "action": "play_card",
            "seat": 2,
            "card": "deforestation#1",
            "cartouche": 0,
            "from_discard": False,
            "cost": 3,
        },
    )
    tr = Tr("en")
    plain = log_line(tr, view_for(state, 0), entry)
    state.active_events.append(
        ActiveEvent("moratoire_sur_les_forages", ["moratoire_sur_les_forages#1"], 1)
    )
    assert view_for(state, 0).damage_mod != 0
    assert log_line(tr, view_for(state, 0), entry) == plain
    assert "−3 PV" in plain
