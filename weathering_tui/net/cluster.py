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
  and views go to the player's server's stream (`server:ID:out`), which writes them to
  the player. Streams, not pub/sub, both ways: they keep their order and a reader that
  lost its link to Redis resumes where it was, while a pub/sub message sent meanwhile
  is gone — and a lost view delta would leave a player's screen wrong.
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
import os
import secrets
import socket

from . import protocol as pr

LEASE_MS = 3000  # a table whose owner stops renewing is taken over after this
ALIVE_MS = 10000  # a server not seen for this long: its players have left our tables
TICK = 1.0  # seconds between two looks at leases, owners and the lobby
OUT_KEEP = 10000  # entries kept in a server's relay stream

RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
TABLE_MESSAGES = (pr.TakeSeat, pr.Spectate, pr.Act, pr.Chat, pr.Leave, pr.Start)


def server_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class RemoteConn:
    """A player connected to another server, as this server's tables see them."""

    uid = None  # (limits per uid are the player's own server's)

    def __init__(self, cluster, home: str, conn_id: str, identity: str, name: str):
        self.cluster = cluster
        self.home = home
        self.conn_id = conn_id
        self.identity = identity
        self.name = name
        self.tables: dict[str, int] = {}
        self.sent_views: dict[str, tuple] = {}
        self.auto_pass = False
        self.closed = False

    def send(self, line: bytes) -> None:
        if not self.closed:
            self.cluster.relay(self.home, self.conn_id, line)
            self.cluster.sent(self, line)

    def error(self, code: str, message: str = "", params: dict | None = None) -> None:
        fields = {"params": params} if params else {}
        self.send(pr.server_line("error", code=code, message=message, **fields))

    def close(self) -> None:
        self.closed = True


