"""Since your last turn: what the other seats did between two turns of a player.

A `Recaps` object watches the views a screen shows, one after another. When a seat's
turn begins (its first decision of that turn, whatever it is, nothing done yet) and that
seat has had a turn before, it gives the part of the log written since that seat's
previous turn ended and the gauge then, so that the screen can say what happened
before any dialog of the new turn. It only reads views, so it knows what the seat was
told and nothing more; it keeps positions in the log (the same length for every seat:
entries are only redacted).
"""

from __future__ import annotations

import attrs

from ..engine import View


@attrs.frozen
class Since:
    """What a seat's recap covers: the log from `start`, the gauge was `hp` then."""

    start: int
    hp: int


class Recaps:
    def __init__(self) -> None:
        self._ended: dict[int, Since] = {}  # seat → where its last turn ended
        self._in_turn: dict[int, tuple[int, int]] = {}  # seat → (round, active) of its turn
        self._last: dict[int, Since] = {}  # seat → the last view seen in its turn
        self._recapped: set[tuple[int, int, int]] = set()

    def observe(self, view: View) -> Since | None:
        """Call with each view shown; a `Since` when `view.seat`'s turn just began and a
        recap is due (once per turn)."""
        now = Since(len(view.log), view.hp)
        for seat, key in list(self._in_turn.items()):
            if key != (view.round, view.active):
                # That seat's turn is over: its recap starts where its last view in the
                # turn stood, so the lines written since (the next player's income and
                # draw, a new round and its event) are not lost.
                self._ended[seat] = self._last.pop(seat, now)
                del self._in_turn[seat]
            else:
                self._last[seat] = now
        seat = view.seat
        starting = (  # its own turn, its first decision of it (a discard down to 6 too)
            view.pending is not None
            and view.pending.seat == seat
            and view.active == seat
            and not view.me.turn.acted
        )
        if not starting:
            return None
        key = (view.round, view.active)
        self._in_turn[seat] = key
        self._last[seat] = now
        if (seat, *key) in self._recapped:
            return None
        self._recapped.add((seat, *key))
        return self._ended.get(seat)
