"""Redis at its memory limit (`maxmemory`, `noeviction`: every write refused with an OOM
error) tells players the truth (issue #28, item 1's Redis half): a refused write is not
a lost lease. The table pauses, its players hear why and keep their seats and links, a
move is refused with "nothing was played", a table that cannot be kept is refused to
its maker, and once Redis has room again the table resumes by itself, nothing lost."""

import asyncio
import time

import redis
from helpers import RedisServer
from test_net import answers, raw

from weathering_tui.engine import legal_actions
from weathering_tui.net import protocol as pr
from weathering_tui.net.cluster import LEASE_MS
from weathering_tui.net.server import Server
from weathering_tui.storage.journal import read_table
from weathering_tui.storage.redis_store import RedisStore


async def until(check, seconds=10.0):
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "never came"
        await asyncio.sleep(0.05)


async def settled_on_ann(server, table):
    """Her decision, every action before it written (shown)."""
    await until(
        lambda: (
            table.game is not None
            and table.game.state.pending.seat == 0
            and not table.saves.unjournaled
            and server.lobby.driver(table.name).flushing is None
        )
    )


def act(writer, table) -> None:
    state = table.game.state
    action = legal_actions(state, 0)[0]
    writer.write(pr.client_line(pr.Act("k", state.version, pr.action_data(action))))


async def told(reader, seconds: float) -> list[dict]:
    """Every message for `seconds`: notices, errors, views alike."""
    found, end = [], time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        found += await answers(reader, timeout=min(left, 0.5))
    return found


def kinds(messages) -> list:
    return [m.get("kind", m.get("code")) for m in messages if m["type"] in ("notice", "error")]


async def test_a_full_redis_pauses_the_table_tells_why_and_resumes_by_itself(tmp_path):
    redis_server = RedisServer(tmp_path / "redis").start()
    admin = redis.Redis(port=redis_server.port)
    store = RedisStore(redis_server.url)
    server = Server(tmp_path / "a", tmp_path / "a.sock", pace=30, grace=30, store=store)
    await server.start()
    try:
        ann_r, ann_w = await raw(server.socket_path, "ann")
        ann_w.write(pr.client_line(pr.CreateTable("k", "1v1", (0,), start_when_full=True)))
        ann_w.write(pr.client_line(pr.TakeSeat("k", 0)))
        await answers(ann_r, "seated")
        table = server.tables["k"]
        await settled_on_ann(server, table)
        owner = store.key("table", table.saves.key, "owner")
        lease = server.cluster.owner.leases[table.saves.key]
        await told(ann_r, 0.5)  # (the game's start, her view)

        await asyncio.to_thread(admin.config_set, "maxmemory-policy", "noeviction")
        await asyncio.to_thread(admin.config_set, "maxmemory", 1)  # every write refused
        got = await answers(ann_r, "notice", timeout=3 * LEASE_MS / 1000)
        assert kinds(got) == ["paused"], got  # said by itself, before anyone acts
        before = list(table.game.actions)
        act(ann_w, table)
        (refusal,) = [m for m in await answers(ann_r, "error") if m["type"] == "error"]
        assert refusal["code"] == "paused"
        assert refusal["message"] == "the server cannot save right now: nothing was played"
        assert table.game.actions == before, "nothing was played"

        cyd_r, cyd_w = await raw(server.socket_path, "cyd")  # a table made meanwhile
        cyd_w.write(pr.client_line(pr.CreateTable("new", "1v1", (0,))))
        got = await answers(cyd_r, "error", timeout=5)
        assert got[-1]["type"] == "error" and got[-1]["code"] == "storage", got
        assert got[-1]["message"] == "the server cannot save right now: no table was made"
        assert "new" not in server.tables and all(
            t["name"] != "new" for t in server.lobby.listing()
        )

        later = await told(ann_r, 2 * LEASE_MS / 1000)  # past the lease's time, twice
        assert kinds(later) == [], later  # neither "moving" nor "taken_over": no lies
        assert (
            table.saves.key in server.cluster.owner.leases
            and server.cluster.owner.leases[table.saves.key] == lease
        )
        assert await asyncio.to_thread(admin.get, owner) == lease.encode(), "still ours"
        assert server.tables.get("k") is table and table.seat_of("ann") == 0
        assert not table.seats[0].away and not table.seats[0].botted, "her seat, her link"

        await asyncio.to_thread(admin.config_set, "maxmemory", 0)  # room again
        got = await answers(ann_r, "notice", timeout=3 * LEASE_MS / 1000)
        assert kinds(got) == ["resumed"], got  # by itself: nobody rejoined
        await settled_on_ann(server, table)
        played = len(table.game.actions)
        act(ann_w, table)
        got = await answers(ann_r, "view")
        assert got[-1]["type"] == "view", got
        await until(lambda: len(table.game.actions) > played and not table.saves.unjournaled)
        await until(lambda: server.lobby.driver(table.name).flushing is None)
        kept = read_table(
            table.saves.path,
            raw=store.read_save(table.saves.key),
            journal=store.journal(table.saves.key),
        )
        assert kept.actions == table.game.actions, "every action there, none twice"
        cyd_w.write(pr.client_line(pr.CreateTable("new", "1v1", (0,))))
        assert (await answers(cyd_r, "created"))[-1]["type"] == "created"
        ann_w.close()
        cyd_w.close()
    finally:
        await server.stop()
        redis_server.stop()
