"""Each kind of targeted card, aimed as a player almost always wants it first: a blow
(PA lost, cards discarded at random) at an opponent, a gift (a card drawn, cards given)
to one's own side; a fair swap (an exchange) keeps the seats' order. The target dialog,
the expert's candidates and the hints read this one rule (content.effects.aim)."""

import pytest
from helpers import set_hand, start, turn_of

from weathering_tui.content import default_content
from weathering_tui.content import effects as fx
from weathering_tui.engine import actions as act
from weathering_tui.engine import against_own_side, view_for
from weathering_tui.words.describe import aimed_well_first

ECONOMIST = "thomas"  # Green tax

KINDS = [
    ("tempete", fx.HARMS),  # lose_ap
    ("evasion_fiscale", fx.HARMS),  # lose_ap
    ("ecologie_decoloniale", fx.HARMS),  # discard_random
    ("montee_des_eaux", fx.HARMS),  # damage, then discard_random
    ("fracturation_hydraulique", fx.HARMS),  # damage, then lose_ap
    ("financement_participatif", fx.HELPS),  # heal, then draw
    ("entraide", fx.HELPS),  # give_cards
    ("accord_de_libre_echange", None),  # exchange: fair
]


@pytest.mark.parametrize(("card", "aim"), KINDS)
def test_every_targeted_card_kind_is_aimed_as_a_player_wants(card, aim):
    content = default_content()
    assert fx.aim(content.cards[card].cartouches[0]) == aim
    for seat in (0, 3):  # an Écolo and a Lobbyiste of a 3v2
        state = start("3v2", seed=3)
        set_hand(state, seat, card)
        turn_of(state, seat, ap=10)
        view = view_for(state, seat)
        plays = [a for a in view.legal if isinstance(a, act.PlayCard) and a.target is not None]
        assert plays, card
        ordered = aimed_well_first(content, view, plays)
        first = view.players[ordered[0].target]
        mine = view.me.side
        if aim == fx.HARMS:
            assert first.side != mine, "a blow goes first at an opponent"
        elif aim == fx.HELPS:
            assert first.side == mine, "a gift goes first to one's own side"
        else:
            assert ordered == plays  # nothing to prefer: the seats' order
        wrong = {a.target for a in plays if against_own_side(content, view, a)}
        allies = {p.seat for p in view.players if p.side == mine}
        expected = {a.target for a in plays} & (
            allies if aim == fx.HARMS else set() if aim is None else set(range(5)) - allies
        )
        assert wrong == expected
        assert all(
            not against_own_side(content, view, a) for a in ordered[: len(plays) - len(wrong)]
        )


@pytest.mark.parametrize(("seat", "first"), [(0, fx.Heal), (3, fx.Damage)])
def test_a_two_way_card_offers_its_side_s_cartouche_first(seat, first):
    """Climate feedback: +2 PV or −2 PV. The Écolo's dialog highlights the heal, the
    Lobbyiste's the damage (a play-test's Lobbyiste was offered the +2 PV first)."""
    content = default_content()
    state = start("3v2", seed=3)
    set_hand(state, seat, "retroaction_climatique")
    turn_of(state, seat, ap=10)
    view = view_for(state, seat)
    plays = [a for a in view.legal if isinstance(a, act.PlayCard)]
    assert len(plays) == 2
    ordered = aimed_well_first(content, view, plays)
    cartouche = content.cards["retroaction_climatique"].cartouches[ordered[0].cartouche]
    assert isinstance(cartouche[0], first)


def test_a_power_that_gives_pa_goes_first_to_one_s_own_side_and_asks_before_an_opponent():
    # Green tax: a player of one's choice gains 3 PA. To an opponent it is a gift to the
    # other side (a play-test gave Fossilisé 3 PA with no question).
    content = default_content()
    power = content.characters[ECONOMIST].power
    assert fx.aim(power.at(1).effects) == fx.HELPS
    state = start("2v1", seed=3)
    state.players[0].character = ECONOMIST
    turn_of(state, 0, ap=10)
    view = view_for(state, 0)
    uses = [a for a in view.legal if isinstance(a, act.UsePower)]
    assert {a.target for a in uses} == {0, 1, 2}
    ordered = aimed_well_first(content, view, uses)
    assert view.players[ordered[0].target].side == "ecologist"
    assert [against_own_side(content, view, a) for a in ordered] == [False, False, True]


def test_a_card_s_gauge_counts_as_it_would_now_with_the_events_modifiers():
    """A Lobbyiste's Community garden (+1 PV) helps the Écolos, so it is asked about;
    while an event takes 1 from every heal it does nothing to the gauge, and the
    confirmation, the hints and the review (engine/harm.py) all read it so."""
    import attrs

    from weathering_tui.engine import own_side_harm

    content = default_content()
    state = start("1v1")
    set_hand(state, 1, "potager_partage")
    turn_of(state, 1, ap=3)
    view = view_for(state, 1)
    play = next(a for a in view.legal if isinstance(a, act.PlayCard))
    assert view.me.side == "lobbyist" and view.heal_mod == 0
    assert own_side_harm(content, view, play) == "gauge"
    assert own_side_harm(content, attrs.evolve(view, heal_mod=-1), play) is None
