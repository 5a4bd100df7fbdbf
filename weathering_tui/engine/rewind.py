"""`can_undo(state, seat)` / `undo(state, seat)`: the one statement of the undo rule.

A seat takes back its own decisions of this turn, back to the last point where
something hidden or random came out (a draw, an event, a random discard, a peek, a look
at a hand, a trade) or another seat decided anything. A pass in a reaction window is
such a decision only from a seat every window asks (a human at a table): another
seat's pass, which tells what it holds, nobody sees. An accepted trade is never taken
back (its window asks the others). The state after undo is the game replayed without the
undone actions, so it holds exactly what a replay holds: the same random state, and
nothing that the undone action would have shown.

What `apply` notes of each action for this rule is in engine/history.py (`record`).
"""

from __future__ import annotations

from .core import replay
from .history import unseen
from .refusals import IllegalAction


def _undo_from(state, seat: int) -> int | None:
    """Index of the decision `seat` would take back now, or None."""
    history = state.history
    pending = state.pending
    if state.over or pending is None or pending.seat != seat or history.owner != seat:
        return None
    for index in range(len(history.actions) - 1, history.floor - 1, -1):
        action = history.actions[index]
        if action.seat == seat and not unseen(state, action):
            return index
    return None


def can_undo(state, seat: int) -> bool:
    """Whether `seat` may take back its last decision now (see the module's rule)."""
    return _undo_from(state, seat) is not None


def undo(state, seat: int):
    """The game replayed without `seat`'s last decision (and the unseen passes after it).
    Returns a new state; `state` is left as it was. IllegalAction("cannot_undo") if the
    rule does not allow it."""
    index = _undo_from(state, seat)
    if index is None:
        raise IllegalAction("cannot_undo")
    new = replay(state.setup, state.history.actions[:index], state.content)
    new.keep_log = state.keep_log
    return new
