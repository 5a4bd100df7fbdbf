"""Several `serve --store` processes on one Redis: one owner per table, any server
reaches any table (a part of the server, `Server` is a `Cluster`).

- **One owner per table.** A lease, `table:KEY:owner` = the server's id, set with
  `SET NX PX` and renewed every second, says which server applies the table's actions.
  Its journal appends are fenced by the lease (a Lua script appends only while the
  lease is the writer's), so a server that lost its lease can never write again.
- **Forwarding.** A player connected to another server sends the table's messages as
  usual; that server adds them to the table's command stream (`table:KEY:commands`:
  the player's server, connection, identity, name and the message's own line). The
  owner reads the stream, handles each message as from a `RemoteConn`, and its answers
  and views are published on the player's server's channel (`server:ID:out`), which
  writes them to the player. A stream for the commands: an action must survive a
  dropped link or a takeover, and be applied once (`done`). Pub/sub for the answers:
  they need no keeping (a whole view can always be sent again), and a stream entry is
  a write, which a Redis with `appendfsync always` fsyncs before anyone reads it — about
  a millisecond on every view relayed, measured. A server whose link to Redis dropped
  may have missed some: once subscribed again it asks every seat of its players at
  remote tables again, and their owners send them whole views.
- **Takeover.** Every server looks each second for tables whose lease has expired (a
  killed owner): one of them takes the lease, rebuilds the table from its save and
  journal, and reads its command stream from where the last owner had got to
  (`table:KEY:done`): a command applied twice is refused as stale, an action nobody
  saw is applied once. The servers of the table's players notice the new owner and
  send their players' seats again, as a client does after a restart.
- **The lobby** lists every table of every server: each owner keeps its tables'
  summaries in `table:KEY:summary` and bumps `lobby`; the others read them on change.

Redis is trusted: a server's messages on it are taken as they come (the identity of a
forwarded player is the one its server saw). Keep Redis on loopback or a private
network, with a password.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets

from . import protocol as pr
from .cluster_base import (  # noqa: F401 - LEASE_MS and the scripts are the cluster's words
    LEASE_MS,
    RELEASE,
    RENEW,
    TABLE_MESSAGES,
    TICK,
    RemoteConn,
    server_id,
)
from .cluster_loops import ClusterLoops
from .cluster_relay import ClusterRelay, Reconnected


class Cluster(ClusterLoops, ClusterRelay):
    """The servers-sharing-a-store half of the server (state in `Server.__init__`)."""

    def cluster_init(self) -> None:
        self.server_id = server_id()
        self.leases: dict[str, str] = {}  # table key -> our lease's token (we own it)
        self.remote: dict[str, dict] = {}  # table name (casefold) -> {key, owner, summary}
        self.remote_conns: dict[tuple[str, str], RemoteConn] = {}
        self.forwarded: dict[str, set] = {}  # remote table name (cf) -> local conns there
        self.seated_with: dict[str, str] = {}  # remote table -> the owner our seats went to
        self.local_by_id: dict[str, object] = {}  # our players at remote tables, by token
        self.conn_count = 0
        self.registry: set[str] = set()  # every table key in the store, as last read
        self.moving: set[str] = set()  # remote tables whose owner is gone (being taken over)
        # The last pause/resume/move each of our players was told, by (table, player).
        self.told: dict[tuple[str, str], str] = {}
        self.told_n: dict[tuple[str, str], int] = {}  # and the newest notice's number
        self.outbox: list[tuple[str, dict]] = []  # (stream, fields) to add
        self.outbox_wake = asyncio.Event()
        self.lobby_seen = -1
        self.lobby_dirty = False
        self.cluster_tasks: list[asyncio.Task] = []
        self.cluster_closing = False  # the stop: every loop ends at its next turn
        self.aredis = None

    @property
    def clustered(self) -> bool:
        return self.store is not None

    # ------------------------------------------------------------ start and stop

    async def cluster_start(self) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        from ..storage.redis_store import parse_url

        # Named: the other servers see at once when all our links are gone (killed).
        # Failing fast, as the store's own client: the loops try again every second, and
        # our players are told the table is paused meanwhile (the client's default is
        # to retry with backoff for seconds, in silence).
        self.aredis = aioredis.Redis(
            **parse_url(self.store.url),
            socket_timeout=5,
            socket_connect_timeout=2,
            client_name=self.server_id,
            retry=Retry(NoBackoff(), 1),
        )
        self.renew_script = self.aredis.register_script(RENEW)
        self.release_script = self.aredis.register_script(RELEASE)
        self.reconnected = Reconnected(self._ask_again)
        pubsub = None
        try:  # our channel, and the tables every server knows, before any player comes
            pubsub = await self.subscribe()
            await self._tick()
        except Exception as exc:  # noqa: BLE001 - Redis away: the loops try again
            print(f"weathering serve: store: {exc}", flush=True)
        loop = asyncio.get_running_loop()
        relay = self._relay_loop(pubsub)
        for job in (self._tick_loop(), self._inbox_loop(), relay, self._out_loop()):
            self.cluster_tasks.append(loop.create_task(job))

    async def cluster_stop_loops(self) -> None:
        """No more commands read, leases renewed or tables taken over (at the stop).

        The Redis client may turn a cancellation inside a read into a connection error,
        which a loop takes for Redis being away: each loop also stops at its next turn
        (`cluster_closing`), and the stop never waits on a loop for long."""
        self.cluster_closing = True
        for _ in range(3):
            pending = [task for task in self.cluster_tasks if not task.done()]
            if not pending:
                break
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=1.0)
        self.cluster_tasks = []

    async def cluster_stop(self) -> None:
        """Whatever is still to add to Redis, then our leases go."""
        if self.aredis is not None and self.outbox:
            try:
                pipe = self.aredis.pipeline(transaction=False)
                for target, fields in self.outbox:
                    self.add_out(pipe, target, fields)
                await pipe.execute()
            except Exception:  # noqa: BLE001 - Redis gone: nothing more to say
                pass
        if self.aredis is not None:
            try:  # our leases go at once: another server need not wait for them
                for key, token in list(self.leases.items()):
                    owner = self.store.key("table", key, "owner")
                    await self.release_script(keys=[owner], args=[token])
                await self.aredis.aclose()
            except Exception:  # noqa: BLE001 - Redis gone: the leases expire by themselves
                pass

    async def claim(self, conn, table) -> None:
        """A table made here is made once the store has it: its lease taken and its
        record kept (one transaction), then "created". A store that refuses (full, or
        gone) refuses the table, said plainly: nothing of it stays, here or there. If
        another server had the name already (made there in the same second), it is
        refused as taken."""
        owner = self.store.key("table", table.key, "owner")
        token = self._token()
        table.journal.fence = (owner, token)
        try:
            ok = await self.aredis.set(owner, token, nx=True, px=LEASE_MS)
            if ok:  # listed, and what makes it again should this server die first
                waiting = json.dumps(table.waiting_record())
                pipe = self.aredis.pipeline(transaction=True)
                pipe.set(self.store.key("table", table.key, "waiting"), waiting)
                pipe.sadd(self.store.key("tables"), table.key)
                try:
                    await pipe.execute()
                except Exception:
                    with contextlib.suppress(Exception):  # (else it expires by itself)
                        await self.release_script(keys=[owner], args=[token])
                    raise
        except Exception as exc:  # noqa: BLE001 - the store refused: so is the table
            print(f"weathering serve: table {table.name} not made: store: {exc}", flush=True)
            raise self._unmade(
                table, "storage", "the server cannot save right now: no table was made"
            ) from None
        if self.tables.get(table.name.casefold()) is not table:  # (gone meanwhile: the stop)
            with contextlib.suppress(Exception):
                await self.release_script(keys=[owner], args=[token])
            return
        if not ok:
            print(f"weathering serve: table {table.name} is another server's", flush=True)
            raise self._unmade(table, "name_taken", "a table has that name already")
        self.leases[table.key] = token
        self.publish_summaries()
        conn.send(pr.server_line("created", table=table.name))
        self.broadcast_lobby()

    def _unmade(self, table, code: str, detail: str) -> pr.ProtocolError:
        """A table the store did not take: refused to anyone who sat there meanwhile,
        and forgotten. The refusal its maker is answered with."""
        maker = pr.ProtocolError(code, detail, {"table": table.name})
        for conn in self.at(table.name):
            conn.error(code, detail, maker.params)
        if self.tables.get(table.name.casefold()) is table:
            self._forget(table)
        return maker

    def _token(self) -> str:
        """A lease's value: this server, and this taking of it (a lease lost and taken
        again is another token: what still holds the old one can write nothing)."""
        return f"{self.server_id}/{secrets.token_hex(6)}"

    # ------------------------------------------------------------ player's side

    def forward(self, conn, message) -> bool:
        """A table message for a table another server owns: sent there. False when the
        table is this server's (or unknown): handle it here."""
        if not self.clustered or not isinstance(message, TABLE_MESSAGES):
            return False
        name = message.table.casefold()
        if name in self.tables or name not in self.remote:
            return False
        remote = self.remote[name]
        self.forwarded.setdefault(name, set()).add(conn)  # (its answers come back to it)
        self.local_by_id[self._conn_token(conn)] = conn
        conn.forwarded_to = getattr(conn, "forwarded_to", set()) | {name}
        if isinstance(message, pr.TakeSeat | pr.Spectate):
            conn.asked = getattr(conn, "asked", {})
            conn.asked[name] = message
            self.seated_with[name] = remote["owner"]
        elif isinstance(message, pr.Leave):
            getattr(conn, "asked", {}).pop(name, None)
            self.forwarded.get(name, set()).discard(conn)
            conn.tables.pop(remote["summary"]["name"], None)
        self._command(remote["key"], conn, "msg", pr.client_line(message))
        return True

    def _command(self, key: str, conn, kind: str, line: bytes = b"") -> None:
        fields = {
            "from": self.server_id,
            "conn": self._conn_token(conn),
            "identity": conn.identity or "",
            "name": conn.name,
            "auto_pass": "1" if conn.auto_pass else "",
            "kind": kind,
            "line": line,
            # the seat this player asked for there: a new owner seats them first
            "asked": self._asked_line(conn, key),
        }
        self.outbox.append((self.store.key("table", key, "commands"), fields))
        self.outbox_wake.set()

    def _asked_line(self, conn, key: str) -> bytes:
        for name, asked in getattr(conn, "asked", {}).items():
            remote = self.remote.get(name)
            if remote is not None and remote["key"] == key:
                return pr.client_line(asked)
        return b""

    def forward_gone(self, conn) -> None:
        """A local player's connection closed: the owners of its remote tables hear it."""
        token = self._conn_token(conn)
        self.local_by_id.pop(token, None)
        for said in [said for said in self.told_n if said[1] == token]:
            self.told.pop(said, None)
            del self.told_n[said]
        for name in getattr(conn, "forwarded_to", ()):  # every table it spoke to
            self.forwarded.get(name, set()).discard(conn)
            remote = self.remote.get(name)
            if remote is not None:
                self._command(remote["key"], conn, "gone")

    def _conn_token(self, conn) -> str:
        """A connection's name on Redis, never reused (an id() is, once freed)."""
        token = getattr(conn, "cluster_token", None)
        if token is None:
            self.conn_count += 1
            token = conn.cluster_token = f"{self.conn_count}-{secrets.token_hex(4)}"
        return token

    def _local(self, conn_id: str):
        return self.local_by_id.get(conn_id)

    def _deliver(self, conn_id: str, line: bytes) -> None:
        """A line the owner of a remote table sent one of our players."""
        conn = self.local_by_id.get(conn_id)
        if conn is None or conn.closed:
            return
        if line.startswith(b'{"view":'):  # (a view: nothing to note, the bulk of them)
            conn.send(line)
            return
        message = json.loads(line)
        table = message.get("table")
        if message.get("type") == "notice":  # its number kept: ours come after it
            said, number = (str(table).casefold(), conn_id), message.get("n")
            self.notice_clock.seen(number)
            if type(number) is not int or number <= self.told_n.get(said, -1):
                return  # older than what this server said since (queued while Redis was away)
            self.told_n[said] = number
        if message.get("type") == "notice" and message.get("kind") in ("paused", "resumed"):
            name = str(table).casefold()
            if self.told.get((name, conn_id)) == message["kind"]:
                return  # (said already, by this server: Redis was away for it too)
            self.told[(name, conn_id)] = message["kind"]
        if message.get("type") in ("seated", "watching"):
            seat = message.get("seat", -1)
            conn.tables[table] = seat if seat is not None else -1
        elif message.get("type") == "taken_over":
            conn.tables.pop(table, None)
        conn.send(line)
        if message.get("type") == "error" and hasattr(conn, "count_error"):
            conn.count_error()  # refusals add up here as on this server's own tables

    # ------------------------------------------------------------ owner's side

    def relay(self, home: str, conn_id: str, line: bytes) -> None:
        """A line for a player of another server: published on that server's channel."""
        channel = self.store.key("server", home, "out")
        self.outbox.append((channel, conn_id.encode() + b" " + line))
        self.outbox_wake.set()

    def _command_in(self, key: str, fields: dict) -> None:
        """A message a player of another server sent one of our tables."""
        home, conn_id = fields[b"from"].decode(), fields[b"conn"].decode()
        identity, name = fields[b"identity"].decode(), fields[b"name"].decode()
        if home == self.server_id:  # sent while another server owned it: ours now
            local = self._local(conn_id)
            if local is not None and fields[b"kind"] == b"msg":
                try:
                    self.dispatch(local, pr.parse_client(fields[b"line"]))
                except pr.ProtocolError as exc:
                    local.error(exc.code, exc.detail, exc.params)
            return
        remote = self.remote_conns.get((home, conn_id))
        if remote is not None and remote.identity != identity:
            remote = None  # (never: tokens are not reused; a mismatch is a new player)
        if fields[b"kind"] == b"gone":
            if remote is not None:
                self.remote_conns.pop((home, conn_id), None)
                self._gone(remote)
            return
        if remote is None:
            remote = RemoteConn(self, home, conn_id, identity, name)
            self.remote_conns[(home, conn_id)] = remote
            asked = fields.get(b"asked")
            line = fields[b"line"]
            if asked and asked != line:  # (a new owner: the player's seat comes first)
                with contextlib.suppress(pr.ProtocolError):
                    self.dispatch(remote, pr.parse_client(asked))
        remote.auto_pass = bool(fields[b"auto_pass"])
        try:
            message = pr.parse_client(fields[b"line"])
            if not isinstance(message, TABLE_MESSAGES):
                raise pr.ProtocolError("bad_message", "not a table message")
            self.dispatch(remote, message)
        except pr.ProtocolError as exc:
            remote.error(exc.code, exc.detail, exc.params)
        except Exception as exc:  # noqa: BLE001 - one bad message never stops the server
            print(f"weathering serve: internal error on a forwarded message: {exc!r}")
            remote.error("internal", "the server could not handle that message")

    def publish_summaries(self) -> None:
        """Our tables' summaries for the other servers' lobbies (sent by the out loop)."""
        if self.clustered:
            self.lobby_dirty = True
            self.outbox_wake.set()
