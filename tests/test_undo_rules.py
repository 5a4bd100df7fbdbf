"""Undo never crosses another player's input (rules/README.md, "Taking a move back"):
a human's pass in a reaction window, where every human is asked, ends the undo of the
player before; a trade's acceptance is never taken back. A pass that tells what its
seat holds (a bot's, or a human's asked only for its cancel) stays unseen."""

from __future__ import annotations

import random

import pytest
from helpers import set_hand
from test_fairness import arm_opponents, observed, other_world
from test_fairness import positions as fairness_positions

from weathering_tui.engine import (
    IllegalAction,
    Setup,
    apply,
    can_undo,
    legal_actions,
    new_game,
    undo,
)
from weathering_tui.engine import actions as act
from weathering_tui.engine.state import SeatSetup


def game(config: str, humans=(0,), ask_every_human=True):
    """A game at round 1, seat 0 to play, reached by actions only (undo replays them)."""
    base = Setup.standard(config, events=False)
    seats = tuple(SeatSetup(s.side, human=i in humans) for i, s in enumerate(base.seats))
    state = new_game(Setup(config, seats, events=False, ask_every_human=ask_every_human))
    for seat in range(len(seats)):
        apply(state, act.ChooseCard(seat, None))
    return state


def arm(state, seat: int) -> None:
    """Give `seat` a Boycott and the PA to play it: every window of its opponents asks it."""
    set_hand(state, seat, "boycott")
    state.players[seat].ap = 4


def deck_placement(state, seat: int):
    return next(a for a in legal_actions(state, seat) if isinstance(a, act.PutInDeck))


def test_undo_never_crosses_another_humans_pass_in_a_reaction_window():
    state = game("1v1", humans=(0, 1))
    apply(state, deck_placement(state, 0))
    assert (state.pending.kind, state.pending.seat) == ("react", 1), "asked whatever it holds"
    apply(state, act.Pass(1))
    assert state.pending.seat == 0
    assert not can_undo(state, 0), "the other player let it happen: it stands"
    with pytest.raises(IllegalAction) as refusal:
        undo(state, 0)
    assert refusal.value.code == "cannot_undo"


@pytest.mark.parametrize(
    ("humans", "ask_every_human"),
    [((0,), True), ((0, 1), False)],
    ids=["a bot's pass", "a human's pass asked for its cancel"],
)
def test_a_pass_that_tells_what_its_seat_holds_stays_unseen(humans, ask_every_human):
    """Such a seat is asked only because it holds a cancel: whether its pass is there
    must not change what may be taken back."""
    state = game("1v1", humans=humans, ask_every_human=ask_every_human)
    arm(state, 1)
    apply(state, deck_placement(state, 0))
    assert (state.pending.kind, state.pending.seat) == ("react", 1)
    apply(state, act.Pass(1))
    assert can_undo(state, 0)


@pytest.mark.parametrize(
    ("config", "partner", "armed"),
    [("1v1", 1, None), ("2v2", 3, 2)],
    ids=["the window asks the partner", "a bot, then the partner"],
)
def test_a_trade_acceptance_is_not_taken_back_once_its_window_asks(config, partner, armed):
    state = game(config, humans=(0, partner))
    if armed is not None:
        arm(state, armed)
    apply(state, act.ProposeTrade(0, partner))
    apply(state, act.AnswerTrade(partner, True))
    if armed is not None:
        assert (state.pending.kind, state.pending.seat) == ("react", armed)
        apply(state, act.Pass(armed))
    assert (state.pending.kind, state.pending.seat) == ("react", partner)
    assert not can_undo(state, partner), "the initiator paid, the window asks: it stands"
    with pytest.raises(IllegalAction):
        undo(state, partner)


@pytest.mark.parametrize("ask_every_human", [True, False])
def test_what_a_seat_may_take_back_never_tells_what_the_others_hide(ask_every_human):
    """test_fairness's two worlds, every seat human, every human asked (a table) or only
    those holding a cancel (then the armed opponents are asked in one world and not the
    other): the seat's views, can_undo included, are the same in both."""
    undoable = 0
    for state in fairness_positions("2v1", 8):
        seats = tuple(SeatSetup(s.side, s.character, human=True) for s in state.setup.seats)
        state.setup = Setup(
            state.setup.configuration,
            seats,
            seed=state.setup.seed,
            events=state.setup.events,
            ask_every_human=ask_every_human,
        )
        for player in state.players:
            player.human = True
        seat = state.pending.seat
        arm_opponents(state, seat)
        world = other_world(state, seat, random.Random(seat))
        first, _ = observed(state, seat, random.Random(7))
        second, _ = observed(world, seat, random.Random(7))
        assert first == second
        undoable += sum(view.can_undo for view in first)
    assert undoable > 0, "the seat could take moves back somewhere"