class Cluster:
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
        self.moving: set[str] = set()  # remote tables whose owner is gone (being taken over)
        self.outbox: list[tuple[str, dict]] = []  # (stream, fields) to add
        self.outbox_wake = asyncio.Event()
        self.lobby_seen = -1
        self.lobby_dirty = False
        self.cluster_tasks: list[asyncio.Task] = []
        self.aredis = None

    @property
    def clustered(self) -> bool:
        return self.store is not None

    # ------------------------------------------------------------ start and stop

    async def cluster_start(self) -> None:
        import redis.asyncio as aioredis

        from ..storage.redis_store import parse_url

        self.aredis = aioredis.Redis(**parse_url(self.store.url), socket_timeout=5)
        self.renew_script = self.aredis.register_script(RENEW)
        self.release_script = self.aredis.register_script(RELEASE)
        loop = asyncio.get_running_loop()
        for job in (self._tick_loop(), self._inbox_loop(), self._relay_loop(), self._out_loop()):
            self.cluster_tasks.append(loop.create_task(job))

    async def cluster_stop_loops(self) -> None:
        """No more commands read, leases renewed or tables taken over (at the stop)."""
        for task in self.cluster_tasks:
            task.cancel()
        await asyncio.gather(*self.cluster_tasks, return_exceptions=True)
        self.cluster_tasks = []

    async def cluster_stop(self) -> None:
        """Whatever is still to add to Redis, then our leases go."""
        if self.aredis is not None and self.outbox:
            try:
                pipe = self.aredis.pipeline(transaction=False)
                for stream, fields in self.outbox:
                    pipe.xadd(stream, fields, maxlen=OUT_KEEP, approximate=True)
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

    def claim(self, table) -> None:
        """A table made here: its lease is taken off the event loop. Until then its
        journal appends wait (they are fenced by the lease); if another server had the
        name already (made there in the same second), the table is given up."""
        token = self._token()
        table.journal.fence = (self.store.key("table", table.key, "owner"), token)
        asyncio.get_running_loop().create_task(self._claim(table, token))

    def _token(self) -> str:
        """A lease's value: this server, and this taking of it (a lease lost and taken
        again is another token: what still holds the old one can write nothing)."""
        return f"{self.server_id}/{secrets.token_hex(6)}"

    async def _claim(self, table, token: str) -> None:
        owner = self.store.key("table", table.key, "owner")
        while table.name.casefold() in self.tables:
            try:
                ok = await self.aredis.set(owner, token, nx=True, px=LEASE_MS)
                if ok:
                    await self.aredis.sadd(self.store.key("tables"), table.key)
                break
            except Exception as exc:  # noqa: BLE001 - Redis away: try again in a moment
                print(f"weathering serve: store: {exc}", flush=True)
                await asyncio.sleep(TICK)
        else:
            return
        if ok:
            self.leases[table.key] = token
            self.publish_summaries()
            return
        print(f"weathering serve: table {table.name} is another server's", flush=True)
        for conn in self.at(table.name):
            conn.error("name_taken", "a table has that name already")
        self._forget(table)

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
        self.local_by_id.pop(self._conn_token(conn), None)
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
        message = json.loads(line)
        table = message.get("table")
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
        self.outbox.append((self.store.key("server", home, "out"), {"conn": conn_id, "line": line}))
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

    # ------------------------------------------------------------ loops

    async def _out_loop(self) -> None:
        """Everything this server adds to Redis streams, in order, off the loop's path."""
        while True:
            await self.outbox_wake.wait()
            self.outbox_wake.clear()
            try:
                while self.outbox or self.lobby_dirty:
                    batch, self.outbox = self.outbox, []
                    pipe = self.aredis.pipeline(transaction=False)
                    for stream, fields in batch:
                        pipe.xadd(stream, fields, maxlen=OUT_KEEP, approximate=True)
                    if self.lobby_dirty:
                        self.lobby_dirty = False
                        for table in list(self.tables.values()):
                            if table.key in self.leases:
                                spectators = sum(
                                    c.tables.get(table.name) == -1 for c in self.at(table.name)
                                )
                                pipe.set(
                                    self.store.key("table", table.key, "summary"),
                                    json.dumps(table.summary(spectators)),
                                )
                        pipe.incr(self.store.key("lobby"))
                    await pipe.execute()
            except Exception as exc:  # noqa: BLE001 - Redis away: try again in a moment
                print(f"weathering serve: store: {exc}", flush=True)
                self.outbox[:0] = batch
                await asyncio.sleep(TICK)
                self.outbox_wake.set()

    async def _inbox_loop(self) -> None:
        """The command streams of the tables this server owns."""
        last: dict[str, str] = {}
        while True:
            try:
                await self._inbox(last)
            except Exception as exc:  # noqa: BLE001 - Redis away: the tables wait
                print(f"weathering serve: store: {exc}", flush=True)
                await asyncio.sleep(TICK)

    async def _inbox(self, last: dict[str, str]) -> None:
        while True:
            streams = {}
            for key in list(self.leases):
                stream = self.store.key("table", key, "commands")
                if key not in last:
                    done = await self.aredis.get(self.store.key("table", key, "done"))
                    last[key] = done.decode() if done else "0-0"
                streams[stream] = last[key]
            if not streams:
                await asyncio.sleep(0.2)
                continue
            answer = await self.aredis.xread(streams, block=500, count=100)
            done = self.aredis.pipeline(transaction=False)
            for stream, entries in answer or ():
                key = stream.decode()[len(self.store.key("table")) + 1 : -len(":commands")]
                for entry_id, fields in entries:
                    if key in self.leases:
                        self._command_in(key, fields)
                    last[key] = entry_id.decode()
                done.set(self.store.key("table", key, "done"), last[key])
            await done.execute()
            for key in [k for k in last if k not in self.leases]:
                del last[key]

    async def _relay_loop(self) -> None:
        """What the owners of remote tables send this server's players."""
        stream = self.store.key("server", self.server_id, "out")
        last = "$"
        while True:
            try:
                answer = await self.aredis.xread({stream: last}, block=500, count=200)
            except Exception:  # noqa: BLE001 - Redis away: resume from where we were
                await asyncio.sleep(TICK)
                continue
            for _, entries in answer or ():
                for entry_id, fields in entries:
                    last = entry_id.decode()
                    self._deliver(fields[b"conn"].decode(), fields[b"line"])

    async def _tick_loop(self) -> None:
        while True:
            try:
                await self._tick()
            except Exception as exc:  # noqa: BLE001 - Redis away: leases are renewed later
                print(f"weathering serve: store: {exc}", flush=True)
            await asyncio.sleep(TICK)

    async def _tick(self) -> None:
        """Renew our leases, drop lost ones, take over orphaned tables, read the lobby
        and the owners of the tables our players are at."""
        alive = self.store.key("server", self.server_id, "alive")
        pipe = self.aredis.pipeline(transaction=False)
        pipe.set(alive, "1", px=ALIVE_MS)  # our players' owners see we are here
        pipe.expire(self.store.key("server", self.server_id, "out"), 600)
        await pipe.execute()
        for key in list(self.leases):
            kept = await self.renew_script(
                keys=[self.store.key("table", key, "owner")], args=[self.leases[key], LEASE_MS]
            )
            if not kept and not await self._reclaim(key):
                self._lost(key)
        await self._homes_alive()
        keys = sorted(k.decode() for k in await self.aredis.smembers(self.store.key("tables")))
        if not keys:
            return
        owners = await self.aredis.mget([self.store.key("table", k, "owner") for k in keys])
        summaries = await self.aredis.mget([self.store.key("table", k, "summary") for k in keys])
        remote = {}
        for key, owner, summary in zip(keys, owners, summaries, strict=True):
            summary = json.loads(summary) if summary else None
            if owner is None and key not in self.leases:
                if summary is None or not summary.get("outcome"):
                    await self._take_over(key)
                continue
            owner = owner.decode().partition("/")[0]  # the owning server
            if key in self.leases or summary is None:
                continue
            remote[summary["name"].casefold()] = {"key": key, "owner": owner, "summary": summary}
        for name, entry in self.remote.items():  # an owner gone: our players are told
            if name not in remote and name not in self.tables and self.forwarded.get(name):
                self._tell_forwarded(name, entry["summary"]["name"], "moving")
                self.seated_with.pop(name, None)
        self.remote = remote
        for name, entry in remote.items():
            if self.forwarded.get(name) and self.seated_with.get(name) != entry["owner"]:
                self._owner_changed(name, entry)  # a new owner: our players' seats again
        seen = await self.aredis.get(self.store.key("lobby"))
        seen = int(seen or 0)
        if seen != self.lobby_seen:
            self.lobby_seen = seen
            self.broadcast_lobby(publish=False)

    async def _reclaim(self, key: str) -> bool:
        """Our lease expired (Redis was away longer than it lasts) and nobody took it:
        ours again, with a new token, for the one copy of the table we hold."""
        owner = self.store.key("table", key, "owner")
        token = self._token()
        if not await self.aredis.set(owner, token, nx=True, px=LEASE_MS):
            return False
        self.leases[key] = token
        for table in self.tables.values():
            if table.key == key and table.journal is not None:
                table.journal.fence = (owner, token)
        return True

    async def _homes_alive(self) -> None:
        """Players whose own server died are gone from our tables (their seats wait
        the grace, then a bot plays them), as a dropped connection is."""
        homes = sorted({conn.home for conn in self.remote_conns.values()})
        if not homes:
            return
        keys = [self.store.key("server", home, "alive") for home in homes]
        for home, alive in zip(homes, await self.aredis.mget(keys), strict=True):
            if alive is None:
                for ident, conn in list(self.remote_conns.items()):
                    if conn.home == home:
                        del self.remote_conns[ident]
                        conn.closed = True
                        self._gone(conn)

    async def _take_over(self, key: str) -> None:
        from .table import Table

        owner = self.store.key("table", key, "owner")
        token = self._token()
        if not await self.aredis.set(owner, token, nx=True, px=LEASE_MS):
            return
        path = self.tables_dir / f"{key}.toml"
        try:
            table = await asyncio.to_thread(Table.reopen, path, self.store)
        except Exception as exc:  # noqa: BLE001 - a broken table is said, not fatal
            print(f"weathering serve: table {key} not taken over: {exc}", flush=True)
            await self.release_script(keys=[owner], args=[token])
            if "not in the store" in str(exc):  # never started: nothing to take over
                await self.aredis.srem(self.store.key("tables"), key)
            return
        self.leases[key] = token
        table.journal.fence = (owner, token)
        table.stored = True
        name = table.name.casefold()
        self.remote.pop(name, None)
        self.tables[name] = table
        self.notices[name] = []
        for index, seat in enumerate(table.seats):
            if seat.owner is not None and not seat.botted:
                self._away(table, index)
                table.moved.add(index)
        print(f"weathering serve: took over table {table.name}", flush=True)
        self._drive(name)
        self.publish_summaries()
        self._owner_changed(name, None)  # our own players there: seated here now

    def _lost(self, key: str) -> None:
        """Another server holds this table now: we stop applying anything to it."""
        self.leases.pop(key, None)
        for table in list(self.tables.values()):
            if table.key == key:
                for tasks, name in (
                    (self.drivers, table.name.casefold()),
                    (self.flushing, table.name),
                ):
                    task = tasks.pop(name, None)
                    if task is not None:
                        task.cancel()
                self._close_window(table)
                for seat in range(len(table.seats)):  # nothing of the old copy acts again
                    timer = self.away_timers.pop((table.name, seat), None)
                    if timer is not None:
                        timer.cancel()
                name = table.name.casefold()
                for conn in self.at(table.name):  # our players there ask the new owner
                    if isinstance(conn, RemoteConn):
                        continue
                    seat = conn.tables.get(table.name)
                    conn.asked = getattr(conn, "asked", {})
                    conn.asked[name] = (
                        pr.Spectate(table.name, table.code)
                        if seat is None or seat < 0
                        else pr.TakeSeat(table.name, seat, table.code)
                    )
                    self.forwarded.setdefault(name, set()).add(conn)
                self.seated_with.pop(name, None)
                self._forget(table)
                print(f"weathering serve: lost table {table.name}", flush=True)

    def _owner_changed(self, name: str, entry: dict | None) -> None:
        """Our players at a table whose owner changed ask for their seats again (the
        new owner sends them a whole view), as a client does after a restart."""
        for conn in list(self.forwarded.get(name, ())):
            asked = getattr(conn, "asked", {}).get(name)
            if asked is None:
                continue
            if entry is None:  # the table is ours now: its seat is asked here
                self.forwarded[name].discard(conn)
                conn.tables.pop(asked.table, None)
                try:
                    self.dispatch(conn, asked)
                except pr.ProtocolError as exc:
                    conn.error(exc.code, exc.detail, exc.params)
            else:
                self._command(entry["key"], conn, "msg", pr.client_line(asked))
        if entry is not None:
            if name in self.moving:
                self._tell_forwarded(name, entry["summary"]["name"], "resumed")
            self.seated_with[name] = entry["owner"]

    def _tell_forwarded(self, name: str, shown: str, kind: str) -> None:
        """A notice of our own to our players at a remote table (its owner changing)."""
        if kind == "moving":
            self.moving.add(name)
        else:
            self.moving.discard(name)
        line = pr.server_line("notice", table=shown, kind=kind, name="")
        for conn in self.forwarded.get(name, ()):
            conn.send(line)

    def forget_in_store(self, table) -> None:
        """A table this server drops for good (finished and swept): its lease, its name
        in the lobby and its streams go (its save stays, for `export`)."""
        token = self.leases.pop(table.key, None)
        if token is not None and self.aredis is not None:
            asyncio.get_running_loop().create_task(self._forget_keys(table.key, token))

    async def _forget_keys(self, key: str, token: str) -> None:
        owner = self.store.key("table", key, "owner")
        try:
            await self.release_script(keys=[owner], args=[token])
            pipe = self.aredis.pipeline(transaction=False)
            pipe.srem(self.store.key("tables"), key)
            for part in ("summary", "commands", "done"):
                pipe.delete(self.store.key("table", key, part))
            await pipe.execute()
        except Exception as exc:  # noqa: BLE001 - Redis away: the keys stay, harmless
            print(f"weathering serve: store: {exc}", flush=True)

    def remote_lobby(self) -> list[dict]:
        return [entry["summary"] for entry in self.remote.values()]
