"""Several `serve --store` processes on one Redis: a table created on one server and
played from the others, the same lobby everywhere, the owner killed mid-game and the
game going on, and an action sent twice applied once (net/cluster.py)."""

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time

from test_net import _wait_for_socket
from test_store_redis import kept, serve, wait_for

from weathering_tui.cli import main as cli
from weathering_tui.engine.wire import action_to_data
from weathering_tui.net import protocol as pr
from weathering_tui.net import server_messages as msg
from weathering_tui.net.cluster import LEASE_MS
from weathering_tui.storage.redis_store import RedisStore
from weathering_tui.storage.savefile import read_save


def ask(path, *messages, want="tables", identity="probe") -> dict:
    """Say hello on a server's socket, send `messages`, return the first `want` answer."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(5)
        sock.connect(str(path))
        sock.sendall(pr.client_line(pr.Hello(pr.PROTOCOL, "test", identity=identity)))
        for message in messages:
            sock.sendall(pr.client_line(message))
        stream = sock.makefile("rb")
        end = time.monotonic() + 10
        while time.monotonic() < end:
            answer = json.loads(stream.readline())
            if answer["type"] == want:
                return answer
            assert answer["type"] != "error", answer
        raise AssertionError(f"no {want} within 10 s")


def create_on(path, name="k") -> None:
    table = pr.CreateTable(name, "2v1", (0, 1), seed=5, start_when_full=True)
    ask(path, table, want="created", identity="creator")


def player(path, seat: int, identity: str):
    command = [sys.executable, "-m", "weathering_tui", "join", "--socket", str(path)]
    command += ["--bot", "random", "--table", "k", "--seat", str(seat), "--identity", identity]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def lobby_of(path) -> list:
    tables = ask(path, pr.ListTables())["tables"]
    return sorted((t["name"], t["stage"], [s["player"] for s in t["seats"]]) for t in tables)


def servers(tmp_path, redis_url, count=3):
    paths = [tmp_path / f"s{i}.sock" for i in range(count)]
    procs = [serve(tmp_path / f"f{i}", path, redis_url) for i, path in enumerate(paths)]
    for path in paths:
        _wait_for_socket(path)
    return paths, procs


def finish(processes):
    for process in processes:
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()


async def gather(reader, pick, seconds, enough=lambda found: False) -> list:
    """`pick(message)` of each message read within `seconds` (None: left out), until
    `enough(found)`."""
    found, end = [], time.monotonic() + seconds
    while time.monotonic() < end and not enough(found):
        try:
            line = await asyncio.wait_for(reader.readline(), 0.3)
        except TimeoutError:
            continue
        picked = pick(json.loads(line))
        if picked is not None:
            found.append(picked)
    return found


def test_a_table_made_on_one_server_is_played_to_the_end_from_two_others(tmp_path, redis_url):
    paths, procs = servers(tmp_path, redis_url)
    clients = []
    try:
        create_on(paths[0])
        clients = [player(paths[1], 0, "bea"), player(paths[2], 1, "cyd")]
        store = RedisStore(redis_url)
        wait_for(lambda: len(kept(store)) >= 10)
        seen = [lobby_of(p) for p in paths]  # the same on all three (within a tick)
        wait_for(lambda: len({json.dumps(lobby_of(p)) for p in paths}) == 1, 5)
        assert any(name == "k" for name, _, _ in seen[0])
        results = [json.loads(c.communicate(timeout=120)[0]) for c in clients]
        assert results[0]["hp"] == results[1]["hp"]  # one game, seen from two servers
        save = tmp_path / "f0" / "tables" / "k.toml"  # the owner (A) wrote it
        wait_for(save.exists, 10)
        assert cli(["check", str(save)]) == 0 and read_save(save).state.over
    finally:
        finish(procs + clients)


def test_the_owner_killed_mid_game_another_server_takes_over_and_nothing_is_lost(
    tmp_path, redis_url
):
    paths, procs = servers(tmp_path, redis_url)
    clients = []
    store = RedisStore(redis_url)
    try:
        create_on(paths[0])
        clients = [player(paths[1], 0, "bea"), player(paths[2], 1, "cyd")]
        wait_for(lambda: len(kept(store)) >= 30)
        owner_key = store.key("table", "k", "owner")
        first_owner = store.redis.get(owner_key)
        os.kill(procs[0].pid, signal.SIGKILL)
        killed_at = time.monotonic()
        procs[0].wait()
        before = kept(store)  # every action anyone could have seen: in Redis
        wait_for(lambda: store.redis.get(owner_key) not in (None, first_owner), 15)
        took = time.monotonic() - killed_at
        # Taken over once the lease expired (the figure: `bench net cluster`; a loose
        # bound here, the machines are noisy), not before: the lease was the owner's.
        assert 0.5 < took < LEASE_MS / 1000 + 10, f"took over after {took:.1f} s"
        results = [json.loads(c.communicate(timeout=120)[0]) for c in clients]
        assert results[0]["hp"] == results[1]["hp"]
        found = lambda: list(tmp_path.glob("f[12]/tables/k.toml"))  # noqa: E731 - B or C
        wait_for(lambda: bool(found()), 10)
        save = found()[0]  # written by the server that finished it
        assert cli(["check", str(save)]) == 0
        final = [action_to_data(a) for a in read_save(save).actions]
        assert final[: len(before)] == before and len(final) > len(before)
    finally:
        finish(procs + clients)


def test_a_table_still_waiting_for_players_outlives_its_owner(tmp_path, redis_url):
    """Made on A, a seat taken from B, A killed before the game starts: B takes the
    table over as it was made (same seed, same seats open), seats its player again,
    and the game starts and ends when the last seat is taken."""
    paths, procs = servers(tmp_path, redis_url, count=2)
    clients = []
    store = RedisStore(redis_url)
    try:
        create_on(paths[0])
        clients = [player(paths[1], 0, "bea")]

        def seated():
            summary = store.summary("k") or {}
            return [s.get("player") for s in summary.get("seats", [])][:1] == ["bea"]

        wait_for(seated, 20)
        made = store.read_waiting("k")
        assert made is not None and made["open"] == [0, 1]
        assert store.read_save("k") is None, "not started: nothing but how it was made"
        owner_key = store.key("table", "k", "owner")
        first_owner = store.redis.get(owner_key)
        os.kill(procs[0].pid, signal.SIGKILL)
        procs[0].wait()
        wait_for(lambda: store.redis.get(owner_key) not in (None, first_owner), 15)
        wait_for(seated, 15)  # bea's seat, asked again of the new owner
        clients.append(player(paths[1], 1, "cyd"))
        results = [json.loads(c.communicate(timeout=120)[0]) for c in clients]
        assert results[0]["hp"] == results[1]["hp"]
        save = tmp_path / "f1" / "tables" / "k.toml"
        wait_for(save.exists, 10)
        assert read_save(save).setup.seed == made["seed"]
    finally:
        finish(procs + clients)


@contextlib.asynccontextmanager
async def bea_from_b(tmp_path, redis_url):
    """Two servers here: a 2v1 made on A (`create_on`), bea seated from B (forwarded),
    then cyd on A, so that it starts. Yields (owner, other, bea's reader, writer)."""
    from weathering_tui.net.server import Server

    def server(name):
        store = RedisStore(redis_url)
        return Server(tmp_path / name, tmp_path / f"{name}.sock", pace=30, grace=30, store=store)

    owner, other = server("a"), server("b")
    await owner.start()
    await other.start()
    try:
        await asyncio.to_thread(create_on, owner.socket_path)
        reader, writer = await asyncio.open_unix_connection(str(other.socket_path))
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "t", identity="bea")))
        for _ in range(50):  # the other server's lobby learns of the table
            if "k" in other.cluster.relay.remote:
                break
            await asyncio.sleep(0.1)
        writer.write(pr.client_line(pr.TakeSeat("k", 0)))  # forwarded to the owner
        for _ in range(50):  # seated at the owner's table before the last seat goes
            if owner.tables["k"].seats[0].owner == "bea":
                break
            await asyncio.sleep(0.1)
        await asyncio.to_thread(
            ask, owner.socket_path, pr.TakeSeat("k", 1), want="seated", identity="cyd"
        )
        yield owner, other, reader, writer
        writer.close()
    finally:
        await other.stop()
        await owner.stop()


