"""Rules and table guards that nothing else pinned down: each test fails if its one line
of code is broken (synergy types, undo after a cancel, seats at a table, the damage
modifier, the hand limit after the transition, a decked card kept secret)."""

import pytest
from helpers import (
    end_turns_until,
    pass_reactions,
    play,
    set_deck,
    set_hand,
    start,
    start_with_events,
    turn_of,
)

from weathering_tui.engine import IllegalAction, apply, can_undo, synergy_of, undo, view_for
from weathering_tui.engine import actions as act
from weathering_tui.engine.common import card_def
from weathering_tui.net.protocol import ProtocolError
from weathering_tui.net.table import Table

FOUR = ["potager_partage", "reboisement", "mangroves", "eoliennes"]


def test_r55_a_deck_of_three_types_has_no_synergy_and_one_of_four_types_has():
    """R55/R56: the four-types synergy needs all 4 types; 3 types is no synergy at all."""
    state = start("2v1")
    three = set_deck(state, 0, "potager_partage", "mobilite_douce", "reboisement", "mangroves")
    assert len({card_def(state, c).type for c in three}) == 3
    assert synergy_of(state, 0) is None
    set_deck(state, 0, "potager_partage", "mobilite_douce", "reboisement", "mangroves", "tempete")
    assert synergy_of(state, 0) == "four_types"
    four = set_deck(state, 0, *FOUR)
    assert len({card_def(state, c).type for c in four}) == 4
    assert synergy_of(state, 0) == "four_types"


def test_no_undo_of_a_card_an_opponent_cancelled():
    """The undo rule (engine/rewind.py): another seat's cancellation is a decision
    everyone saw, so the cancelled player cannot take their card back (R96)."""

    def played(cancel: bool):
        state = start("2v1")
        set_hand(state, 0, "sobriete_energetique")
        set_hand(state, 2, "boycott")
        state.players[2].ap = 5
        turn_of(state, 0, ap=5)
        play(state, 0, "sobriete_energetique")
        if cancel:
            apply(state, act.Cancel(2, state.players[2].hand[0]))
        else:
            apply(state, act.Pass(2))
        assert state.pending.kind == "turn" and state.pending.seat == 0
        return state

    assert can_undo(played(cancel=False), 0)  # let through: still the player's to take back
    state = played(cancel=True)
    assert not can_undo(state, 0)
    assert not view_for(state, 0).can_undo
    with pytest.raises(IllegalAction) as refusal:
        undo(state, 0)
    assert refusal.value.code == "cannot_undo"


def test_a_seat_handed_to_a_bot_takes_no_action_from_its_former_holder():
    """network.md (Tables and seats): once a bot plays a seat (its holder gone too long),
    the holder is not seated until they take it back: their action is refused and the
    game does not move."""
    table = Table("t", "1v1", (0, 1), seed=1)
    table.take("ann", "Ann", 0)
    table.take("bob", "Bob", 1)
    table.start()
    state = table.game.state
    assert state.pending.seat == 0  # ann's mulligan: hers to decide, if she held the seat
    table.hand_to_bot(0)
    version = state.version
    with pytest.raises(ProtocolError) as refusal:
        table.act("ann", version, {"kind": "choose_card", "seat": 0, "card": None})
    assert refusal.value.code == "not_seated"
    assert table.game.actions == [] and state.version == version


def test_before_the_start_nobody_takes_a_seat_another_holds():
    """network.md (Tables and seats): a player takes a free seat, never another's."""
    table = Table("t", "2v1", (0, 1))
    assert table.take("ann", "Ann", 0) == 0
    with pytest.raises(ProtocolError) as refusal:
        table.take("bob", "Bob", 0)
    assert refusal.value.code == "seat_taken"
    assert table.seats[0].owner == "ann" and table.seats[0].name == "Ann"
    assert table.seat_of("bob") is None
    assert table.take("bob", "Bob", 1) == 1  # a free seat, though, is his


def test_drilling_moratorium_lowers_each_damage_by_1():
    """rules-reference §7.2, event 13 Moratoire sur les forages: damage_mod(−1)."""
    state = start_with_events("2v1", "moratoire_sur_les_forages")
    assert [a.event for a in state.active_events] == ["moratoire_sur_les_forages"]
    set_hand(state, 2, "betonisation")  # damage 3
    turn_of(state, 2, ap=5)
    state.hp = 12
    play(state, 2, "betonisation")
    pass_reactions(state)
    assert state.hp == 10
    damage = [e for e in state.log if e.kind == "damage"][-1]
    assert damage.data["amount"] == 2 and damage.data["hp"] == 10


def test_r58_after_the_transition_a_hand_of_8_is_kept_while_others_draw():
    """Transition step 2, Preparation: the Écolo's whole deck becomes their hand and the
    hand limit stays off for them until they next draw or receive a card (R58; R59 is
    the card that arrives)."""
    state = start("2v1", seed=1)
    state.round = 5
    end_turns_until(state, 2)  # the last turn of round 5
    set_deck(state, 0, *FOUR, "boycott", "troc")
    apply(state, act.EndTurn(2))
    apply(state, act.ClaimSynergy(0, True))  # four types: 2 more cards, a deck of 8
    if state.pending.kind == "claim_synergy":
        apply(state, act.ClaimSynergy(state.pending.seat, False))
    player = state.players[0]
    assert state.phase == 2 and len(player.hand) == 8
    set_hand(state, 2, "greenwashing")
    turn_of(state, 2, ap=3)
    play(state, 2, "greenwashing")  # the Lobbyiste draws: every hand above 6 is checked
    pass_reactions(state)
    assert state.pending.kind == "turn" and state.pending.seat == 2
    assert len(player.hand) == 8 and player.hand_limit_off


def test_a_card_put_in_a_deck_is_named_only_to_its_owner():
    """rules-reference §12, precision 13 (Visibility): every announced action is public
    with its card, except put_in_deck, whose card stays hidden unless it is cancelled."""
    state = start("2v1")
    (card,) = set_hand(state, 0, "mangroves")
    turn_of(state, 0, ap=3)
    apply(state, act.PutInDeck(0, card))
    pass_reactions(state)
    assert state.players[0].deck[-1] == card
    for seat in range(3):
        log = view_for(state, seat).log
        (entry,) = [e for e in log if e.kind == "announce" and e.data["action"] == "put_in_deck"]
        assert "card" not in entry.data and card not in str(entry.data)
        if seat == 0:
            assert entry.secret == {"card": card}
        else:
            assert card not in str([(e.data, e.secret) for e in log])
