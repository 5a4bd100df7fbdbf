"""A reaction window answered by everyone at once (§8.3, network.md Fairness).

The engine asks the window's seats one at a time, in seat order after the actor: the
journal and a replay hold their answers in that order. A table, though, opens the
window to every asked seat at once — nobody learns who is asked, nobody waits their
turn to say "let it happen" — and collects the answers (`Answers`). It then applies
them in seat order: the first seat in that order that cancels is the one that does,
whoever spoke first. A seat that has not answered when the window's time is up lets
the action happen. The time itself is the table's (`bots.pacing`); this module holds
the rule, with no clock.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from . import actions as act
from .announce import _asked, _cancel_cards, power_can_cancel, reaction_answers
from .common import card_id, frugal_cost
from .state import EventWindowFrame, GameState, Pending, ReactionFrame


def _frame(state: GameState):
    """The open window's frame, if the game waits on a reaction."""
    pending = state.pending
    if pending is None or pending.kind != "react" or not state.stack or state.over:
        return None
    frame = state.stack[-1]
    return frame if isinstance(frame, ReactionFrame | EventWindowFrame) else None


def window_seats(state: GameState) -> tuple[int, ...]:
    """The seats the open window still asks, in the order their answers apply."""
    frame = _frame(state)
    if frame is None:
        return ()
    event = isinstance(frame, EventWindowFrame)
    return tuple(s for s in frame.order[frame.index :] if _asked(state, s, event))


def could_cancel(state: GameState, seat: int, event: bool) -> bool:
    """Whether `seat` might cancel now, from public facts alone: its PA, its reaction
    power's cost and whether it was used, whether its hand is empty, the phase and its
    side, and the discard pile (every copy of a cancel card there: nobody holds one).
    False means that no hand it could hold lets it cancel (`cancel_options` is then
    empty whatever it holds), so a window may skip it and tell nothing (§8.1)."""
    player = state.players[seat]
    if power_can_cancel(state, seat, event):
        return True
    if not player.hand:
        return False
    cards = state.content.cards
    gone = Counter([card_id(c) for c in state.discard_pile])
    return any(
        frugal_cost(cards[cid].cost, state.phase, player.side) <= player.ap
        and gone[cid] < cards[cid].copies
        for cid, cancel in _cancel_cards(state.content).items()
        if not event or cancel.events
    )


def unable_seats(state: GameState) -> tuple[int, ...]:
    """The seats the open window still asks that cannot cancel whatever they hold, as
    every seat can see (`could_cancel`: their PA, their power, an empty hand). Letting
    the action happen for them at once tells nothing: the same seats in every world."""
    frame = _frame(state)
    event = isinstance(frame, EventWindowFrame)
    return tuple(s for s in window_seats(state) if not could_cancel(state, s, event))


def window_choices(state: GameState, seat: int, seats: tuple[int, ...] | None = None) -> list:
    """What `seat` may answer in the open window: let it happen, or a cancel it can pay.
    `seats`: the window's seats (`window_seats`), when the caller has them already."""
    if seat not in (window_seats(state) if seats is None else seats):
        return []
    return reaction_answers(state, seat, isinstance(_frame(state), EventWindowFrame))


class Answers:
    """The answers collected in the open window, applied in seat order (`next`)."""

    def __init__(self) -> None:
        self.frame: object = None  # the window they belong to
        self.given: dict[int, object] = {}
        self.asked: frozenset[int] = frozenset()  # the seats it asked when it opened

    def current(self, state: GameState) -> dict[int, object]:
        """The answers to the window open now (a new window starts with none)."""
        frame = _frame(state)
        if frame is not self.frame:
            self.frame, self.given = frame, {}
            self.asked = frozenset(window_seats(state))
        return self.given

    def answered(self, state: GameState) -> frozenset[int]:
        return frozenset(self.current(state))

    def give(self, state: GameState, action) -> bool:
        """Record a seat's answer; False if it is not one of its choices now (or it has
        answered already: the first answer stands)."""
        given = self.current(state)
        seat = getattr(action, "seat", None)
        if not isinstance(seat, int) or seat in given or action not in window_choices(state, seat):
            return False
        given[seat] = action
        return True

    def next(self, state: GameState, expired: bool = False):
        """The answer the engine takes now — the seat it asks has answered, or the time
        is up and it lets the action happen — else None: wait for that seat."""
        if _frame(state) is None:
            return None
        seat = cast(Pending, state.pending).seat  # an open window waits for a seat
        answer = self.current(state).get(seat)
        if answer is None and expired:
            answer = act.Pass(seat)
        return answer
