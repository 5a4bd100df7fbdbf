"""The cluster's background work (a part of `Cluster`): the streams read and written,
and every second the leases, takeovers, owners and the lobby (net/cluster.py says why)."""

from __future__ import annotations

import asyncio
import json

from . import protocol as pr
from .cluster_base import FINISHED_KEPT_S, LEASE_MS, OUT_KEEP, TICK, RemoteConn
from .store_pause import refused


class ClusterLoops:
    """Mixed into `Cluster`: its state lives in `Cluster.cluster_init`."""

    @staticmethod
    def add_out(pipe, target: str, fields):
        """An outbox entry, into a pipeline or sent by the client: a command added to a
        table's stream (a dict of fields), or a line published on a server's channel."""
        if isinstance(fields, bytes):
            return pipe.publish(target, fields)
        return pipe.xadd(target, fields, maxlen=OUT_KEEP, approximate=True)

    async def _out_loop(self) -> None:
        """Everything this server adds to Redis streams, in order, off the loop's path."""
        while not self.cluster_closing:
            await self.outbox_wake.wait()
            self.outbox_wake.clear()
            try:
                while self.outbox or self.lobby_dirty:
                    batch, self.outbox = self.outbox, []
                    if len(batch) == 1 and not self.lobby_dirty:  # the common case, alone:
                        await self.add_out(self.aredis, *batch[0])  # (a pipeline costs more)
                        continue
                    pipe = self.aredis.pipeline(transaction=False)
                    for target, fields in batch:
                        self.add_out(pipe, target, fields)
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
                    batch, refusal = self._refused(batch, await pipe.execute(raise_on_error=False))
                    if refusal is not None:
                        raise refusal  # (what Redis refused goes again; what it took, not)
            except Exception as exc:  # noqa: BLE001 - Redis away: try again in a moment
                print(f"weathering serve: store: {exc}", flush=True)
                self.outbox[:0] = batch
                await asyncio.sleep(TICK)
                self.outbox_wake.set()

    def _refused(self, batch: list, results: list) -> tuple[list, Exception | None]:
        """Of a pipeline's commands, those Redis refused (at its memory limit: stream
        entries, summaries; a publish it takes) and its first refusal. Only those are
        sent again: a line published twice would reach a player twice."""
        errors = [got for got in results if isinstance(got, Exception)]
        failed = [item for item, got in zip(batch, results, strict=False) if got in errors]
        if any(isinstance(got, Exception) for got in results[len(batch) :]):
            self.lobby_dirty = True  # (the summaries, written again)
        return failed, (errors[0] if errors else None)

    async def _inbox_loop(self) -> None:
        """The command streams of the tables this server owns."""
        last: dict[str, str] = {}
        while not self.cluster_closing:
            try:
                await self._inbox(last)
            except Exception as exc:  # noqa: BLE001 - Redis away: the tables wait
                print(f"weathering serve: store: {exc}", flush=True)
                await asyncio.sleep(TICK)

    async def _inbox(self, last: dict[str, str]) -> None:
        while not self.cluster_closing:
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
            for stream, entries in answer or ():
                key = stream.decode()[len(self.store.key("table")) + 1 : -len(":commands")]
                for entry_id, fields in entries:
                    if key in self.leases:
                        self._command_in(key, fields)
                    last[key] = entry_id.decode()
            # Where a new owner starts reading: only as far as what the commands did is
            # durable (a command read again is refused as stale; one skipped is lost).
            done = self.aredis.pipeline(transaction=False)
            for key, at in last.items():
                table = next((t for t in self.tables.values() if t.key == key), None)
                if table is not None and not table.unjournaled and table.name not in self.flushing:
                    done.set(self.store.key("table", key, "done"), at)
            await done.execute()
            for key in [k for k in last if k not in self.leases]:
                del last[key]

    async def _tick_loop(self) -> None:
        """Every second, `_tick`. While Redis is away our players at remote tables are
        told the table is paused (their owner's word cannot reach them), then that it
        resumes."""
        away = False
        while not self.cluster_closing:
            try:
                await self._tick()
                if away:
                    away = False
                    self._tell_all_forwarded("resumed")
            except Exception as exc:  # noqa: BLE001 - Redis away: leases are renewed later
                print(f"weathering serve: store: {exc}", flush=True)
                if not away and not self.cluster_closing:
                    away = True
                    self._tell_all_forwarded("paused")
                    self.writes_refused()  # our own tables too: nothing can be written
            await asyncio.sleep(TICK)

    def _tell_all_forwarded(self, kind: str) -> None:
        for name in list(self.forwarded):
            entry = self.remote.get(name)
            if entry is not None and self.forwarded.get(name):
                self._tell_forwarded(name, entry["summary"]["name"], kind)

    async def _owners_gone(self, remote: dict) -> None:
        """Owners of our players' tables whose every link to Redis is closed (a killed
        server: its kernel closed them at once): their players are told the table is
        moving now, not when its lease runs out. An owner back without losing its lease
        (a dropped link): they are told it resumes."""
        watched = {n: e for n, e in remote.items() if e["owner"] and self.forwarded.get(n)}
        if not watched:
            return
        live = {str(client.get("name", "")) for client in await self.aredis.client_list()}
        for name, entry in watched.items():
            if entry["owner"] not in live and name not in self.moving:
                self._tell_forwarded(name, entry["summary"]["name"], "moving")
            elif name in self.moving and self.seated_with.get(name) == entry["owner"] in live:
                self._tell_forwarded(name, entry["summary"]["name"], "resumed")

    async def _tick(self) -> None:
        """Renew our leases, drop lost ones, take over orphaned tables, read the lobby
        and the owners of the tables our players are at."""
        await self._renew()  # first: Redis renews a lease when it refuses writes
        # Our players' owners see we are here; a refusal pauses our tables (store_pause).
        await self.probe_writes(self.store.key("server", self.server_id, "alive"))
        await self._homes_alive()
        keys = sorted(k.decode() for k in await self.aredis.smembers(self.store.key("tables")))
        self.registry = set(keys)
        if not keys:
            return
        owners = await self.aredis.mget([self.store.key("table", k, "owner") for k in keys])
        summaries = await self.aredis.mget([self.store.key("table", k, "summary") for k in keys])
        remote = {}
        for key, owner, summary in zip(keys, owners, summaries, strict=True):
            summary = json.loads(summary) if summary else None
            unfinished = summary is None or not summary.get("outcome")
            if owner is None and key not in self.leases and unfinished:
                try:
                    await self._take_over(key)
                except Exception as exc:
                    if not refused(exc):
                        raise  # (refused: tried again next tick)
            if key in self.leases or summary is None:
                continue
            # An orphan (owner "": its lease expired, not yet taken over) is listed too:
            # messages for it wait in its command stream for whoever takes it over.
            owner = owner.decode().partition("/")[0] if owner else ""
            remote[summary["name"].casefold()] = {"key": key, "owner": owner, "summary": summary}
        for name, entry in remote.items():  # an owner gone: our players are told
            before = self.remote.get(name)
            if not entry["owner"] and before and before["owner"] and self.forwarded.get(name):
                self._tell_forwarded(name, entry["summary"]["name"], "moving")
                self.seated_with.pop(name, None)
        self.remote = remote
        await self._owners_gone(remote)
        for name, entry in remote.items():
            if (
                entry["owner"]
                and self.forwarded.get(name)
                and self.seated_with.get(name) != entry["owner"]
            ):
                self._owner_changed(name, entry)  # a new owner: our players' seats again
        seen = await self.aredis.get(self.store.key("lobby"))
        seen = int(seen or 0)
        if seen != self.lobby_seen:
            self.lobby_seen = seen
            self.broadcast_lobby(publish=False)

    async def _renew(self) -> None:
        """Our leases renewed. One expired is taken again if nobody holds it; a lease is
        lost only when another server holds it: a write refused (Redis full) is not a
        lost lease, and Redis away raises (the tick loop pauses our tables)."""
        for key in list(self.leases):
            kept = await self.renew_script(
                keys=[self.store.key("table", key, "owner")], args=[self.leases[key], LEASE_MS]
            )
            try:
                if kept or await self._reclaim(key):
                    continue
            except Exception as exc:
                if not refused(exc):
                    raise
                continue  # refused: ours still (nobody else can take it), tried next tick
            self._lost(key)

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
            if "not in the store" in str(exc):  # nothing to take over (made, never kept)
                await self.aredis.srem(self.store.key("tables"), key)
            return
        self.leases[key] = token
        table.journal.fence = (owner, token)
        table.stored = table.game is not None  # (a table not started: saved as it starts)
        name = table.name.casefold()
        self.remote.pop(name, None)
        self.tables[name] = table
        self.notices[name] = []
        for index, seat in enumerate(table.seats):
            if seat.owner is not None and not seat.botted:
                self._away(table, index)
                table.moved.add(index)
        print(f"weathering serve: took over table {table.name}", flush=True)
        if table.game is not None:
            self._drive(name)
        self.publish_summaries()
        if self.forwarded.get(name):
            self._tell_forwarded(name, table.name, "resumed")
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
                if self.forwarded.get(name):  # what was not written yet is not theirs now
                    self._tell_forwarded(name, table.name, "moving")
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
        """A notice of our own to our players at a remote table (its owner changing,
        Redis away): once, whoever says it first (the owner's own word comes after)."""
        if kind == "moving":
            self.moving.add(name)
        elif kind == "resumed":
            self.moving.discard(name)
        number = self.notice_clock.next()
        line = pr.server_line("notice", table=shown, kind=kind, name="", n=number)
        for conn in self.forwarded.get(name, ()):
            said = (name, self._conn_token(conn))
            if self.told.get(said) != kind:  # once, whoever says it first
                self.told[said], self.told_n[said] = kind, number
                conn.send(line)

    def forget_in_store(self, table) -> None:
        """A table this server drops for good (finished and swept): its lease, its name
        in the lobby and its streams go; its save stays a week, for `export` (the
        finished game is also the usual TOML file in the tables folder)."""
        token = self.leases.pop(table.key, None)
        if token is not None and self.aredis is not None:
            asyncio.get_running_loop().create_task(self._forget_keys(table.key, token))

    async def _forget_keys(self, key: str, token: str) -> None:
        owner = self.store.key("table", key, "owner")
        try:
            await self.release_script(keys=[owner], args=[token])
            pipe = self.aredis.pipeline(transaction=False)
            pipe.srem(self.store.key("tables"), key)
            for part in ("summary", "commands", "done", "waiting"):
                pipe.delete(self.store.key("table", key, part))
            for part in ("save", "journal"):  # kept a while for `export`, then gone
                pipe.expire(self.store.key("table", key, part), FINISHED_KEPT_S)
            await pipe.execute()
        except Exception as exc:  # noqa: BLE001 - Redis away: the keys stay, harmless
            print(f"weathering serve: store: {exc}", flush=True)

    def remote_lobby(self) -> list[dict]:
        return [entry["summary"] for entry in self.remote.values()]
