"""The View is the one contract: complete, serialisable, versioned, with refusals in words."""

import pytest
from helpers import (
    entries,
    pass_reactions,
    phase2,
    set_deck,
    set_hand,
    start,
    turn_of,
)

from weathering_tui.bots import RandomBot
from weathering_tui.engine import (
    REFUSALS,
    SPECTATOR,
    IllegalAction,
    Setup,
    apply,
    apply_chosen,
    legal_actions,
    new_game,
    view_for,
)
from weathering_tui.engine import actions as act
from weathering_tui.engine.wire import (
    action_from_data,
    action_to_data,
    view_from_json,
    view_to_json,
)
from weathering_tui.words import REFUSALS as WORDS
from weathering_tui.words import Tr, render_refusal

CONFIGS = ["1v1", "2v1", "3v1", "4v1", "2v2", "3v2"]


@pytest.mark.parametrize("config", CONFIGS)
def test_a_view_and_its_actions_round_trip_through_json(config):
    """Every seat's view and the spectators', every 20 decisions and whenever the game
    enters phase 2 or ends, through JSON and back: equal."""
    state = new_game(Setup.standard(config, seed=3))
    bots = [RandomBot(seed) for seed in range(len(state.players))]
    phases, decisions = set(), 0
    while True:
        moment = "over" if state.over else state.phase
        if moment not in phases or decisions % 20 == 0:
            phases.add(moment)
            for seat in [*range(len(state.players)), SPECTATOR]:
                view = view_for(state, seat)
                assert view_from_json(view_to_json(view)) == view
                for action in view.legal:
                    assert action_from_data(action_to_data(action)) == action
        if state.over:
            break
        seat = state.pending.seat
        apply(state, bots[seat].choose(view_for(state, seat, with_log=False)))
        decisions += 1
    assert phases == {1, 2, "over"}


def test_every_action_kind_round_trips():
    samples = [
        act.PlayCard(0, "mangroves#1", 1, 2),
        act.PutInDeck(0, "mangroves#1"),
        act.Discard(0, "mangroves#1"),
        act.Draw(0),
        act.ProposeTrade(0, 2),
        act.StoreAp(0, 3),
        act.UsePower(0, target=1, card="troc#1"),
        act.EndTurn(0),
        act.Pass(1),
        act.Cancel(1, "boycott#1"),
        act.Cancel(1),
        act.AnswerTrade(2, True),
        act.ChooseCard(0, "troc#2"),
        act.ChooseCard(0),
        act.ChooseOption(0, 1, 2),
        act.ClaimSynergy(0, False),
        act.ArrangeEvents(0, (2, 0), 1),
    ]
    assert {type(a) for a in samples} == set(act.ACTION_NAMES)
    for action in samples:
        data = action_to_data(action)
        assert data["kind"] == act.action_name(action)
        assert action_from_data(data) == action


def test_an_action_with_an_extra_key_or_a_wrong_type_is_refused_by_the_converter():
    with pytest.raises(Exception):  # noqa: B017 - cattrs raises its own validation group
        action_from_data({"kind": "draw", "seat": 0, "card": "x#1"})
    with pytest.raises(Exception):  # noqa: B017
        action_from_data({"kind": "store_ap", "seat": "zero", "amount": 1})


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_refusal_code_has_a_sentence_in_each_language(lang):
    tr = Tr(lang)
    assert set(WORDS[lang]) == set(REFUSALS)
    values = {
        "card": "mangroves#1",
        "power": "taxe_verte",
        "waiting": "react",
        "expected": "turn",
        "partner": 1,
        "cost": 2,
        "ap": 1,
        "limit": 6,
        "max": 4,
        "configuration": "3v2",
        "ecologists": 3,
        "lobbyists": 2,
        "character": "amir",
        "side": "lobbyist",
    }
    state = start("2v1")
    players = view_for(state, 0).players
    for code, params in REFUSALS.items():
        text = render_refusal(tr, IllegalAction(code, **{k: values[k] for k in params}), players)
        assert text and "{" not in text
        assert "#1" not in text and "taxe_verte" not in text  # names, not ids
    if lang == "fr":  # no English in French: every sentence differs from its English one
        for code in REFUSALS:
            assert WORDS["fr"][code] != WORDS["en"][code], code


def test_a_refusal_carries_its_code_and_names_no_prose():
    state = start("2v1")
    set_hand(state, 0, "mangroves")
    turn_of(state, 0, ap=5)
    apply(state, act.Draw(0))
    pass_reactions(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, act.Draw(0))
    assert caught.value.code == "draw_once" and caught.value.params == {}


def test_the_second_copy_of_a_card_can_be_decked_and_discarded():
    state = start("2v1")
    cards = set_hand(state, 0, "surconsommation", "surconsommation")
    turn_of(state, 0, ap=5)
    hand = view_for(state, 0).hand
    assert [h.instance for h in hand] == cards
    for held in hand:  # either copy offers both actions
        assert held.put_in_deck is not None and held.discard is not None
    apply(state, hand[1].put_in_deck)
    pass_reactions(state)
    assert len(state.players[0].deck) == 1 and len(state.players[0].hand) == 1
    held = view_for(state, 0).hand[0]
    apply(state, held.discard)
    pass_reactions(state)
    assert state.players[0].hand == []


