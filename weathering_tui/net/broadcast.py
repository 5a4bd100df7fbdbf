"""The view lines a table sends after a change: the part every seat shares built once,
each seat's own part added to it.

Most of a view is the same for every seat (the gauge, the players' public facts, the
events, the log's public entries): that part is converted and encoded once per change
(`Frame`, which takes from the frame before it every record that did not change), and
each seat adds only its own part (`engine.view.SEAT_FIELDS`, its own entry of `players`,
the log's secrets addressed to it: `LogCache` encodes each entry once for its audience
and once for the others). `seat_view` gives one seat its view as JSON: whole the first
time, then exactly the fields of `view_to_data(view_for(state, seat))` that changed
since the view it was last sent (`Sent`) and the log entries it has not seen; nothing
when nothing changed for it (nor, with `hide_reactions`, while a reaction window it is
not asked in is open). The table's driver sends it in a `server_messages.ViewHead` line
(tests/test_broadcast.py).
"""

from __future__ import annotations

import functools
import typing

from ..engine import PlayerView, View, own_player, public_fields, seat_fields, visible_entry
from ..engine.wire import wire_converter
from .protocol import dumps


@functools.cache
def _hooks() -> dict:
    """The converter's function for each View field (and "me", a PlayerView), looked
    up once rather than dispatched on every value."""
    converter = wire_converter()
    hooks = {
        name: converter.get_unstructure_hook(kind)
        for name, kind in typing.get_type_hints(View).items()
    }
    hooks["me"] = converter.get_unstructure_hook(PlayerView)
    return hooks


def _converted(fields: dict, old_fields: dict | None = None, old_data: dict | None = None):
    """Each View field as data; one equal to its record in `old_fields` is taken from
    `old_data` (converted then) rather than converted again."""
    hooks = _hooks()
    if old_fields is None:
        return {key: hooks[key](value) for key, value in fields.items()}
    assert old_data is not None, "the data of old_fields come with them"
    return {
        key: old_data[key] if value == old_fields[key] else hooks[key](value)
        for key, value in fields.items()
    }


def _members(data: dict) -> bytes:
    """A dict's members as JSON without the braces (b"" for none)."""
    return dumps(data)[1:-1] if data else b""


class Frame:
    """The public part of one state's views, as data and (when asked) as JSON."""

    fields: dict  # the view's public fields but the players, as records
    records: list  # the players, as records

    def __init__(self, state, before: Frame | None = None):
        hooks = _hooks()
        fields = public_fields(state)
        records = fields.pop("players")
        if before is None:
            self.players = [hooks["me"](p) for p in records]
            self.data = _converted(fields)
        else:  # a record equal to the one before is not converted again (most are)
            self.players = [
                before.players[i] if p == before.records[i] else hooks["me"](p)
                for i, p in enumerate(records)
            ]
            self.data = _converted(fields, before.fields, before.data)
        self.fields, self.records = fields, records
        self.before = before  # the frame sent just before this one
        if before is not None:
            before.before = None  # (so that frames are never kept in a chain)
        self._news: bytes | None = None
        self._players_json: list[bytes | None] = [None] * len(self.players)

    def news(self) -> bytes:
        """What changed since the frame before, as JSON members (computed once)."""
        if self._news is None:
            assert self.before is not None, "only a frame after another has news"
            self._news = self.since(self.before)
        return self._news

    def since(self, older: Frame) -> bytes:
        return _members({k: v for k, v in self.data.items() if older.data.get(k) != v})

    def everything(self) -> bytes:
        return _members(self.data)

    def player_json(self, index: int) -> bytes:
        text = self._players_json[index]
        if text is None:
            text = self._players_json[index] = dumps(self.players[index])
        return text

    def players_json(self, seat: int, me: dict | None) -> bytes:
        """The players as `seat` sees them: its own entry is `me`."""
        items = [
            dumps(me) if i == seat and me is not None else self.player_json(i)
            for i in range(len(self.players))
        ]
        return b"[" + b",".join(items) + b"]"


class LogCache:
    """Each log entry's JSON, for its audience and for everyone else, kept while the
    entry is the same object (an undo rebuilds the log: its entries are new)."""

    def __init__(self):
        self.entries: list = []  # (entry, JSON for its audience, JSON for the others)

    def json(self, log, index: int, seat: int) -> bytes:
        entry = log[index]
        if index < len(self.entries) and self.entries[index][0] is entry:
            _, full, hidden = self.entries[index]
        else:
            convert = wire_converter().unstructure
            full = dumps(convert(entry))
            hidden = dumps(convert(visible_entry(entry, -1))) if entry.secret else full
            del self.entries[index:]
            if index == len(self.entries):
                self.entries.append((entry, full, hidden))
        return full if not entry.secret or seat in entry.audience else hidden


class Sent:
    """What a connection was last sent of a table: the frame, its own part and its
    own player entry (as records, `fields` and `player`, and as data, `own` and `me`),
    the log's length and the window's clock."""

    __slots__ = ("frame", "fields", "own", "player", "me", "log", "clock")

    def __init__(self, frame: Frame, fields: dict, own: dict, player, me, log: int, clock):
        self.frame, self.fields, self.own = frame, fields, own
        self.player, self.me, self.log, self.clock = player, me, log, clock


def seat_view(
    state,
    seat: int,
    answered,
    frame: Frame,
    last: Sent | None,
    log: LogCache,
    clock,
    hide_reactions: bool = False,
) -> tuple[bytes | None, Sent | None]:
    """The view this seat gets now as JSON, changes only if it was `last` sent one
    (None: nothing new for it), and what it has then been sent. `hide_reactions`: a
    seat that is not asked in the open reaction window is sent nothing now."""
    hooks = _hooks()
    fields = seat_fields(state, seat, answered)
    if hide_reactions and fields["pending"] is not None and fields["pending"].kind == "reactions":
        return None, last
    player = own_player(state, seat) if 0 <= seat < len(frame.players) else None
    if last is None:
        own = _converted(fields)
        me = hooks["me"](player) if player is not None else None
    else:  # a record equal to the one sent is not converted again (most are)
        own = _converted(fields, last.fields, last.own)
        me = last.me if player == last.player else hooks["me"](player)
    length = len(state.log)
    if last is None:
        public, changed, players = frame.everything(), own, True
    else:
        if last.frame is frame:
            public = b""
        elif last.frame is frame.before:
            public = frame.news()
        else:
            public = frame.since(last.frame)
        changed = {k: v for k, v in own.items() if last.own.get(k) != v}
        players = me != last.me or (last.frame is not frame and last.frame.players != frame.players)
        if not (public or changed or players) and (last.log, last.clock) == (length, clock):
            return None, last
    parts = [part for part in (public, _members(changed)) if part]
    if players:
        parts.append(b'"players":' + frame.players_json(seat, me))
    start = last.log if last is not None else 0
    entries = b",".join(log.json(state.log, i, seat) for i in range(start, length))
    parts.append(b'"log":[' + entries + b"]")
    return b"{" + b",".join(parts) + b"}", Sent(frame, fields, own, player, me, length, clock)