async def test_an_action_sent_twice_is_applied_once(tmp_path, redis_url):
    """The same forwarded command twice (a retry): the second is refused as stale."""
    async with bea_from_b(tmp_path, redis_url) as (owner, _, reader, writer):
        table = owner.tables["k"]
        for _ in range(50):  # full: the table starts by itself
            if table.game is not None and table.game.state.pending.seat == 0:
                break
            await asyncio.sleep(0.1)
        state = table.game.state
        assert (state.pending.kind, state.pending.seat) == ("mulligan", 0)
        act = pr.Act("k", state.version, {"kind": "choose_card", "seat": 0, "card": None})
        before = len(table.game.actions)
        writer.write(pr.client_line(act))
        writer.write(pr.client_line(act))  # sent again, as a retry would be
        error = lambda m: m["code"] if m["type"] == "error" else None  # noqa: E731
        errors = await gather(reader, error, 5, enough=bool)
        assert errors == ["stale"]
        assert table.game.actions[before:].count(table.game.actions[before]) == 1


async def test_a_server_that_lost_its_channel_gets_its_players_whole_views_again(
    tmp_path, redis_url
):
    """Answers to players of other servers are published, not kept: views published
    while a server's subscription was down are gone. Subscribed again, it asks its
    players' seats again, and the owner sends them whole views."""
    import redis

    async with bea_from_b(tmp_path, redis_url) as (_, _, reader, _):

        async def whole_view(seconds) -> bool:
            """A whole view reaches bea within `seconds` (deltas are read past)."""
            whole = lambda m: True if m["type"] == "view" and m["full"] else None  # noqa: E731
            full = await gather(reader, whole, seconds, enough=bool)
            return bool(full)

        assert await whole_view(15), "the first view is whole"
        await asyncio.sleep(0.5)  # the game goes on: deltas
        killed = redis.Redis.from_url(redis_url).client_kill_filter(_type="pubsub")
        assert killed >= 1
        assert await whole_view(15), "a whole view after subscribing again"


