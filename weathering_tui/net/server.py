"""`weathering serve`: the table server, one asyncio process, the only authority.

Accept, read, dispatch (this module); the lobby's rules (`lobby.py`); each table's
driver — bots, journal, views (`driver.py`); a table's own rules (`table.py`); limits
per connection (`connection.py`).

It listens on a Unix socket (no TCP: remote players come through SSH). Each
connection is identified by its peer's uid (SO_PEERCRED), sends one JSON message per
line (`protocol.py`), and gets its seat's view after every change it can see.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import stat
import time
from pathlib import Path

from ..bots.pool import BotPool
from ..engine import SPECTATOR
from ..storage.writer import Writer
from . import protocol as pr
from .cluster import Cluster
from .connection import HELLO_WITHIN, Admission, Connection, user_name
from .damaged import reopen_file, table_files
from .driver import Driver
from .folders import unsafe_folder
from .lobby import UNSTARTED_EXPIRES, Lobby
from .notice_order import NoticeClock
from .table import Table


def machine_name(ids=("/etc/machine-id", "/var/lib/dbus/machine-id")) -> str:
    """This machine among those sharing a store: its host name and the start of its
    machine id (two machines may share a host name; a machine id is unique to one)."""
    for path in ids:
        try:
            machine = Path(path).read_text().strip()[:8]
        except OSError:
            continue
        if machine:
            return f"{socket.gethostname()}.{machine}"
    return socket.gethostname()


PER_IDENTITY = 8  # connections of one identity at once
FINISHED_KEPT = 600.0  # seconds a finished table stays in the lobby
BACKLOG = 1024  # sockets waiting to be accepted: a burst of connects fills no queue
IDLE = 3600.0  # seconds without a message before a connection away from tables is closed


class Server(Lobby, Driver):
    def __init__(
        self,
        saves_dir: Path,
        socket_path: Path | None = None,
        max_tables: int = 50,
        max_connections: int = 256,
        max_spectators: int = 20,
        grace: float = 60.0,
        pace: float = 0.6,
        store=None,
        unstarted_expiry: float = UNSTARTED_EXPIRES,
    ):
        self.store = store  # a RedisStore: tables kept there (`serve --store`), else files
        self.saves_dir = Path(saves_dir)
        self.tables_dir = self.saves_dir / "tables"
        self.socket_path = Path(socket_path) if socket_path else pr.default_socket()
        self.max_tables = max_tables
        self.max_connections = max_connections
        self.max_spectators = max_spectators
        self.grace = grace
        self.pace = pace
        # a table nobody but its creator joined goes after this many seconds unstarted
        self.unstarted_expiry = unstarted_expiry
        self.expiry_timers: dict[str, asyncio.TimerHandle] = {}  # table name -> its end
        self.tables: dict[str, Table] = {}
        self.damaged: dict[str, dict] = {}  # tables whose save did not read: their listing
        self.connections: set[Connection] = set()
        self.present: dict[str, set[Connection]] = {}  # table name -> connections there
        self.drivers: dict[str, asyncio.Task] = {}
        self.wake: dict[str, asyncio.Event] = {}
        self.away_timers: dict[tuple[str, int], asyncio.TimerHandle] = {}
        self.notice_clock = NoticeClock()  # each notice's order number (`n`)
        self.server: asyncio.base_events.Server | None = None
        self.probe = None  # tests: called with (connection, line) for every line sent
        self.last_broadcast = -1e9  # when the lobby last went to everyone in it
        self.lobby_due = False  # a lobby broadcast waits for its turn
        self.own_uid = os.getuid()
        self.admission = Admission(max_connections, self.own_uid)
        self.pool = BotPool()  # bots that think do it in a process of their own
        self.handlers: set[asyncio.Task] = set()  # one task a connection, until it ends
        self.stopping = False
        self.wrong_codes: dict[tuple | str, list[float]] = {}
        self.last_chat: dict[str, float] = {}  # identity -> when it last chatted
        self.flushing: dict[str, asyncio.Task] = {}  # tables whose journal is being written
        self.writer = Writer()  # the journal's writes, off the event loop
        # several servers on one Redis (`serve --store`): the store's links and loops
        self.cluster = None
        if store is not None:
            self.cluster = Cluster(store, self, self.dispatch, self._gone, self.sent)

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
        if self.store is None:
            self.reopen_tables()
        else:  # tables come back by taking over the leases nobody renews (`Cluster`)
            await self.cluster.start()
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
        """Tables that waited too long for their start go (one nobody else joined goes
        at its own time when made here: this finds those somebody joined, and those back
        after a restart or from another server), finished ones after a while, and old
        wrong-code counts."""
        while True:
            await asyncio.sleep(60)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if not table.started and now - table.made_at > self.waiting_life(table):
                    self.expire(table)  # (WAITING_EXPIRES: one somebody else joined)
                elif table.over and now - table.finished_at > FINISHED_KEPT:
                    self.forget(table)  # its save stays; the lobby keeps no finished pile
                    if self.cluster is not None:
                        self.cluster.forget(table)  # nor does any server's lobby
            self.wrong_codes = {k: v for k, v in self.wrong_codes.items() if v and now - v[-1] < 60}
            self.broadcast_lobby()

    async def stop(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop_loops()
        if self.flushing:  # appends under way end first (an fsync or two)
            await asyncio.wait(list(self.flushing.values()), timeout=5)
        for table in self.tables.values():  # every table compacted into its save
            if table.game is not None:
                self._save(table, at_stop=True)
        if getattr(self, "sweeper", None) is not None:
            self.sweeper.cancel()
        for timer in self.expiry_timers.values():
            timer.cancel()
        self.expiry_timers.clear()
        for task in list(self.drivers.values()):
            task.cancel()
        self.stopping = True
        for table in self.tables.values():  # no window's clock acts after the stop
            self._close_window(table)
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
        self.writer.close()
        if self.cluster is not None:
            await self.cluster.stop()  # our leases go: another server takes over at once

    def reopen_tables(self) -> None:
        """Every unfinished table comes back; a table finished in the last hour too, so
        that players who lost the link at the very end still see how it ended."""
        if self.store is not None:
            paths = [self.tables_dir / f"{key}.toml" for key in self.store.names()]
        else:
            paths = table_files(self.tables_dir)
        for path in paths:
            table, damaged = reopen_file(path, self.store)  # (its damage is logged)
            if damaged is not None:
                self.damaged[damaged["name"].casefold()] = damaged
            if table is None:
                continue
            if table.over and (
                self.store is not None or time.time() - path.stat().st_mtime > FINISHED_KEPT
            ):
                continue  # (a finished table in the store has its file save: `check` it)
            if table.over:
                table.finished_at = time.monotonic()
            self.adopt(table)

    def adopt(self, table: Table, moved: bool = False) -> None:
        """A table back from its save (here, after a restart; or `moved` from a server
        that died): every player away until they return."""
        name = table.name.casefold()
        self.tables[name] = table
        for index, seat in enumerate(table.seats):
            if seat.owner is not None and not seat.botted:
                self._away(table, index)
                if moved:
                    table.moved.add(index)
        if moved and table.game is not None:
            self._drive(name)

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
                if (made := self.dispatch(conn, message)) is not None:
                    await made  # a table made in a store: its next message waits for it
            except pr.ProtocolError as exc:
                conn.error(exc.code, exc.detail, exc.params)
                if conn.identity is None:
                    return
            except Exception as exc:  # noqa: BLE001 - one bad message never stops the server
                print(f"weathering serve: internal error on a message: {exc!r}", flush=True)
                conn.error("internal", "the server could not handle that message")
            await conn.writer.drain() if not conn.closed else None

    def dispatch(self, conn: Connection, message):  # noqa: C901 - one case a message
        if self.cluster is not None and self.cluster.relay.forward(conn, message):
            return  # a table another server owns: sent there
        match message:
            case pr.Hello():
                self.hello(conn, message)
            case pr.ListTables():
                self.send_lobby(conn)
            case pr.CreateTable():
                return self.create(conn, message)  # (in a store: what to await)
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
            case pr.Undo():
                self.undo(conn, message)
            case pr.Chat():
                self.chat(conn, message)
            case pr.Leave():
                self.leave(conn, message.table)
            case pr.Options():
                conn.auto_pass = message.auto_pass
                for name in conn.tables:
                    self._wake(name)

    def hello(self, conn: Connection, message: pr.Hello) -> None:
        if conn.identity is not None:
            raise pr.ProtocolError("again", "hello was said already")
        if message.protocol != pr.PROTOCOL:
            raise pr.ProtocolError("protocol", f"this server speaks protocol {pr.PROTOCOL}")
        user = user_name(conn.uid)
        if self.store is not None:  # servers share tables: a user is one of this machine
            user = f"{user}@{machine_name()}"
        if message.identity is not None:
            if conn.uid != self.own_uid:
                raise pr.ProtocolError("identity", "only the server's own user names identities")
            conn.identity = pr.clean(message.identity, 80) or user
            conn.origin = pr.clean(message.origin or "", 80) or conn.identity
            conn.name = pr.clean_name(message.name or conn.identity)
        else:
            conn.identity, conn.name = user, pr.clean_name(message.name or user)
            conn.origin = conn.identity  # a user of this machine is one origin
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

    def _gone(self, conn: Connection) -> None:
        if self.cluster is not None:
            self.cluster.relay.gone(conn)
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

    def sent(self, conn: Connection, line: bytes) -> None:
        if self.probe is not None:
            self.probe(conn, line)


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
        from .ssh import load_host_key
        from .ssh_gate import fingerprint

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
