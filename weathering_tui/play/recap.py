"""Since your last turn: what the other seats did between two turns of a player.

A `Recaps` object watches the views a screen shows, one after another. When a seat's
turn begins (its first decision of that turn, whatever it is, nothing done yet) and that
seat has had a turn before, it gives the part of the log written since that seat's
previous turn ended and the gauge then, so that the screen can say what happened
before any dialog of the new turn.

A round opens with its event, which may ask every seat something (cancel the event,
one of its options) before the first turn: a seat's first decision of the round's
opening gives the recap then, so the player knows what came before deciding. Its turn
later in the round then recaps only if another seat's turn came in between.

It only reads views, so it knows what the seat was told and nothing more; it keeps
positions in the log (the same length for every seat: entries are only redacted).
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
        self._opened: dict[int, int] = {}  # seat → the round whose opening it was told

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
        mine = view.pending is not None and view.pending.seat == seat
        starting = (  # its own turn, its first decision of it (a discard down to 6 too)
            mine and view.active == seat and not view.me.turn.acted
        )
        opening = mine and not starting and _round_opening(view.log)
        if not (starting or opening):
            return None
        if starting:
            key = (view.round, view.active)
            self._in_turn[seat] = key
            self._last[seat] = now
        else:
            key = (view.round, -1)  # the round's opening, before any turn
        if (seat, *key) in self._recapped:
            return None
        self._recapped.add((seat, *key))
        since = self._ended.get(seat)
        if opening:
            if since is not None:
                self._ended[seat] = now  # its turn's recap goes on from here
                self._opened[seat] = view.round
            return since
        if (
            since is not None
            and self._opened.get(seat) == view.round
            and not any(_turn_of_other(e, seat) for e in view.log[since.start :])
        ):
            return None  # told at the round's opening, and no other seat has played since
        return since


# Announced actions whose outcome is a log line of its own ("Cassy draws 1", "Cassy
# discards Agroecology (+2 PA)"): a recap tells only that line, unless it was cancelled.
# A played card's or a power's announcement stays: it names what was played.
_SAID_AGAIN = frozenset({"draw", "put_in_deck", "discard", "store_ap", "trade"})


def told(log, start: int) -> list:
    """The entries of `log` from `start` a recap tells: the full log less the
    announcements whose outcome says the same thing again (a recap was ~50 lines in 3v2)."""
    entries = list(log[start:])
    kept = []
    for i, entry in enumerate(entries):
        data = getattr(entry, "data", None) or {}
        if entry.kind == "announce" and data.get("action") in _SAID_AGAIN:
            after = []
            for later in entries[i + 1 :]:
                if later.kind in ("announce", "turn", "end_turn"):
                    break
                after.append(later.kind)
            if "cancelled" not in after and after:
                continue
        if entry.kind == "forced":
            continue  # "only one choice, made for them": the outcome's line says it
        kept.append(entry)
    return kept


def transition_span(log) -> range:
    """Where the game's transition lies in a log: from its "transition" entry to the next
    round's start, that one left out (empty while the log holds none). The transition's
    summary tells it, a recap after the summary leaves it out, and a game loaded later
    in phase 2 reads whether anything was done since."""
    kinds = [entry.kind for entry in log]
    if "transition" not in kinds:
        return range(0)
    start = len(kinds) - 1 - kinds[::-1].index("transition")
    stop = next((i for i in range(start, len(kinds)) if kinds[i] == "round"), len(kinds))
    return range(start, stop)


def _round_opening(log) -> bool:
    """The log's last round has begun and no turn in it yet (its event is at work)."""
    for entry in reversed(log):
        kind = getattr(entry, "kind", None)
        if kind == "turn":
            return False
        if kind == "round":
            return True
    return False


def _turn_of_other(entry, seat: int) -> bool:
    return getattr(entry, "kind", None) == "turn" and entry.data.get("seat") != seat
