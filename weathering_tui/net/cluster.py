"""Several `serve --store` processes on one Redis: one owner per table, any server
reaches any table. A `Cluster` is an object the server holds when it has a store: this
module its links and loops, `cluster_owner.py` the tables it owns (leases, commands in,
takeovers), `cluster_relay.py` its players at other servers' tables.

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
- **A store that refuses writes.** Redis at its memory limit with `noeviction` refuses
  every write with an OOM error; Redis gone refuses them all too. Neither is a lost
  lease: the lease is renewed first (PEXPIRE is still allowed at the memory limit) and
  stays ours; only a lease another server now holds is lost. Meanwhile each table this
  server owns is paused (`refuses`: no move is taken, its players told the true reason
  once) and resumes by itself once a write goes through again.

Redis is trusted: a server's messages on it are taken as they come (the identity of a
forwarded player is the one its server saw). Keep Redis on loopback or a private
network, with a password.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from . import protocol as pr
from . import server_messages as msg
from .cluster_base import ALIVE_MS, LEASE_MS, OUT_KEEP, RELEASE, RENEW, TICK, Link, refused
from .cluster_owner import Ownership
from .cluster_relay import Relay
from .table_summary import table_summary

__all__ = ["LEASE_MS", "Cluster"]


class Cluster:
    """This server among those sharing a store. It holds the tables' lobby (`lobby`)
    and is given the server's `dispatch` (a message handled as if read here), `gone` (a
    player gone) and `sent` (every line written, for tests)."""

    def __init__(self, store, lobby, dispatch, gone, sent):
        self.store = store
        self.lobby = lobby
        self.link = Link(store)
        self.relay = Relay(self.link, lobby, dispatch)
        self.owner = Ownership(self.link, lobby, self.relay, dispatch, gone, sent)
        self.registry: set[str] = set()  # every table key in the store, as last read
        self.lobby_seen = -1
        self.lobby_dirty = False
        self.tasks: list[asyncio.Task] = []
        self.refuses = False  # the store refused the last write tried (or does not answer)

    @property
    def server_id(self) -> str:
        return self.link.server_id

    @property
    def closing(self) -> bool:
        return self.link.closing

    # ------------------------------------------------------------ start and stop

    async def start(self) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        from ..storage.redis_store import parse_url

        # Named: the other servers see at once when all our links are gone (killed).
        # Failing fast, as the store's own client: the loops try again every second, and
        # our players are told the table is paused meanwhile (the client's default is
        # to retry with backoff for seconds, in silence).
        aredis = self.link.aredis = aioredis.Redis(
            **parse_url(self.store.url),
            socket_timeout=5,
            socket_connect_timeout=2,
            client_name=self.link.server_id,
            retry=Retry(NoBackoff(), 1),
        )
        self.owner.renew_script = aredis.register_script(RENEW)
        self.owner.release_script = aredis.register_script(RELEASE)
        pubsub = None
        try:  # our channel, and the tables every server knows, before any player comes
            pubsub = await self.relay.subscribe()
            await self.tick()
        except Exception as exc:  # noqa: BLE001 - Redis away: the loops try again
            print(f"weathering serve: store: {exc}", flush=True)
        loop = asyncio.get_running_loop()
        jobs = (self._tick_loop(), self.owner.inbox_loop(), self.relay.loop(pubsub))
        for job in (*jobs, self._out_loop()):
            self.tasks.append(loop.create_task(job))

    async def stop_loops(self) -> None:
        """No more commands read, leases renewed or tables taken over (at the stop).

        The Redis client may turn a cancellation inside a read into a connection error,
        which a loop takes for Redis being away: each loop also stops at its next turn
        (`closing`), and the stop never waits on a loop for long."""
        self.link.closing = True
        for _ in range(3):
            pending = [task for task in self.tasks if not task.done()]
            if not pending:
                break
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=1.0)
        self.tasks = []

    async def stop(self) -> None:
        """Whatever is still to add to Redis, then our leases go."""
        aredis = self.link.aredis
        if aredis is not None and self.link.outbox:
            try:
                pipe = aredis.pipeline(transaction=False)
                for target, fields in self.link.outbox:
                    _add_out(pipe, target, fields)
                await pipe.execute()
            except Exception:  # noqa: BLE001 - Redis gone: nothing more to say
                pass
        if aredis is not None:
            try:  # our leases go at once: another server need not wait for them
                await self.owner.release_all()
                await aredis.aclose()
            except Exception:  # noqa: BLE001 - Redis gone: the leases expire by themselves
                pass

    # ------------------------------------------------------------ tables made and gone

    async def claim(self, conn, table) -> None:
        """A table made here is made once the store has it: its lease taken and its
        record kept (one transaction), then "created". A store that refuses (full, or
        gone) refuses the table, said plainly: nothing of it stays, here or there. If
        another server had the name already (made there in the same second), it is
        refused as taken."""
        owner = self.store.key("table", table.saves.key, "owner")
        token = self.link.token()
        table.saves.lease(owner, token)
        aredis, release = self.link.aredis, self.owner.release_script
        try:
            ok = await aredis.set(owner, token, nx=True, px=LEASE_MS)
            if ok:  # listed, and what makes it again should this server die first
                waiting = json.dumps(table.saves.waiting_record())
                pipe = aredis.pipeline(transaction=True)
                pipe.set(self.store.key("table", table.saves.key, "waiting"), waiting)
                pipe.sadd(self.store.key("tables"), table.saves.key)
                try:
                    await pipe.execute()
                except Exception:
                    with contextlib.suppress(Exception):  # (else it expires by itself)
                        await release(keys=[owner], args=[token])
                    raise
        except Exception as exc:  # noqa: BLE001 - the store refused: so is the table
            print(f"weathering serve: table {table.name} not made: store: {exc}", flush=True)
            raise self._unmade(
                table, "storage", "the server cannot save right now: no table was made"
            ) from None
        if self.lobby.tables.get(table.name.casefold()) is not table:  # (gone: the stop)
            with contextlib.suppress(Exception):
                await release(keys=[owner], args=[token])
            return
        if not ok:
            print(f"weathering serve: table {table.name} is another server's", flush=True)
            raise self._unmade(table, "name_taken", "a table has that name already")
        self.owner.leases[table.saves.key] = token
        self.publish_summaries()
        conn.send(msg.server_line("created", table=table.name))
        self.lobby.broadcast_lobby()

    def _unmade(self, table, code: str, detail: str) -> pr.ProtocolError:
        """A table the store did not take: refused to anyone who sat there meanwhile,
        and forgotten. The refusal its maker is answered with."""
        maker = pr.ProtocolError(code, detail, {"table": table.name})
        for conn in self.lobby.at(table.name):
            conn.error(code, detail, maker.params)
        if self.lobby.tables.get(table.name.casefold()) is table:
            self.lobby.forget(table)
        return maker

    def forget(self, table) -> None:
        self.owner.forget(table)

    def taken(self, name: str) -> bool:
        """A table of that name is another server's."""
        return name.casefold() in self.relay.remote

    def remote_lobby(self) -> list[dict]:
        return [entry["summary"] for entry in self.relay.remote.values()]

    def publish_summaries(self) -> None:
        """Our tables' summaries for the other servers' lobbies (sent by the out loop)."""
        self.lobby_dirty = True
        self.link.outbox_wake.set()

    # ------------------------------------------------------------ the loops

    async def _out_loop(self) -> None:
        """Everything this server adds to Redis streams, in order, off the loop's path."""
        link = self.link
        while not link.closing:
            await link.outbox_wake.wait()
            link.outbox_wake.clear()
            try:
                while link.outbox or self.lobby_dirty:
                    batch, link.outbox = link.outbox, []
                    if len(batch) == 1 and not self.lobby_dirty:  # the common case, alone:
                        await _add_out(link.aredis, *batch[0])  # (a pipeline costs more)
                        continue
                    pipe = link.aredis.pipeline(transaction=False)
                    for target, fields in batch:
                        _add_out(pipe, target, fields)
                    if self.lobby_dirty:
                        self.lobby_dirty = False
                        self._summaries(pipe)
                    batch, refusal = self._refused(batch, await pipe.execute(raise_on_error=False))
                    if refusal is not None:
                        raise refusal  # (what Redis refused goes again; what it took, not)
            except Exception as exc:  # noqa: BLE001 - Redis away: try again in a moment
                print(f"weathering serve: store: {exc}", flush=True)
                link.outbox[:0] = batch
                await asyncio.sleep(TICK)
                link.outbox_wake.set()

    def _summaries(self, pipe) -> None:
        for table in list(self.lobby.tables.values()):
            if table.saves.key in self.owner.leases:
                pipe.set(
                    self.store.key("table", table.saves.key, "summary"),
                    json.dumps(table_summary(table, self.lobby.spectators(table.name))),
                )
        pipe.incr(self.store.key("lobby"))

    def _refused(self, batch: list, results: list) -> tuple[list, Exception | None]:
        """Of a pipeline's commands, those Redis refused (at its memory limit: stream
        entries, summaries; a publish it takes) and its first refusal. Only those are
        sent again: a line published twice would reach a player twice."""
        errors = [got for got in results if isinstance(got, Exception)]
        failed = [item for item, got in zip(batch, results, strict=False) if got in errors]
        if any(isinstance(got, Exception) for got in results[len(batch) :]):
            self.lobby_dirty = True  # (the summaries, written again)
        return failed, (errors[0] if errors else None)

    async def _tick_loop(self) -> None:
        """Every second, `tick`. While Redis is away our players at remote tables are
        told the table is paused (their owner's word cannot reach them), then that it
        resumes."""
        away = False
        while not self.link.closing:
            try:
                await self.tick()
                if away:
                    away = False
                    self.relay.tell_all("resumed")
            except Exception as exc:  # noqa: BLE001 - Redis away: leases are renewed later
                print(f"weathering serve: store: {exc}", flush=True)
                if not away and not self.link.closing:
                    away = True
                    self.relay.tell_all("paused")
                    self.writes_refused()  # our own tables too: nothing can be written
            await asyncio.sleep(TICK)

    async def tick(self) -> None:
        """Renew our leases, drop lost ones, take over orphaned tables, read the lobby
        and the owners of the tables our players are at."""
        aredis, key = self.link.aredis, self.store.key
        await self.owner.renew()  # first: Redis renews a lease when it refuses writes
        # Our players' owners see we are here; a refusal pauses our tables.
        await self._probe_writes(key("server", self.link.server_id, "alive"))
        await self.owner.homes_alive()
        keys = sorted(k.decode() for k in await aredis.smembers(key("tables")))
        self.registry = set(keys)
        if not keys:
            return
        owners = await aredis.mget([key("table", k, "owner") for k in keys])
        summaries = await aredis.mget([key("table", k, "summary") for k in keys])
        remote = {}
        for table_key, owner, summary in zip(keys, owners, summaries, strict=True):
            summary = json.loads(summary) if summary else None
            unfinished = summary is None or not summary.get("outcome")
            if owner is None and table_key not in self.owner.leases and unfinished:
                try:
                    if await self.owner.take_over(table_key):
                        self.publish_summaries()
                except Exception as exc:
                    if not refused(exc):
                        raise  # (refused: tried again next tick)
            if table_key in self.owner.leases or summary is None:
                continue
            # An orphan (owner "": its lease expired, not yet taken over) is listed too:
            # messages for it wait in its command stream for whoever takes it over.
            owner = owner.decode().partition("/")[0] if owner else ""
            entry = {"key": table_key, "owner": owner, "summary": summary}
            remote[summary["name"].casefold()] = entry
        self.relay.seen(remote)
        await self.relay.owners_gone()
        self.relay.new_owners()
        seen = int(await aredis.get(key("lobby")) or 0)
        if seen != self.lobby_seen:
            self.lobby_seen = seen
            self.lobby.broadcast_lobby(publish=False)

    # ------------------------------------------------------------ a store that refuses

    async def _probe_writes(self, alive: str) -> None:
        """The tick's one write (we are here, for our players' owners) tells whether
        the store takes writes. Refused: our alive mark is kept by PEXPIRE (allowed at
        the memory limit), so that no other server takes our players for gone."""
        try:
            await self.link.aredis.set(alive, "1", px=ALIVE_MS)
        except Exception as exc:
            if not refused(exc):
                raise  # Redis away: the tick loop says so
            await self.link.aredis.pexpire(alive, ALIVE_MS)
            self.writes_refused()
            return
        self.writes_back()

    def writes_refused(self) -> None:
        """The store refuses writes: every table of ours in play pauses (acts refused)."""
        if not self.refuses:
            print("weathering serve: the store refuses writes: tables paused", flush=True)
        self.refuses = True
        for table in self.owner.owned():
            self.lobby.driver(table.name).tell_paused()

    def writes_back(self) -> None:
        if not self.refuses:
            return
        print("weathering serve: the store takes writes again: tables resume", flush=True)
        self.refuses = False
        for table in self.owner.owned():
            self.lobby.driver(table.name).resume()  # told; what waits is written


def _add_out(pipe, target: str, fields):
    """An outbox entry, into a pipeline or sent by the client: a command added to a
    table's stream (a dict of fields), or a line published on a server's channel."""
    if isinstance(fields, bytes):
        return pipe.publish(target, fields)
    return pipe.xadd(target, fields, maxlen=OUT_KEEP, approximate=True)