def test_r111_a_second_trade_proposal_to_the_same_partner_in_a_turn_is_refused():
    state = start("2v2")
    for seat in range(4):
        set_hand(state, seat, ["mangroves", "boycott", "troc", "tempete"][seat])
    turn_of(state, 0, ap=3)
    apply(state, act.ProposeTrade(0, 2))
    apply(state, act.AnswerTrade(2, False))
    assert act.ProposeTrade(0, 2) not in legal_actions(state, 0)
    with pytest.raises(IllegalAction) as caught:
        apply(state, act.ProposeTrade(0, 2))
    assert caught.value.code == "trade_partner_twice"
    assert caught.value.params == {"partner": 2}
    assert view_for(state, 3).players[0].turn.proposed == (2,)  # public


def test_the_view_states_derived_facts_so_nothing_else_recomputes_rules():
    state = start("2v1", events=False)
    view = view_for(state, 0)
    assert view.threshold == 10  # Découverte's threshold, not the 15 of a normal game
    assert view_for(start("2v1", events=True), 0).threshold == 15
    assert (view.gauge_max, view.hand_limit, view.deck_limit, view.ap_cap) == (30, 6, 6, 10)
    assert view.band == "eclaircies" and view.hp == 10
    phase2(state)
    cards = set_hand(state, 0, "mobilite_douce")
    turn_of(state, 0, ap=5)
    view = view_for(state, 0)
    assert (view.phase, view.round_in_phase, view.rounds_per_phase) == (2, 1, 5)
    assert view.hand[0].printed_cost == 2 and view.hand[0].cost == 1  # frugality
    assert view.cost(cards[0]) == 1


def test_synergy_progress_per_type():
    state = start("2v1")
    set_deck(state, 0, "mangroves", "aire_marine_protegee", "potager_partage")
    synergy = view_for(state, 0).synergy
    counts = dict(synergy.types)
    assert set(counts) == {"anthropique", "oceanique", "terrestre", "atmospherique"}
    assert sum(counts.values()) == 3 and synergy.min_deck == 4 and synergy.qualifies is None
    assert view_for(state, 2).synergy is None  # a Lobbyiste builds no deck


def test_a_forced_discard_names_the_card_that_caused_it():
    state = start("2v1")
    set_hand(state, 2, "pluie_diluvienne", "troc", "tempete")
    turn_of(state, 2, ap=5)
    apply(
        state,
        next(
            a
            for a in legal_actions(state, 2)
            if isinstance(a, act.PlayCard) and a.card.startswith("pluie_diluvienne")
        ),
    )
    pass_reactions(state)
    pending = view_for(state, 2).pending
    assert (pending.kind, pending.seat) == ("choose_discard", 2)
    assert pending.cause == "pluie_diluvienne"


def test_an_action_made_on_an_old_view_is_applied_only_if_still_legal():
    state = start("2v1")
    set_hand(state, 0, "mangroves", "troc")
    turn_of(state, 0, ap=5)
    old = view_for(state, 0)
    apply_chosen(state, act.StoreAp(0, 1), old)
    pass_reactions(state)
    assert old.version < state.version
    apply_chosen(state, act.StoreAp(0, 1), old)  # stale but still legal: accepted
    pass_reactions(state)
    assert state.players[0].stored_ap == 2
    draw = act.Draw(0)
    assert draw in old.legal
    apply(state, draw)
    pass_reactions(state)
    with pytest.raises(IllegalAction) as caught:  # listed on the old view, illegal now
        apply_chosen(state, draw, old)
    assert caught.value.code == "draw_once"


def test_who_decides_in_a_reaction_window_is_not_public_and_a_pass_moves_no_version():
    state = start("2v2")
    set_hand(state, 0, "mangroves")
    set_hand(state, 2, "boycott")
    state.players[2].ap = 5
    turn_of(state, 0, ap=5)
    apply(state, next(a for a in legal_actions(state, 0) if isinstance(a, act.PlayCard)))
    assert state.pending.kind == "react" and state.pending.seat == 2
    for seat in (0, 1, 3, SPECTATOR):
        pending = view_for(state, seat).pending
        assert (pending.kind, pending.seat) == ("reactions", SPECTATOR)
        assert pending.info["card"] == state.log[-1].data["card"]
    assert view_for(state, 2).pending.kind == "react"
    version = state.version
    apply(state, act.Pass(2))
    assert state.version == version


def test_a_hand_choice_with_one_option_is_asked_unless_the_hand_holds_one_card():
    """Two copies of one card make one option: resolving it alone would tell the table."""
    state = start("2v1")
    set_hand(state, 2, "troc")
    turn_of(state, 0, ap=5)
    set_hand(state, 0, "potager_partage", "potager_partage")
    # An exchange with seat 2 (Entraide-like): seat 0 must pick a card
    from weathering_tui.engine.state import ExchangeFrame

    state.pending = None
    state.stack.append(ExchangeFrame(0, 2, "trade"))
    from weathering_tui.engine.core import _dispatch
    from weathering_tui.engine.loop import run

    run(state, _dispatch)
    assert state.pending.kind == "choose_exchange" and state.pending.seat == 0
    assert len(legal_actions(state, 0)) == 1  # one option, still asked
    apply(state, legal_actions(state, 0)[0])
    # seat 2 holds one card: its choice resolves on its own, and the log says so
    forced = entries(state, "forced")
    assert forced and forced[-1].data == {"seat": 2, "decision": "choose_exchange"}


