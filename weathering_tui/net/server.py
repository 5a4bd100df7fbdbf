"""`weathering serve`: the table server, one asyncio process, the only authority.

The server accepts, reads, routes and writes (this module); it holds the lobby —
the tables, each the authority of its game (`table.py`), each beside its driver, which
paces its bots and clocks and writes its journal before its views (`driver.py`) — and,
with a store, the cluster (`cluster.py`). Limits per connection: `connection.py`. A
player's move reads top to bottom in `Server.act`.

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
from ..storage.writer import Writer
from . import protocol as pr
from . import server_messages as msg
from .cluster import Cluster
from .connection import HELLO_WITHIN, Admission, Connection, user_name
from .damaged import reopen_file, table_files
from .driver import DECISION_TIME, Kit
from .folders import unsafe_folder
from .listener import Listener
from .lobby import Lobby
from .lobby_limits import UNSTARTED_EXPIRES, Limits
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
IDLE = 3600.0  # seconds without a message before a connection away from tables is closed


class Server:
    """Accept, read, route, write. It holds the lobby (the tables and their drivers)
    and, with a store, the cluster; a message goes to the one that handles it."""

    def __init__(
        self,
        saves_dir: Path,
        socket_path: Path | None = None,
        max_tables: int = 50,
        max_connections: int = 256,
        max_spectators: int = 20,
        grace: float = 60.0,
        pace: float = 0.6,
        decision_time: float = DECISION_TIME,
        store=None,
        unstarted_expiry: float = UNSTARTED_EXPIRES,
    ):
        self.store = store  # a RedisStore: tables kept there (`serve --store`), else files
        self.saves_dir = Path(saves_dir)
        self.tables_dir = self.saves_dir / "tables"
        self.socket_path = Path(socket_path) if socket_path else pr.default_socket()
        self.connections: set[Connection] = set()
        self.listener: Listener | None = None  # the socket, once started
        self.probe = None  # tests: called with (connection, line) for every line sent
        self.own_uid = os.getuid()
        self.admission = Admission(max_connections, self.own_uid)
        self.handlers: set[asyncio.Task] = set()  # one task a connection, until it ends
        self.stopping = False
        self.sweeper: asyncio.Task | None = None
        # The journal's writes off the event loop; bots that think in a process of their own.
        kit = Kit(Writer(), BotPool(), pace=pace, grace=grace, decision_time=decision_time)
        limits = Limits(self.own_uid, max_tables, max_spectators, unstarted_expiry)
        self.lobby = Lobby(self.tables_dir, kit, limits, self.connections)
        # several servers on one Redis (`serve --store`): the store's links and loops
        self.cluster: Cluster | None = None
        if store is not None:
            self.cluster = Cluster(store, self.lobby, self.dispatch, self.gone, self.sent)
            kit.cluster = self.lobby.cluster = self.cluster
        self.kit = kit

    @property
    def tables(self) -> dict[str, Table]:
        """The tables of this server (the lobby's), by name folded."""
        return self.lobby.tables

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
        if self.cluster is None:  # (there is one when there is a store)
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
        self.listener = Listener(path, self.own_uid, self.handle, limit=pr.MAX_LINE + 2)
        self.listener.start()  # (mode 0660: the owner and the players' group)
        for driver in self.lobby.drivers.values():
            driver.drive()
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        """Tables that waited too long for their start go (one nobody else joined goes
        at its own time when made here: this finds those somebody joined, and those back
        after a restart or from another server), finished ones after a while, and old
        wrong-code counts."""
        while True:
            await asyncio.sleep(60)
            now, lobby = time.monotonic(), self.lobby
            for table in list(lobby.tables.values()):
                if not table.started and now - table.made_at > lobby.limits.waiting_life(table):
                    lobby.expire(table)  # (WAITING_EXPIRES: one somebody else joined)
                elif table.over and now - table.finished_at > FINISHED_KEPT:
                    lobby.forget(table)  # its save stays; the lobby keeps no finished pile
                    if self.cluster is not None:
                        self.cluster.forget(table)  # nor does any server's lobby
            lobby.limits.forget_codes(now)
            lobby.broadcast_lobby()

    async def stop(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop_loops()
        drivers = list(self.lobby.drivers.values())
        flushing = [d.flushing for d in drivers if d.flushing is not None]
        if flushing:  # appends under way end first (an fsync or two)
            await asyncio.wait(flushing, timeout=5)
        for driver in drivers:  # every table compacted into its save
            if driver.table.game is not None:
                driver.save(at_stop=True)
        if self.sweeper is not None:
            self.sweeper.cancel()
        self.lobby.stop()  # no bot, window's clock or timer acts after the stop
        self.stopping = True
        if self.listener is not None:
            self.listener.close()
        for conn in list(self.connections):
            conn.close()
        if self.handlers:  # every connection ends before the loop does (no stray task)
            await asyncio.wait(list(self.handlers), timeout=2)
        with contextlib.suppress(OSError):
            self.socket_path.unlink()
        self.kit.pool.close()
        self.kit.writer.close()
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
                self.lobby.damaged[damaged["name"].casefold()] = damaged
            if table is None:
                continue
            if table.over and (
                self.store is not None or time.time() - path.stat().st_mtime > FINISHED_KEPT
            ):
                continue  # (a finished table in the store has its file save: `check` it)
            table.mark_finished(time.monotonic())
            self.lobby.adopt(table)

    # ------------------------------------------------------------ connections

    async def handle(self, reader, writer) -> None:
        task = asyncio.current_task()
        assert task is not None  # (the listener runs each handler as a task)
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
            writer.write(msg.server_line("error", code="full", message=refusal))
            writer.close()
            return
        self.connections.add(conn)
        try:
            await self._serve(conn)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass  # the server stops: this connection ends with it, quietly
        except Exception as exc:  # noqa: BLE001 - one line, never a traceback a peer can repeat
            print(f"weathering serve: a connection ended on an error: {exc!r:.200}", flush=True)
        finally:
            self.admission.release(conn.uid)
            self.connections.discard(conn)
            conn.close()
            self.gone(conn)

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
        """A message to whoever handles it: another server (its table), the lobby, a
        table's driver, or here (hello, an action)."""
        if self.cluster is not None and self.cluster.relay.forward(conn, message):
            return  # a table another server owns: sent there
        lobby = self.lobby
        match message:
            case pr.Hello():
                self.hello(conn, message)
            case pr.ListTables():
                lobby.send_lobby(conn)
            case pr.CreateTable():
                return lobby.create(conn, message)  # (in a store: what to await)
            case pr.TakeSeat():
                lobby.take(conn, message)
            case pr.Spectate():
                lobby.spectate(conn, message)
            case pr.Start():
                lobby.start(conn, message.table)
            case pr.Act():
                self.act(conn, message)
            case pr.Undo():
                table, driver = lobby.seated(conn, message.table)
                lobby.limits.check_undo(conn)
                driver.acting_again(table.seat_of(conn.who))
                driver.undo(conn.who, message.version)
            case pr.Chat():
                lobby.chat(conn, message)
            case pr.Leave():
                lobby.leave(conn, message.table)
            case pr.Options():
                conn.auto_pass = message.auto_pass
                for name in conn.tables:
                    waking = lobby.drivers.get(name.casefold())
                    if waking is not None:
                        waking.wake()

    def act(self, conn: Connection, message: pr.Act) -> None:
        """A player's move, from the message to the views. The checks: a seat of theirs
        at a table of this server, which is not paused. The table applies the move (it
        refuses one that is not theirs to make, illegal, or on an old view), settles what
        a reaction window can settle at once, and its driver writes the journal off the
        event loop, then sends each seat its own view: durable before visible."""
        table, driver = self.lobby.seated(conn, message.table)
        driver.refuse_if_paused()
        driver.acting_again(table.seat_of(conn.who))  # if a bot had it: theirs again
        table.act(conn.who, message.version, message.action)
        driver.settle()  # a window's answers that are due now (bots, passes by itself)
        driver.commit()  # the journal written (off the loop), then the views out
        driver.wake()  # the bots: their turn may have come

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
            for t in self.lobby.tables.values()
            if t.seat_of(conn.identity) is not None and not t.over
        ]
        conn.send(
            msg.server_line(
                "welcome", protocol=pr.PROTOCOL, identity=conn.identity, name=conn.name, seats=seats
            )
        )

    def gone(self, conn: Connection) -> None:
        """A connection closed (here, or another server's player at our table)."""
        if self.cluster is not None:
            self.cluster.relay.gone(conn)
        self.lobby.gone(conn)

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