def test_a_player_whose_server_dies_leaves_the_owners_table(tmp_path, redis_url):
    """As for a dropped connection: before the start their seat is free again (after it,
    it would wait the grace, then a bot would play it)."""
    paths, procs = servers(tmp_path, redis_url, count=2)
    try:
        create_on(paths[0])
        time.sleep(1.5)  # server B has seen the table
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(str(paths[1]))
        sock.sendall(pr.client_line(pr.Hello(pr.PROTOCOL, "test", identity="bea")))
        sock.sendall(pr.client_line(pr.TakeSeat("k", 0)))

        def seat():
            table = next(t for t in ask(paths[0], pr.ListTables())["tables"] if t["name"] == "k")
            return table["seats"][0]

        wait_for(lambda: seat()["player"] == "bea", 10)
        os.kill(procs[1].pid, signal.SIGKILL)  # bea's server dies, and her link with it
        wait_for(lambda: not seat()["player"], LEASE_MS / 1000 + 10)
        sock.close()
    finally:
        finish(procs)


def test_export_writes_a_running_table_as_a_save_that_checks(tmp_path, redis_url):
    paths, procs = servers(tmp_path, redis_url, count=1)
    clients = []
    try:
        create_on(paths[0])
        clients = [player(paths[0], 0, "bea"), player(paths[0], 1, "cyd")]
        store = RedisStore(redis_url)
        wait_for(lambda: len(kept(store)) >= 20)
        out = tmp_path / "running.toml"
        assert cli(["export", "--store", redis_url, "k", str(out)]) == 0  # by its name
        assert cli(["check", str(out)]) == 0
        assert len(read_save(out).actions) >= 20
        missing = cli(["export", "--store", redis_url, "nope", str(tmp_path / "x.toml")])
        assert missing == 1 and not (tmp_path / "x.toml").exists()
    finally:
        finish(procs + clients)


