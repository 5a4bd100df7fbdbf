"""`weathering serve`: the table server, one asyncio process, the only authority.

It listens on a Unix socket (no TCP: remote players come through SSH). Each
connection is identified by its peer's uid (SO_PEERCRED), sends one JSON message per
line (`protocol.py`), and gets its seat's view after every change it can see.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import stat
import time
from pathlib import Path

from ..bots import pacing
from ..bots.pool import BotPool
from ..engine import SPECTATOR, visible_entry
from ..engine.wire import view_to_data
from ..savefile import SaveError
from ..storage.journal import COMPACT_EVERY
from . import protocol as pr
from .connection import HELLO_WITHIN, Admission, Connection, user_name
from .folders import unsafe_folder
from .table import Table

PER_IDENTITY = 8  # connections of one identity at once
TABLES_PER_CREATOR = 3  # tables one identity may have waiting to start
WAITING_EXPIRES = 3600.0  # seconds a table may wait for its players before it goes
CHAT_EVERY = 1.0  # seconds between two chat lines of one connection
WRONG_CODES = 5  # wrong join codes an identity may try a minute at one table
TABLE_CODES = 20  # wrong join codes a table takes a minute, from everyone
FINISHED_KEPT = 600.0  # seconds a finished table stays in the lobby
LIST_EVERY = 0.5  # seconds between two lobby requests of one connection
BACKLOG = 1024  # sockets waiting to be accepted: a burst of connects fills no queue
IDLE = 3600.0  # seconds without a message before a connection away from tables is closed


class Server:
    def __init__(
        self,
        saves_dir: Path,
        socket_path: Path | None = None,
        max_tables: int = 50,
        max_connections: int = 256,
        max_spectators: int = 20,
        grace: float = 60.0,
        pace: float = 0.6,
    ):
        self.saves_dir = Path(saves_dir)
        self.tables_dir = self.saves_dir / "tables"
        self.socket_path = Path(socket_path) if socket_path else pr.default_socket()
        self.max_tables = max_tables
        self.max_connections = max_connections
        self.max_spectators = max_spectators
        self.grace = grace
        self.pace = pace
        self.tables: dict[str, Table] = {}
        self.connections: set[Connection] = set()
        self.present: dict[str, set[Connection]] = {}  # table name -> connections there
        self.drivers: dict[str, asyncio.Task] = {}
        self.wake: dict[str, asyncio.Event] = {}
        self.away_timers: dict[tuple[str, int], asyncio.TimerHandle] = {}
        self.notices: dict[str, list[dict]] = {}
        self.server: asyncio.base_events.Server | None = None
        self.probe = None  # tests: called with (connection, line) for every line sent
        self.own_uid = os.getuid()
        self.admission = Admission(max_connections, self.own_uid)
        self.pool = BotPool()  # bots that think do it in a process of their own
        self.handlers: set[asyncio.Task] = set()  # one task a connection, until it ends
        self.stopping = False
        self.wrong_codes: dict[tuple | str, list[float]] = {}
        self.last_chat: dict[str, float] = {}  # identity -> when it last chatted
        self.flushing: dict[str, asyncio.Task] = {}  # tables whose journal is being written

    # ------------------------------------------------------------ start and stop

    async def start(self) -> None:
        # Saves hold every hand, the piles and the join codes: readable by the server's
        # user alone (the socket is opened to the players' group below).
        os.umask(0o077)
        for folder in (self.socket_path.parent, self.saves_dir):
            problem = unsafe_folder(folder, self.own_uid)
            if problem is not None:
                raise OSError(f"unsafe folder: {problem}")
        self.tables_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.tables_dir, 0o700)
        self.reopen_tables()
        path = self.socket_path
        if path.exists() or path.is_symlink():
            if not stat.S_ISSOCK(path.lstat().st_mode):
                raise OSError(f"{path} exists and is not a socket")
            if await _alive(path):
                raise OSError(f"{path}: a server is already listening there")
            path.unlink()
        self.server = await asyncio.start_unix_server(
            self.handle, path=str(path), limit=pr.MAX_LINE + 2, backlog=BACKLOG
        )
        os.chmod(path, 0o660)  # the owner and the players' group
        for name in self.tables:
            self._drive(name)
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        """Tables nobody started within WAITING_EXPIRES go, and old wrong-code counts."""
        while True:
            await asyncio.sleep(60)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if not table.started and now - table.made_at > WAITING_EXPIRES:
                    self._forget(table)
                elif table.over and now - table.finished_at > FINISHED_KEPT:
                    self._forget(table)  # its save stays; the lobby keeps no finished pile
            self.wrong_codes = {k: v for k, v in self.wrong_codes.items() if v and now - v[-1] < 60}
            self.broadcast_lobby()

    async def stop(self) -> None:
        if self.flushing:  # appends under way end first (an fsync or two)
            await asyncio.wait(list(self.flushing.values()), timeout=5)
        for table in self.tables.values():  # every table compacted into its save
            if table.game is not None:
                self._save(table)
        if getattr(self, "sweeper", None) is not None:
            self.sweeper.cancel()
        for task in list(self.drivers.values()):
            task.cancel()
        self.stopping = True
        if self.server is not None:
            self.server.close()
        for conn in list(self.connections):
            conn.close()
        if self.handlers:  # every connection ends before the loop does (no stray task)
            await asyncio.wait(list(self.handlers), timeout=2)
        if self.server is not None:
            with contextlib.suppress(Exception):
                await self.server.wait_closed()
        with contextlib.suppress(OSError):
            self.socket_path.unlink()
        self.pool.close()

    def reopen_tables(self) -> None:
        """Every unfinished table comes back; a table finished in the last hour too, so
        that players who lost the link at the very end still see how it ended."""
        for path in sorted(self.tables_dir.glob("*.toml")):
            try:
                table = Table.reopen(path)
            except SaveError as exc:
                print(f"weathering serve: table not reopened: {exc}", flush=True)
                continue
            if table.over and time.time() - path.stat().st_mtime > FINISHED_KEPT:
                continue
            if table.over:
                table.finished_at = time.monotonic()
            self.tables[table.name.casefold()] = table
            self.notices[table.name.casefold()] = []
            for index, seat in enumerate(table.seats):
                if seat.owner is not None and not seat.botted:
                    self._away(table, index)

    # ------------------------------------------------------------ connections

    async def handle(self, reader, writer) -> None:
        task = asyncio.current_task()
        self.handlers.add(task)
        try:
            await self._handle(reader, writer)
        finally:
            self.handlers.discard(task)

    async def _handle(self, reader, writer) -> None:
        if self.stopping:
            writer.transport.abort()
            return
        conn = Connection(self, reader, writer)
        refusal = self.admission.admit(conn.uid)
        if refusal is not None:
            writer.write(pr.server_line("error", code="full", message=refusal))
            writer.close()
            return
        self.connections.add(conn)
        try:
            await self._serve(conn)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass  # the server stops: this connection ends with it, quietly
        finally:
            self.admission.release(conn.uid)
            self.connections.discard(conn)
            conn.close()
            self._gone(conn)

    async def _serve(self, conn: Connection) -> None:
        reader = conn.reader
        first = True
        while not conn.closed:
            try:
                timeout = HELLO_WITHIN if first else (None if conn.tables else IDLE)
                line = await asyncio.wait_for(reader.readline(), timeout)
            except TimeoutError:
                conn.error("no_hello" if first else "idle", "closed for want of a message")
                return
            except (asyncio.LimitOverrunError, ValueError):
                conn.error("too_long", f"a message is at most {pr.MAX_LINE} bytes")
                return
            if not line:
                return
            if not conn.allow():
                conn.error("rate_limited", "too many messages: slow down")
                continue
            try:
                message = pr.parse_client(line)
                if first and not isinstance(message, pr.Hello):
                    raise pr.ProtocolError("no_hello", "say hello first")
                first = False
                self.dispatch(conn, message)
            except pr.ProtocolError as exc:
                conn.error(exc.code, exc.detail, exc.params)
                if conn.identity is None:
                    return
            except Exception as exc:  # noqa: BLE001 - one bad message never stops the server
                print(f"weathering serve: internal error on a message: {exc!r}", flush=True)
                conn.error("internal", "the server could not handle that message")
            await conn.writer.drain() if not conn.closed else None

    def dispatch(self, conn: Connection, message) -> None:  # noqa: C901 - one case a message
        match message:
            case pr.Hello():
                self.hello(conn, message)
            case pr.ListTables():
                self.send_lobby(conn)
            case pr.CreateTable():
                self.create(conn, message)
            case pr.TakeSeat():
                self.take(conn, message)
            case pr.Spectate():
                self.spectate(conn, message)
            case pr.Start():
                table = self.table(message.table)
                if table.creator != conn.identity:
                    raise pr.ProtocolError("not_creator", "only the table's creator starts it")
                self.begin(table)
            case pr.Act():
                self.act(conn, message)
            case pr.Chat():
                self.chat(conn, message)
            case pr.Leave():
                self.leave(conn, message.table)
            case pr.Options():
                conn.auto_pass = message.auto_pass
                for name in conn.tables:
                    self._wake(name)

    def send_lobby(self, conn: Connection) -> None:
        """The lobby on request, at most once every LIST_EVERY (requests in between are
        answered together): its size grows with the tables, so asking costs the asker."""
        if conn.list_due:
            return
        wait = conn.last_list + LIST_EVERY - time.monotonic()
        if wait > 0:
            conn.list_due = True
            asyncio.get_running_loop().call_later(wait, self._lobby_due, conn)
            return
        conn.last_list = time.monotonic()
        conn.send(pr.server_line("tables", tables=self.lobby()))

    def _lobby_due(self, conn: Connection) -> None:
        conn.list_due = False
        if not conn.closed:
            self.send_lobby(conn)

    def hello(self, conn: Connection, message: pr.Hello) -> None:
        if conn.identity is not None:
            raise pr.ProtocolError("again", "hello was said already")
        if message.protocol != pr.PROTOCOL:
            raise pr.ProtocolError("protocol", f"this server speaks protocol {pr.PROTOCOL}")
        user = user_name(conn.uid)
        if message.identity is not None:
            if conn.uid != self.own_uid:
                raise pr.ProtocolError("identity", "only the server's own user names identities")
            conn.identity = pr.clean(message.identity, 80) or user
            conn.name = pr.clean_name(message.name or conn.identity)
        else:
            conn.identity, conn.name = user, pr.clean_name(message.name or user)
            if conn.uid != self.own_uid:
                conn.name = pr.clean_name(user)  # another user is shown as who they are
        same = sum(1 for c in self.connections if c.identity == conn.identity)
        if same >= PER_IDENTITY:
            conn.identity = None
            raise pr.ProtocolError("full", "too many connections of yours")
        seats = [
            {"table": t.name, "seat": t.seat_of(conn.identity)}
            for t in self.tables.values()
            if t.seat_of(conn.identity) is not None and not t.over
        ]
        conn.send(
            pr.server_line(
                "welcome", protocol=pr.PROTOCOL, identity=conn.identity, name=conn.name, seats=seats
            )
        )

    # ------------------------------------------------------------ who is at a table
    # Connections are indexed by table, so that an action costs the same whether the
    # server holds four tables or eighty.

    def at(self, name: str) -> list[Connection]:
        """The connections sitting at or watching table `name`."""
        return list(self.present.get(name, ()))

    def place(self, conn: Connection, name: str, seat: int) -> None:
        conn.tables[name] = seat
        conn.sent_views.pop(name, None)
        self.present.setdefault(name, set()).add(conn)

    def unplace(self, conn: Connection, name: str) -> None:
        conn.tables.pop(name, None)
        conn.sent_views.pop(name, None)
        here = self.present.get(name)
        if here is not None:
            here.discard(conn)
            if not here:
                del self.present[name]

    def _forget(self, table: Table) -> None:
        """A table gone from the server: no connection keeps a seat or a view of it."""
        self.tables.pop(table.name.casefold(), None)
        for conn in self.at(table.name):
            self.unplace(conn, table.name)

    def seat_held(self, conn: Connection, table: Table) -> int | None:
        """The seat this connection plays at `table`: one its identity holds, or
        SPECTATOR, or None. Never a seat someone else holds now."""
        seat = conn.tables.get(table.name)
        if seat is None or seat == SPECTATOR:
            return seat
        if table.seat_of(conn.identity) != seat:
            self.unplace(conn, table.name)  # that seat is no longer theirs
            return None
        return seat

    def table(self, name: str) -> Table:
        table = self.tables.get(name.casefold())
        if table is None:
            raise pr.ProtocolError("no_table", "there is no such table")
        return table

    def lobby(self) -> list[dict]:
        return [
            t.summary(sum(c.tables.get(t.name) == SPECTATOR for c in self.at(t.name)))
            for t in self.tables.values()
        ]

    def create(self, conn: Connection, message: pr.CreateTable) -> None:
        name = pr.clean_name(message.name)
        if not re.search(r"\w", name):
            raise pr.ProtocolError("bad_name", "a table needs a name")
        old = self.tables.get(name.casefold())
        if old is not None and not old.over:
            raise pr.ProtocolError("name_taken", "a table has that name already")
        if sum(not t.over for t in self.tables.values()) >= self.max_tables:
            raise pr.ProtocolError("full", "the server holds as many tables as it may")
        mine = [t for t in self.tables.values() if t.creator == conn.identity and not t.over]
        if len(mine) >= TABLES_PER_CREATOR:
            raise pr.ProtocolError("full", "finish or leave your tables first")
        if not message.open_seats and conn.uid != self.own_uid:
            # A table of bots alone only costs the server: players make tables to play.
            raise pr.ProtocolError("bad_seat", "keep at least one seat for a player")
        if message.seed is not None and conn.uid != self.own_uid:
            # A chosen seed lets its chooser foresee every hand: tests and benchmarks only.
            raise pr.ProtocolError("seed", "only the server's own user may choose a seed")
        if old is not None:  # a finished table gives its name to a new one
            self._forget(old)
        table = Table(
            name,
            message.configuration,
            message.open_seats,
            bots=message.bots,
            code=pr.clean(message.code, pr.CODE_MAX),
            creator=conn.identity,
            seed=message.seed,
            events=message.events,
            start_when_full=message.start_when_full,
        )
        stem = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "table"
        path = self.tables_dir / f"{stem}.toml"
        n = 1
        while path.exists() or any(t.path == path for t in self.tables.values()):
            n += 1
            path = self.tables_dir / f"{stem}-{n}.toml"
        table.keep_at(path)  # the server alone names files
        self.tables[name.casefold()] = table
        self.notices[name.casefold()] = []
        conn.send(pr.server_line("created", table=name))
        self.broadcast_lobby()

    def take(self, conn: Connection, message: pr.TakeSeat) -> None:
        table = self.table(message.table)
        if table.code and table.seat_of(conn.identity) is None:
            self.check_code(conn, table, message.code)
        holder = table.seats[message.seat].owner if 0 <= message.seat < len(table.seats) else None
        if holder is not None and holder != conn.identity:
            raise pr.ProtocolError("seat_taken", "that seat is not free")
        was_away = holder == conn.identity and table.seats[message.seat].away
        index = table.take(conn.identity, conn.name, message.seat, message.code)
        for other in self.at(table.name):  # one connection holds a seat: the newest one
            if other is not conn and other.identity == conn.identity:
                self.unplace(other, table.name)
                other.send(pr.server_line("taken_over", table=table.name))  # said aloud
        self.place(conn, table.name, index)
        timer = self.away_timers.pop((table.name, index), None)
        if timer is not None:
            timer.cancel()
        if was_away:
            self.notice(table, "back", table.seats[index].name)
        conn.send(pr.server_line("seated", table=table.name, seat=index))
        if not table.started and table.start_when_full and table.full():
            self.begin(table)
        else:
            self.push(table)
            self.broadcast_lobby()
            self._wake(table.name)

    def check_code(self, conn: Connection, table: Table, code: str) -> None:
        """Wrong join codes are counted per identity and per table (all identities
        together: a new SSH key is a new identity). Past either limit every try is
        refused for a minute, the right code too: guessing gets nowhere."""
        now = time.monotonic()
        keys = (((conn.identity, table.name), WRONG_CODES), (table.name, TABLE_CODES))
        for key, most in keys:
            self.wrong_codes[key] = [t for t in self.wrong_codes.get(key, []) if now - t < 60]
            if len(self.wrong_codes[key]) >= most:
                raise pr.ProtocolError("bad_code", "too many wrong codes: wait a minute")
        if code != table.code:
            for key, _ in keys:
                self.wrong_codes[key].append(now)
            raise pr.ProtocolError("bad_code", "this table needs its join code")

    def spectate(self, conn: Connection, message: pr.Spectate) -> None:
        table = self.table(message.table)
        if table.code and table.seat_of(conn.identity) is None:
            self.check_code(conn, table, message.code)
        watching = sum(c.tables.get(table.name) == SPECTATOR for c in self.at(table.name))
        if watching >= self.max_spectators:
            raise pr.ProtocolError("full", "this table has as many spectators as it may")
        self.place(conn, table.name, SPECTATOR)
        conn.send(pr.server_line("watching", table=table.name))
        self.push(table)

    def leave(self, conn: Connection, name: str) -> None:
        table = self.table(name)
        seat = self.seat_held(conn, table)
        self.unplace(conn, table.name)
        if seat is None or seat == SPECTATOR:
            return  # a spectator (or a stale connection) leaves no seat behind
        if not table.started:
            table.release(conn.identity)
        else:
            self._away(table, seat)
        self.push(table)
        self.broadcast_lobby()

    def begin(self, table: Table) -> None:
        if table.started:
            return
        table.start()
        table.save()
        self.notice(table, "started", "")
        self.push(table)
        self.broadcast_lobby()
        self._drive(table.name.casefold())

    def act(self, conn: Connection, message: pr.Act) -> None:
        table = self.table(message.table)
        seat = self.seat_held(conn, table)
        if seat is None or seat == SPECTATOR:
            raise pr.ProtocolError("not_seated", "you hold no seat at this table")
        table.act(conn.identity, message.version, message.action)
        self.answer_at_once(table)
        self.commit(table)
        self._wake(table.name)

    def commit(self, table: Table) -> None:
        """Show what the table did, once it is on disk: new actions go to the journal
        (fsync'd, off the event loop) and the views that show them are sent after."""
        if not table.unjournaled:
            self.push(table)
        elif table.name not in self.flushing:
            loop = asyncio.get_running_loop()
            self.flushing[table.name] = loop.create_task(self._flush(table))

    async def _flush(self, table: Table) -> None:
        try:
            while table.unjournaled:
                start, batch = table.durable, list(table.unjournaled)
                try:
                    await asyncio.to_thread(table.journal.append, start, batch)
                except OSError as exc:
                    print(f"weathering serve: table {table.name}: journal: {exc}", flush=True)
                    await asyncio.sleep(1.0)  # nothing is shown until it is written
                    continue
                table.durable = start + len(batch)
        finally:
            self.flushing.pop(table.name, None)
        if table.over and table.finished_at == float("inf"):
            table.finished_at = time.monotonic()
        if table.over or table.journal.length >= COMPACT_EVERY or table.compact_wanted:
            self._save(table)
        self.push(table)
        if table.over:
            self.broadcast_lobby()

    def _save(self, table: Table) -> None:
        """Compact the table into its save, now or once its journal append is done."""
        if table.name in self.flushing:
            table.compact_wanted = True
            return
        table.compact_wanted = False
        if table.unjournaled and table.journal is not None:
            table.journal.append(table.durable, list(table.unjournaled))  # at stop only
            table.durable = len(table.game.actions)
        try:
            table.save()
        except OSError as exc:
            print(f"weathering serve: table {table.name} not saved: {exc}", flush=True)

    def answer_at_once(self, table: Table) -> None:
        """Reactions that bots (or players passing by themselves) answer are answered
        before anything else is read or sent: whether they happened depends on what
        that seat holds, so nobody may catch the moment between (fairness)."""
        while table.game is not None and not table.over:
            pending = table.game.state.pending
            if pending is None or pending.kind != "react":
                return
            auto = self._auto_pass(table)
            if auto is not None:
                table.game.play(auto)
                continue
            seat = table.bot_to_play()
            if seat is None:
                return
            table.play_bot(seat, table.bot_choice(seat))

    def chat(self, conn: Connection, message: pr.Chat) -> None:
        table = self.table(message.table)
        if self.seat_held(conn, table) is None:
            raise pr.ProtocolError("not_at_table", "chat is for the table you are at")
        now = time.monotonic()
        if now - self.last_chat.get(conn.identity, 0.0) < CHAT_EVERY:
            raise pr.ProtocolError("rate_limited", "one chat line a second")
        self.last_chat[conn.identity] = now  # per identity: more sockets, no more lines
        text = pr.clean(message.text, pr.CHAT_MAX)
        if text:
            self.notice(table, "chat", conn.name, text)

    def notice(self, table: Table, kind: str, name: str, text: str = "") -> None:
        """A table event for everyone there (chat, a player leaving or coming back)."""
        line = pr.server_line("notice", table=table.name, kind=kind, name=name, text=text)
        for conn in self.at(table.name):
            conn.send(line)

    def _gone(self, conn: Connection) -> None:
        for name, seat in list(conn.tables.items()):
            self.unplace(conn, name)
            table = self.tables.get(name.casefold())
            if table is None or seat == SPECTATOR:
                continue
            if any(c.tables.get(name) == seat for c in self.at(name)):
                continue
            if table.started:
                self._away(table, seat)
            else:
                table.release(conn.identity)
            self.push(table)
        self.broadcast_lobby()

    def _away(self, table: Table, seat: int) -> None:
        """The player's connection is gone: the seat waits `grace` seconds, then a bot
        plays it until they return."""
        table.seats[seat].away = True
        key = (table.name, seat)
        if key in self.away_timers or table.seats[seat].botted:
            return
        self.notice(table, "away", table.seats[seat].name)
        loop = asyncio.get_running_loop()
        self.away_timers[key] = loop.call_later(self.grace, self._replace, table, seat)

    def _replace(self, table: Table, seat: int) -> None:
        self.away_timers.pop((table.name, seat), None)
        if not table.seats[seat].away or table.over:
            return
        table.hand_to_bot(seat)
        self._save(table)
        self.notice(table, "bot", table.seats[seat].name)
        self.push(table)
        self.broadcast_lobby()
        self._wake(table.name)

    # ------------------------------------------------------------ views

    def push(self, table: Table) -> None:
        """Each connection at the table gets its view if it changed — once every action
        it shows is on disk (`commit` pushes again when the journal has them). A reaction that a
        bot (or a player's own auto-pass) answers at once is a passing moment shown to
        nobody: whether it happened depends on what that seat holds (fairness). Every
        human opponent is asked in every window, so waiting on one tells nothing."""
        if table.game is None:
            summary = table.summary()
            line = pr.server_line("table", table=table.name, summary=summary)
            for conn in self.at(table.name):
                if self.seat_held(conn, table) is not None:
                    conn.send(line)
            return
        if table.unjournaled:
            return  # durable before visible: the journal's writer pushes when it is done
        state = table.game.state
        at_once = table.bot_to_play() is not None or self._auto_pass(table) is not None
        for conn in self.at(table.name):
            seat = self.seat_held(conn, table)
            if seat is None:
                continue
            view = table.view(seat, with_log=False)
            if at_once and view.pending is not None and view.pending.kind == "reactions":
                continue
            last = conn.sent_views.get(table.name)
            sent_log = last[1] if last else 0
            if last is not None and last[0] == view and sent_log == len(state.log):
                continue
            data = view_to_data(view)
            data["log"] = [_entry(e, seat) for e in state.log[sent_log:]]
            conn.sent_views[table.name] = (view, len(state.log))
            conn.send(
                pr.server_line(
                    "view", table=table.name, version=view.version, log_start=sent_log, view=data
                )
            )

    def broadcast_lobby(self) -> None:
        line = pr.server_line("tables", tables=self.lobby())
        for conn in list(self.connections):
            if conn.identity is not None and not conn.tables:
                conn.send(line)

    def sent(self, conn: Connection, line: bytes) -> None:
        if self.probe is not None:
            self.probe(conn, line)

    # ------------------------------------------------------------ bots

    def _wake(self, name: str) -> None:
        event = self.wake.get(name.casefold())
        if event is not None:
            event.set()

    def _drive(self, key: str) -> None:
        if key in self.drivers or key not in self.tables:
            return
        self.wake[key] = asyncio.Event()
        self.drivers[key] = asyncio.get_running_loop().create_task(self._bots(key))

    async def _bots(self, key: str) -> None:
        """Bots (and players who pass by themselves) answer, each at the table's pace; a
        reaction is answered at once, so its timing tells nothing."""
        table = self.tables[key]
        event = self.wake[key]
        while table.game is not None and not table.over:
            seat = table.bot_to_play()
            auto = self._auto_pass(table)
            if seat is None and auto is None:
                event.clear()
                await event.wait()
                continue
            pending = table.game.state.pending
            if auto is not None:
                table.game.play(auto)
            else:
                wait = pacing.wait_before(pending.kind, self.pace)
                if wait > 0:
                    await asyncio.sleep(wait)
                    if table.bot_to_play() != seat:
                        continue
                action = await self._think(table, seat, pending.kind)
                if action is None:
                    continue  # the table moved on meanwhile (a player came back)
                table.play_bot(seat, action)
            self.answer_at_once(table)
            self.commit(table)
            await asyncio.sleep(0)  # let the other tables play
        self.broadcast_lobby()
        self.drivers.pop(key, None)

    async def _think(self, table: Table, seat: int, kind: str):
        """A bot's decision off the event loop (the expert in a process of its own),
        taking the time the pacing rule gives it; None if the table moved on."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        version = table.game.state.version
        bot = table.bots[seat]
        view = table.view(seat, with_log=False)
        if bot.name == "expert":
            action = await self.pool.choose("expert", table.bot_seed(seat), view)
        else:
            action = await asyncio.to_thread(bot.choose, view)
        rest = start + pacing.thinking_time(bot, kind) - loop.time()
        if rest > 0:
            await asyncio.sleep(rest)
        if table.game.state.version != version or table.bot_to_play() != seat:
            return None
        return action

    def _auto_pass(self, table: Table):
        """A player who chose to pass by themselves, asked where they cannot cancel."""
        seat = table.deciding
        pending = table.game.state.pending if table.game else None
        if seat is None or pending.kind != "react":
            return None
        holder = table.seats[seat].owner
        for conn in self.at(table.name):
            if conn.identity == holder and conn.auto_pass and conn.tables.get(table.name) == seat:
                legal = table.view(seat, with_log=False).legal
                if len(legal) == 1:
                    return legal[0]
        return None


def _entry(entry, seat: int) -> dict:
    shown = visible_entry(entry, seat)  # the view's own rule for what a seat reads
    return {
        "kind": shown.kind,
        "data": shown.data,
        "secret": shown.secret,
        "audience": shown.audience,
    }


async def _alive(path: Path) -> bool:
    try:
        _, writer = await asyncio.open_unix_connection(str(path))
    except OSError:
        return False
    writer.close()
    return True


async def serve(server: Server, ready=None, door=None) -> None:
    """Run the table server (and its SSH door) until cancelled."""
    await server.start()
    if door is not None:
        from .ssh import fingerprint, load_host_key

        key = load_host_key(door.key_path)
        host, port = door.address
        await door.start(host, port, key)
        print(
            f"weathering serve: SSH on {host}:{port}, host key {fingerprint(key)} "
            f"({door.key_path}); players type: ssh -p {port} NAME@HOST",
            flush=True,
        )
    if ready is not None:
        ready()
    stopping = asyncio.Event()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        # `kill` (SIGTERM) or a hang-up (SIGHUP: its terminal closed) stops it cleanly:
        # what is still to be saved is saved, every join process of the door ends.
        for number in (signal.SIGTERM, signal.SIGHUP):
            asyncio.get_running_loop().add_signal_handler(number, stopping.set)
    try:
        await stopping.wait()
    finally:
        if door is not None:
            door.close()
        await server.stop()