def test_an_action_on_the_other_copy_does_what_the_listed_copy_does():
    state = start("2v1")
    cards = set_hand(state, 0, "surconsommation", "surconsommation")
    turn_of(state, 0, ap=5)
    listed = [a.card for a in legal_actions(state, 0) if isinstance(a, act.Discard)]
    other = next(c for c in cards if c not in listed)
    apply(state, act.Discard(0, other))  # the unlisted copy: legal all the same
    pass_reactions(state)
    assert len(state.players[0].hand) == 1 and state.players[0].turn.discarded


def test_an_old_view_is_not_trusted_once_its_decision_has_passed():
    """A pass moves no version: a view from before it must not let the seat act again."""
    state = start("2v2")
    set_hand(state, 0, "mangroves")
    set_hand(state, 2, "boycott")
    set_hand(state, 3, "manifestation")
    state.players[2].ap = state.players[3].ap = 5
    turn_of(state, 0, ap=5)
    apply(state, next(a for a in legal_actions(state, 0) if isinstance(a, act.PlayCard)))
    old = view_for(state, 2)
    apply_chosen(state, act.Pass(2), old)
    assert state.pending.seat == 3
    with pytest.raises(IllegalAction):
        apply_chosen(state, act.Cancel(2, state.players[2].hand[0]), old)
    apply(state, act.Pass(3))
    with pytest.raises(IllegalAction):  # the window is closed: no crash, nothing changes
        apply_chosen(state, act.Pass(2), old)
    assert state.pending.kind == "turn" and state.pending.seat == 0


def test_the_view_says_what_a_discard_gives_and_the_discard_gives_it():
    from weathering_tui.engine import Setup, apply, legal_actions, new_game, view_for
    from weathering_tui.engine import actions as act

    for config, phase_two in (("2v1", False), ("4v1", False), ("1v1", True)):
        state = new_game(Setup.standard(config, seed=2))
        while state.pending.kind != "turn":
            apply(state, legal_actions(state, state.pending.seat)[0])
        if phase_two:
            state.phase = 2
        seat = state.pending.seat
        view = view_for(state, seat)
        discard = next(a for a in view.legal if isinstance(a, act.Discard))
        before = state.players[seat].ap
        apply(state, discard)
        while state.pending.kind != "turn":  # nobody cancels
            apply(
                state,
                next(
                    a for a in legal_actions(state, state.pending.seat) if isinstance(a, act.Pass)
                ),
            )
        row = state.content.configurations[config].table(state.players[seat].side, state.phase)
        assert view.discard_yield == row.discard_yield
        assert state.players[seat].ap == min(10, before + view.discard_yield)


def test_choice_labels_say_the_heal_and_damage_the_events_let_through():
    """Sécheresse (heals −1) active: a "+2 PV" option reads "+1 PV", as it will resolve."""
    import attrs

    from weathering_tui.content import effects as fx
    from weathering_tui.engine import Setup, new_game, view_for
    from weathering_tui.words import Tr
    from weathering_tui.words.describe import effect_words

    view = view_for(new_game(Setup.standard("2v1", seed=1)), 0)
    tr = Tr("en")
    assert effect_words(tr, view, (fx.Heal(2),)) == tr("opt.heal", n=2)
    drought = attrs.evolve(view, heal_mod=-1, damage_mod=1)
    assert effect_words(tr, drought, (fx.Heal(2),)) == tr("opt.heal", n=1)
    assert effect_words(tr, drought, (fx.Damage(2),)) == tr("opt.damage", n=3)
    # Held back whole: "0 PV (an event)", not "+0 PV" or "−0 PV" (a hint said "−0 PV")
    assert effect_words(tr, attrs.evolve(view, heal_mod=-5), (fx.Heal(2),)) == "0 PV (an event)"
    assert effect_words(tr, attrs.evolve(view, damage_mod=-2), (fx.Damage(2),)) == "0 PV (an event)"


def test_the_hands_short_texts_say_the_heal_the_events_let_through_too():
    """The hand's one-line summary and the choice dialogs agree under Sécheresse."""
    import attrs

    from weathering_tui.engine import Setup, new_game, view_for
    from weathering_tui.words import Tr
    from weathering_tui.words.describe import card_summary

    view = view_for(new_game(Setup.standard("2v1", seed=1)), 0)
    tr = Tr("en")
    assert card_summary(tr, "mangroves#1", view) == tr("opt.heal", n=2)  # printed +2 PV
    drought = attrs.evolve(view, heal_mod=-1)
    assert card_summary(tr, "mangroves#1", drought) == tr("opt.heal", n=1)