def test_a_connection_is_named_on_redis_by_a_token_never_reused(tmp_path):
    """An id() is reused once its object is freed: a new player must never be taken
    for one who left (and inherit their seat)."""
    from weathering_tui.net.server import Server

    server = Server(tmp_path / "s", tmp_path / "s.sock", store=RedisStore("redis://localhost"))

    class Conn:
        pass

    seen, ids = set(), []
    for _ in range(200):
        conn = Conn()
        ids.append(id(conn))
        token = server.cluster.relay.token(conn)
        assert token not in seen
        seen.add(token)
        del conn  # freed at once (no cycle): its id is free for the next one
    assert len(set(ids)) < len(ids), "ids were reused, as the hazard needs"


def test_a_unix_account_is_scoped_by_its_machine_id_not_only_its_host_name(tmp_path):
    """Two machines with the same host name: their users are not one another."""
    from weathering_tui.net.server import machine_name

    one, two = tmp_path / "one", tmp_path / "two"
    one.write_text("3d1219c7c4c5404aaa1f6d2a48adfda4\n")
    two.write_text("9f00aa11c4c5404aaa1f6d2a48adfda4\n")
    assert machine_name([one]) != machine_name([two])
    assert machine_name([one]) == f"{socket.gethostname()}.3d1219c7"
    assert machine_name([tmp_path / "none"]) == socket.gethostname()


class BeaOnB:
    """A table made on server A (a process, to be killed), its one seat taken by bea from
    server B (here): `async with BeaOnB(tmp_path) as t:` (t.owner, t.other, t.redis and
    t.notices(kinds, until=..., seconds=...) reading bea's notices of those kinds)."""

    def __init__(self, tmp_path):
        from helpers import RedisServer

        from weathering_tui.net.server import Server

        self.redis = RedisServer(tmp_path / "redis").start()
        self.owner = serve(tmp_path / "a", tmp_path / "a.sock", self.redis.url)
        store = RedisStore(self.redis.url)
        self.other = Server(tmp_path / "b", tmp_path / "b.sock", pace=30, grace=30, store=store)
        self.a_sock = tmp_path / "a.sock"

    async def __aenter__(self):
        _wait_for_socket(self.a_sock)
        await self.other.start()
        table = pr.CreateTable("k", "1v1", (0,), seed=5, start_when_full=True)
        await asyncio.to_thread(ask, self.a_sock, table, want="created")
        self.reader, self.writer = await asyncio.open_unix_connection(str(self.other.socket_path))
        self.writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "t", identity="bea")))
        for _ in range(50):
            if "k" in self.other.cluster.relay.remote:
                break
            await asyncio.sleep(0.1)
        self.writer.write(pr.client_line(pr.TakeSeat("k", 0)))
        return self

    async def notices(self, kinds, until=None, seconds=20.0) -> list[str]:
        def pick(message):
            return (
                message["kind"]
                if message["type"] == "notice" and message["kind"] in kinds
                else None
            )

        return await gather(self.reader, pick, seconds, enough=lambda found: until in found)

    async def __aexit__(self, *exc):
        if self.owner.poll() is None:
            self.owner.kill()
        await self.other.stop()
        self.redis.stop()


