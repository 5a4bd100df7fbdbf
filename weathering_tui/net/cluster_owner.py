"""The owner's side of the cluster: the leases of the tables this server applies, the
commands other servers' players send them (read from each table's command stream), and
every second the leases renewed, lost ones dropped and orphaned tables taken over
(net/cluster.py says why)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from . import protocol as pr
from . import table_open
from .cluster_base import FINISHED_KEPT_S, LEASE_MS, TABLE_MESSAGES, TICK, Link, RemoteConn, refused
from .cluster_relay import Relay


class Ownership:
    def __init__(self, link: Link, lobby, relay: Relay, dispatch, gone, sent):
        self.link = link
        self.lobby = lobby  # the tables: taken over ones join it, lost ones leave it
        self.relay = relay  # our own players at a table we take over or lose
        self.dispatch, self.gone, self.sent = dispatch, gone, sent  # the server's
        self.leases: dict[str, str] = {}  # table key -> our lease's token (we own it)
        self.remote_conns: dict[tuple[str, str], RemoteConn] = {}
        # The lease's Lua scripts (`AsyncScript`), registered as the cluster starts.
        self.release_script: Any = None
        self.renew_script: Any = None

    def key(self, *parts: str) -> str:
        return self.link.store.key(*parts)

    def owned(self) -> list:
        """The tables in play whose lease is ours."""
        return [t for t in self.lobby.tables.values() if t.started and t.saves.key in self.leases]

    # ------------------------------------------------------------ commands in

    async def inbox_loop(self) -> None:
        """The command streams of the tables this server owns."""
        last: dict[str, str] = {}
        while not self.link.closing:
            try:
                await self._inbox(last)
            except Exception as exc:  # noqa: BLE001 - Redis away: the tables wait
                print(f"weathering serve: store: {exc}", flush=True)
                await asyncio.sleep(TICK)

    async def _inbox(self, last: dict[str, str]) -> None:
        aredis = self.link.aredis
        while not self.link.closing:
            streams = {}
            for key in list(self.leases):
                stream = self.key("table", key, "commands")
                if key not in last:
                    done = await aredis.get(self.key("table", key, "done"))
                    last[key] = done.decode() if done else "0-0"
                streams[stream] = last[key]
            if not streams:
                await asyncio.sleep(0.2)
                continue
            answer = await aredis.xread(streams, block=500, count=100)
            for stream, entries in answer or ():
                key = stream.decode()[len(self.key("table")) + 1 : -len(":commands")]
                for entry_id, fields in entries:
                    if key in self.leases:
                        self.command_in(key, fields)
                    last[key] = entry_id.decode()
            # Where a new owner starts reading: only as far as what the commands did is
            # durable (a command read again is refused as stale; one skipped is lost).
            done = aredis.pipeline(transaction=False)
            for key, at in last.items():
                table = next((t for t in self.lobby.tables.values() if t.saves.key == key), None)
                if table is not None and self.lobby.driver(table.name).written():
                    done.set(self.key("table", key, "done"), at)
            await done.execute()
            for key in [k for k in last if k not in self.leases]:
                del last[key]

    def command_in(self, key: str, fields: dict) -> None:
        """A message a player of another server sent one of our tables."""
        home, conn_id = fields[b"from"].decode(), fields[b"conn"].decode()
        identity, name = fields[b"identity"].decode(), fields[b"name"].decode()
        if home == self.link.server_id:  # sent while another server owned it: ours now
            local = self.relay.local_by_id.get(conn_id)
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
                self.gone(remote)
            return
        if remote is None:
            remote = RemoteConn(self.link, self.sent, home, conn_id, identity, name)
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

    async def homes_alive(self) -> None:
        """Players whose own server died are gone from our tables (their seats wait
        the grace, then a bot plays them), as a dropped connection is."""
        homes = sorted({conn.home for conn in self.remote_conns.values()})
        if not homes:
            return
        keys = [self.key("server", home, "alive") for home in homes]
        for home, alive in zip(homes, await self.link.aredis.mget(keys), strict=True):
            if alive is None:
                for ident, conn in list(self.remote_conns.items()):
                    if conn.home == home:
                        del self.remote_conns[ident]
                        conn.closed = True
                        self.gone(conn)

    # ------------------------------------------------------------ leases

    async def renew(self) -> None:
        """Our leases renewed. One expired is taken again if nobody holds it; a lease is
        lost only when another server holds it: a write refused (Redis full) is not a
        lost lease, and Redis away raises (the tick loop pauses our tables)."""
        for key in list(self.leases):
            kept = await self.renew_script(
                keys=[self.key("table", key, "owner")], args=[self.leases[key], LEASE_MS]
            )
            try:
                if kept or await self._reclaim(key):
                    continue
            except Exception as exc:
                if not refused(exc):
                    raise
                continue  # refused: ours still (nobody else can take it), tried next tick
            self.lost(key)

    async def _reclaim(self, key: str) -> bool:
        """Our lease expired (Redis was away longer than it lasts) and nobody took it:
        ours again, with a new token, for the one copy of the table we hold."""
        owner = self.key("table", key, "owner")
        token = self.link.token()
        if not await self.link.aredis.set(owner, token, nx=True, px=LEASE_MS):
            return False
        self.leases[key] = token
        for table in self.lobby.tables.values():
            if table.saves.key == key and table.saves.journal is not None:
                table.saves.lease(owner, token)
        return True

    async def take_over(self, key: str) -> bool:
        """An orphaned table (its lease expired) taken, rebuilt from its save and
        journal; True once it is ours."""

        owner = self.key("table", key, "owner")
        token = self.link.token()
        if not await self.link.aredis.set(owner, token, nx=True, px=LEASE_MS):
            return False
        path = self.lobby.tables_dir / f"{key}.toml"
        try:
            table = await asyncio.to_thread(table_open.reopen, path, self.link.store)
        except Exception as exc:  # noqa: BLE001 - a broken table is said, not fatal
            print(f"weathering serve: table {key} not taken over: {exc}", flush=True)
            await self.release_script(keys=[owner], args=[token])
            if "not in the store" in str(exc):  # nothing to take over (made, never kept)
                await self.link.aredis.srem(self.key("tables"), key)
            return False
        self.leases[key] = token
        table.saves.lease(owner, token)
        name = table.name.casefold()
        self.relay.remote.pop(name, None)
        self.lobby.adopt(table, moved=True)  # its players away until they come back here
        print(f"weathering serve: took over table {table.name}", flush=True)
        if self.relay.forwarded.get(name):
            self.relay.tell(name, table.name, "resumed")
        self.relay.owner_changed(name, None)  # our own players there: seated here now
        return True

    def lost(self, key: str) -> None:
        """Another server holds this table now: we stop applying anything to it."""
        self.leases.pop(key, None)
        for table in list(self.lobby.tables.values()):
            if table.saves.key != key:
                continue
            self.lobby.driver(table.name).stop()  # nothing of the old copy acts again
            name = table.name.casefold()
            for conn in self.lobby.at(table.name):  # our players there ask the new owner
                if isinstance(conn, RemoteConn):
                    continue
                seat = conn.tables.get(table.name)
                asked = (
                    pr.Spectate(table.name, table.code)
                    if seat is None or seat < 0
                    else pr.TakeSeat(table.name, seat, table.code)
                )
                self.relay.ask(conn, name, asked)
            self.relay.seated_with.pop(name, None)
            self.lobby.forget(table)
            if self.relay.forwarded.get(name):  # what was not written yet is not theirs now
                self.relay.tell(name, table.name, "moving")
            print(f"weathering serve: lost table {table.name}", flush=True)

    def forget(self, table) -> None:
        """A table this server drops for good (finished and swept): its lease, its name
        in the lobby and its streams go; its save stays a week, for `export` (the
        finished game is also the usual TOML file in the tables folder)."""
        token = self.leases.pop(table.saves.key, None)
        if token is not None and self.link.aredis is not None:
            asyncio.get_running_loop().create_task(self._forget_keys(table.saves.key, token))

    async def _forget_keys(self, key: str, token: str) -> None:
        owner = self.key("table", key, "owner")
        try:
            await self.release_script(keys=[owner], args=[token])
            pipe = self.link.aredis.pipeline(transaction=False)
            pipe.srem(self.key("tables"), key)
            for part in ("summary", "commands", "done", "waiting"):
                pipe.delete(self.key("table", key, part))
            for part in ("save", "journal"):  # kept a while for `export`, then gone
                pipe.expire(self.key("table", key, part), FINISHED_KEPT_S)
            await pipe.execute()
        except Exception as exc:  # noqa: BLE001 - Redis away: the keys stay, harmless
            print(f"weathering serve: store: {exc}", flush=True)

    async def release_all(self) -> None:
        """Our leases go at once (the stop): another server need not wait for them."""
        for key, token in list(self.leases.items()):
            await self.release_script(keys=[self.key("table", key, "owner")], args=[token])
