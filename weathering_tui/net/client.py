"""A connection to the table server: hello, messages in and out, each table's view,
and reconnection by itself when the link drops or the server restarts."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import attrs

from ..engine import LogEntry, View
from ..engine.wire import view_from_data, wire_converter
from . import protocol as pr
from . import server_messages as msg
from .notice_order import NoticeOrder


class TableClient:
    """Keeps the newest view of each table this connection sits at or watches.

    `on_event(message)` is called for every message (after the views are updated): the
    server's message as its class (net/server_messages.py, checked as it was read);
    `on_link(up)` when the link goes down or comes back."""

    def __init__(
        self,
        socket_path: Path | None = None,
        identity: str | None = None,
        name: str | None = None,
        client: str = "weathering",
        origin: str | None = None,
        on_event=None,
        on_link=None,
        with_log: bool = True,
    ):
        self.socket_path = Path(socket_path) if socket_path else pr.default_socket()
        self.identity_asked = identity
        self.origin = origin
        self.name_asked = name
        self.client = client
        self.on_event = on_event
        self.on_link = on_link
        self.with_log = with_log
        self.identity: str | None = None
        self.name = ""
        self.views: dict[str, View] = {}
        self.logs: dict[str, list] = {}
        self.tables: list[dict] = []
        self.created: set[str] = set()  # the tables this identity made (it starts them)
        self.seats: dict[str, int] = {}  # where this player sits (taken back on reconnect)
        self.watching: set[str] = set()
        self.refused: set[str] = set()  # tables whose making the server just refused
        self.summaries: dict[str, dict] = {}  # each waiting room as the table last said
        self.hints: dict[str, bool] = {}  # the tables whose players may ask for hints
        self.codes: dict[str, str] = {}  # join codes given, for coming back after a drop
        self.window_ends: dict[str, float] = {}  # when each table's reaction window closes
        self.view_data: dict[str, dict] = {}  # each table's last view fields (deltas apply)
        self.notice_order = NoticeOrder()  # a notice older than one applied is stale
        self.paused: set[str] = set()  # tables the server last said are paused or moving
        self.writer: asyncio.StreamWriter | None = None
        self.connected = asyncio.Event()
        self.closed = False
        self.auto_pass = False

    # ------------------------------------------------------------ link

    async def run(self, give_up: float | None = None) -> None:
        """Connect, and reconnect after any drop, until `close` (or, with `give_up`,
        until the server has been unreachable for that many seconds)."""
        delay = 0.2
        lost = time.monotonic()
        while not self.closed:
            try:
                reader, writer = await asyncio.open_unix_connection(
                    str(self.socket_path), limit=16 * 1024 * 1024
                )
            except OSError:
                if give_up is not None and time.monotonic() - lost > give_up:
                    raise ConnectionError(
                        f"{self.socket_path}: no server for {give_up:.0f} s"
                    ) from None
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 1.5)
                continue
            delay = 0.2
            self.writer = writer
            try:
                await self._session(reader)
            except (ConnectionError, asyncio.IncompleteReadError, ValueError):
                pass
            finally:
                lost = time.monotonic()
                self.writer = None
                self.connected.clear()
                self.window_ends.clear()  # no clock runs while the link is down
                self.view_data.clear()  # the next views come whole
                with contextlib.suppress(Exception):
                    writer.close()
                if self.on_link is not None and not self.closed:
                    self.on_link(False)
            if not self.closed:
                await asyncio.sleep(delay)

    async def _session(self, reader) -> None:
        self.notice_order.clear()  # (a new connection: its server's numbers)
        self.send(
            pr.Hello(
                pr.PROTOCOL,
                self.client,
                identity=self.identity_asked,
                name=self.name_asked,
                origin=self.origin,
            )
        )
        while True:
            line = await reader.readline()
            if not line:
                return
            self.take(line)

    def take(self, line: bytes) -> None:
        """One line from the server, checked, then acted on: not a message of this
        protocol, or a notice older than one applied for its table (a "paused" the
        owner queued while Redis was away, after "resumed"), is dropped unseen."""
        try:
            message = msg.parse_server(line)
        except pr.ProtocolError:
            return  # not a message of this protocol: nothing to act on
        if isinstance(message, msg.Notice):
            if not self.notice_order.fresh(message):
                return
            if message.kind in ("paused", "moving"):
                self.paused.add(message.table)
            elif message.kind == "resumed":
                self.paused.discard(message.table)
        if not self._table_gone(message):  # (else: said once already)
            self._receive(message)

    def close(self) -> None:
        self.closed = True
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()

    def send(self, message) -> bool:
        if self.writer is None or self.writer.transport.is_closing():
            return False
        self.writer.write(pr.client_line(message))
        return True

    # ------------------------------------------------------------ messages

    def _receive(self, message: msg.ServerMessage) -> None:
        if isinstance(message, msg.Welcome):
            self.identity, self.name = message.identity, message.name
            # The views are kept (a screen shows the last one until the table sends its
            # own again, whole: a new connection's first view starts its log at 0).
            self.logs.clear()
            if self.auto_pass:
                self.send(pr.Options(auto_pass=True))
            for held in message.seats:
                self.seats.setdefault(held["table"], held["seat"])
            for table, seat in self.seats.items():  # back to where we sat
                self.send(pr.TakeSeat(table, seat, self.codes.get(table, "")))
            for table in self.watching:
                self.send(pr.Spectate(table, self.codes.get(table, "")))
            self.send(pr.ListTables())
            self.connected.set()
            if self.on_link is not None:
                self.on_link(True)
        elif isinstance(message, msg.ViewMessage):
            self._view(message)
        elif isinstance(message, msg.TablesList):
            self.tables = message.tables
        elif isinstance(message, msg.Seated):
            self.seats[message.table] = message.seat
            if message.creator:
                self.created.add(message.table)
        elif isinstance(message, msg.WaitingRoom):
            self.summaries[message.table] = message.summary
        elif isinstance(message, msg.TakenOver):  # the same identity sat down elsewhere
            self.seats.pop(message.table, None)
            self.views.pop(message.table, None)
        elif isinstance(message, msg.Watching):
            self.watching.add(message.table)
        if self.on_event is not None:
            self.on_event(message)

    def _table_gone(self, message: msg.ServerMessage) -> bool:
        """A table gone (expired: nothing of it is kept, nor sat at again after a drop),
        or never made: True for the `no_table` answering the seat asked with a table
        whose making was just refused (`full` says why; this would only add noise)."""
        if isinstance(message, msg.Notice) and message.kind == "expired":
            self._drop(message.table)
            return False
        if not isinstance(message, msg.ErrorMessage):
            return False
        params = message.params
        table = params.get("table") if isinstance(params, dict) else None
        if not isinstance(table, str):
            return False
        if message.code in ("full", "storage"):  # (storage: the store refused it)
            self.refused.add(table)
        elif message.code == "no_table" and table in self.refused:
            self.refused.discard(table)
            return True
        return False

    def _drop(self, table: str) -> None:
        """A table gone from the server: this connection keeps nothing of it."""
        self.seats.pop(table, None)
        self.watching.discard(table)
        self.created.discard(table)
        self.codes.pop(table, None)
        for kept in (self.views, self.logs, self.summaries, self.hints, self.view_data):
            kept.pop(table, None)
        self.paused.discard(table)
        self.window_ends.pop(table, None)

    def _view(self, message: msg.ViewMessage) -> None:
        table = message.table
        data = message.view
        start = message.log_start
        log = self.logs.setdefault(table, [])
        if start == 0:
            log.clear()
        base = self.view_data.get(table)
        full = message.full
        if start != len(log) or (not full and base is None):  # out of step: ask again
            self.view_data.pop(table, None)
            seat = self.seats.get(table)
            code = self.codes.get(table, "")
            self.send(
                pr.TakeSeat(table, seat, code) if seat is not None else pr.Spectate(table, code)
            )
            return
        if self.with_log:
            log.extend(wire_converter().structure(e, LogEntry) for e in data["log"])
        else:
            log.extend(None for _ in data["log"])
        # (base is there when not full: the check above asked again otherwise)
        fields = {**data, "log": []} if full or base is None else {**base, **data, "log": []}
        self.view_data[table] = fields
        view = view_from_data(fields)
        if self.with_log:
            view = attrs.evolve(view, log=tuple(log))
        self.views[table] = view
        self.hints[table] = message.hints
        left = message.window
        if left > 0:
            self.window_ends[table] = time.monotonic() + left
        else:
            self.window_ends.pop(table, None)

    def window_left(self, table: str) -> float:
        """Seconds left in the table's open reaction window, as the server last said."""
        end = self.window_ends.get(table)
        return max(0.0, end - time.monotonic()) if end is not None else 0.0

    # ------------------------------------------------------------ requests

    def act(self, table: str, view: View, action) -> bool:
        return self.send(pr.Act(table, view.version, pr.action_data(action)))

    def take_seat(self, table: str, seat: int, code: str = "") -> bool:
        if code:
            self.codes[table] = code
        return self.send(pr.TakeSeat(table, seat, code or self.codes.get(table, "")))

    def spectate(self, table: str, code: str = "") -> None:
        if code:
            self.codes[table] = code
        self.send(pr.Spectate(table, code or self.codes.get(table, "")))

    def leave(self, table: str) -> None:
        self.seats.pop(table, None)
        self.watching.discard(table)
        self.views.pop(table, None)
        self.send(pr.Leave(table))