async def test_a_player_on_another_server_is_told_at_once_when_the_owner_dies(tmp_path):
    """bea plays at A's table from B. A killed: B tells her at once that the table is
    moving (A's links to Redis are closed), then that it resumes, once taken over."""
    told = ("started", "moving", "resumed")
    async with BeaOnB(tmp_path) as t:
        assert "started" in await t.notices(told, until="started")
        os.kill(t.owner.pid, signal.SIGKILL)
        t.owner.wait()
        killed = time.monotonic()
        moved = await t.notices(told, until="moving")
        told_after = time.monotonic() - killed
        assert moved[-1:] == ["moving"], moved
        assert told_after < LEASE_MS / 1000, "told before the lease runs out"
        assert (await t.notices(told, until="resumed"))[-1:] == ["resumed"]
        assert "k" in t.other.tables, "taken over by B"


async def test_a_player_on_another_server_is_told_when_redis_is_away_and_back(tmp_path):
    """Redis stopped while bea plays at A's table from B: the owner's word cannot reach
    her, so B tells her the table is paused, then that it resumes — each once."""
    told = ("paused", "resumed")
    async with BeaOnB(tmp_path) as t:
        assert await t.notices(told, seconds=3) == []  # started, playing
        t.redis.stop()
        assert await t.notices(told, seconds=3) == ["paused"]
        t.redis.start()
        later = await t.notices(told, seconds=6)
        assert later == ["resumed"], later


async def test_players_at_a_table_their_server_lost_are_told_it_is_moving(tmp_path, redis_url):
    """The lease lost (Redis away longer than it lasts, another server took the table):
    the players at this server hear that the table is moving, then see the new owner's
    table — a move made meanwhile and never written is not silently gone."""
    from weathering_tui.net.server import Server

    server = Server(
        tmp_path / "a", tmp_path / "a.sock", pace=30, grace=30, store=RedisStore(redis_url)
    )
    await server.start()
    try:
        reader, writer = await asyncio.open_unix_connection(str(server.socket_path))
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "t", identity="bea")))
        writer.write(pr.client_line(pr.CreateTable("k", "1v1", (0,), start_when_full=True)))
        writer.write(pr.client_line(pr.TakeSeat("k", 0)))
        for _ in range(50):
            if (
                server.tables.get("k") is not None
                and server.tables["k"].saves.key in server.cluster.owner.leases
            ):
                break
            await asyncio.sleep(0.1)
        table = server.tables["k"]
        server.cluster.owner.lost(table.saves.key)
        notice = lambda m: m.get("kind") if m["type"] == "notice" else None  # noqa: E731
        kinds = await gather(reader, notice, 5, enough=lambda found: "moving" in found)
        assert "moving" in kinds
        assert "k" not in server.tables
        writer.close()
    finally:
        await server.stop()


def test_a_pause_notice_reaches_every_player_of_a_remote_table_once(tmp_path, redis_url):
    """The owner's "paused" goes to each of this server's players at its table, and this
    server's own word and the owner's are not both said to any one of them (the dedupe
    was per table: the second player never heard it)."""
    from weathering_tui.net.server import Server

    server = Server(tmp_path / "b", tmp_path / "b.sock", store=RedisStore(redis_url))

    class Player:
        closed = False

        def __init__(self):
            self.tables, self.lines = {}, []

        def send(self, line):
            self.lines.append(json.loads(line)["kind"])

    players = [Player(), Player()]
    for player in players:
        server.cluster.relay.local_by_id[server.cluster.relay.token(player)] = player
    server.cluster.relay.forwarded["k"] = set(players)
    server.cluster.relay.tell("k", "k", "paused")  # Redis away, said by this server
    said = server.lobby.notice_clock.last  # then the owner's own words, said after it:
    for n, kind in enumerate(("paused", "resumed", "resumed"), start=said + 1):
        line = msg.server_line("notice", table="k", kind=kind, name="", n=n)
        for player in players:
            server.cluster.relay.deliver(server.cluster.relay.token(player), line.rstrip(b"\n"))
    assert [p.lines for p in players] == [["paused", "resumed"], ["paused", "resumed"]]
    token = server.cluster.relay.token(players[0])
    server.cluster.relay.gone(players[0])
    assert all(said[1] != token for said in server.cluster.relay.told)
