"""Tables kept in Redis (`serve --store`): the journal as a stream, the save as a key,
a server killed and another one (with another folder) finishing the game from Redis,
and Redis itself stopped and started again in the middle of a game."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from helpers import RedisServer
from test_net import _wait_for_socket

from weathering_tui.cli import main as cli
from weathering_tui.engine import actions as act
from weathering_tui.engine.wire import action_to_data
from weathering_tui.storage.journal import read_table
from weathering_tui.storage.redis_store import RedisStore, StoreError, parse_url
from weathering_tui.storage.savefile import read_save


def test_a_journal_in_a_stream_appends_reads_and_compacts_in_one_transaction(redis_url):
    store = RedisStore(redis_url)
    journal = store.journal("t")
    assert journal.length == 0 and journal.entries() == []
    journal.append(0, [act.Draw(0), act.EndTurn(0)])
    journal.append(2, [act.Pass(1)])
    assert journal.length == 3
    assert [n for n, _ in journal.entries()] == [0, 1, 2]
    assert journal.entries()[2][1] == action_to_data(act.Pass(1))
    store.write_save("t", b"save text")
    assert store.read_save("t") == b"save text" and store.names() == ["t"]
    assert store.journal("t").entries() == []  # the save holds it all now


def test_a_bad_store_url_or_a_store_that_does_not_answer_is_said_plainly(tmp_path, capsys):
    with pytest.raises(StoreError):
        parse_url("http://example")
    code = cli(["serve", "--saves-dir", str(tmp_path), "--store", "redis://127.0.0.1:1/0"])
    assert code == 1
    err = capsys.readouterr().err
    assert "--store" in err and "Redis at redis://127.0.0.1:1/0" in err
    assert "Traceback" not in err


def serve(folder, path, store):
    return subprocess.Popen(
        [sys.executable, "-m", "weathering_tui", "serve", "--socket", str(path)]
        + ["--saves-dir", str(folder), "--store", store, "--pace", "0.03", "--grace", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def players(path):
    join = [sys.executable, "-m", "weathering_tui", "join", "--socket", str(path), "--bot"]
    first = ["random", "--table", "k", "--seat", "0", "--create", "2v1", "--humans", "2"]
    return [
        subprocess.Popen(
            join + first + ["--identity", "a"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        ),
        subprocess.Popen(
            join + ["random", "--table", "k", "--seat", "1", "--identity", "b"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ),
    ]


def kept(store: RedisStore, name="k") -> list:
    """The table's actions as Redis holds them: its save and its stream."""
    raw = store.read_save(name)
    if raw is None:
        return []
    game = read_table(f"{name}.toml", raw=raw, journal=store.journal(name))
    return [action_to_data(a) for a in game.actions]


def wait_for(test, limit=60.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if test():
            return
        time.sleep(0.05)
    raise AssertionError("never happened")


def test_a_killed_server_and_another_with_another_folder_finish_the_game_from_redis(
    tmp_path, redis_url
):
    path = tmp_path / "s.sock"
    store = RedisStore(redis_url)
    first = serve(tmp_path / "a", path, redis_url)
    second = None
    clients = []
    try:
        _wait_for_socket(path)
        clients = players(path)
        wait_for(lambda: len(kept(store)) >= 30)
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        before = kept(store)
        assert 30 <= len(before) < 150  # mid-game
        assert not list((tmp_path / "a" / "tables").glob("*.toml"))  # Redis kept it all
        second = serve(tmp_path / "b", path, redis_url)  # another folder: nothing on disk
        results = [json.loads(p.communicate(timeout=120)[0]) for p in clients]
        assert results[0]["hp"] == results[1]["hp"]
        save = tmp_path / "b" / "tables" / "k.toml"
        wait_for(save.exists, 10)
        assert cli(["check", str(save)]) == 0  # the finished game as the usual TOML save
        final = read_save(save)
        assert final.state.over
        after = [action_to_data(a) for a in final.actions]
        assert after[: len(before)] == before and len(after) > len(before)
    finally:
        for process in [first, second, *clients]:
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()


def test_redis_stopped_and_started_again_pauses_the_table_and_loses_nothing(tmp_path):
    redis_server = RedisServer(tmp_path / "redis").start()
    path = tmp_path / "s.sock"
    store = RedisStore(redis_server.url)
    server = serve(tmp_path / "a", path, redis_server.url)
    clients = []
    try:
        _wait_for_socket(path)
        clients = players(path)
        wait_for(lambda: len(kept(store)) >= 20)
        redis_server.stop()  # a clean stop: AOF, fsync'd at every write
        time.sleep(2.5)  # the table is paused meanwhile; nothing is shown unwritten
        assert all(p.poll() is None for p in clients)  # nobody gave up or crashed
        redis_server.start()
        results = [json.loads(p.communicate(timeout=120)[0]) for p in clients]
        assert results[0]["hp"] == results[1]["hp"]
        save = tmp_path / "a" / "tables" / "k.toml"
        wait_for(save.exists, 10)
        assert cli(["check", str(save)]) == 0
        assert read_save(save).state.over
    finally:
        for process in [server, *clients]:
            if process.poll() is None:
                process.kill()
                process.wait()
        output = server.stdout.read().decode() if server.stdout else ""
        redis_server.stop()
    assert "journal" in output and "Traceback" not in output  # it said what failed


async def test_a_finished_table_dropped_from_the_lobby_leaves_redis_within_a_week(
    tmp_path, redis_url
):
    """Swept from the lobby, a finished table's streams and summary go at once; its save
    and journal stay a week for `export`, then expire (the TOML file stays)."""
    import asyncio

    import redis
    from helpers import running_server

    from weathering_tui.net.cluster_base import FINISHED_KEPT_S
    from weathering_tui.net.headless import play_seat

    store = RedisStore(redis_url)
    async with running_server(tmp_path, store=store) as server:
        await play_seat("k", 0, "random", server.socket_path, create="1v1", seed=2, timeout=60)
        table = server.tables["k"]
        assert table.over
        client = redis.Redis.from_url(redis_url)
        save, summary = (
            store.key("table", table.saves.key, "save"),
            store.key("table", table.saves.key, "summary"),
        )
        for _ in range(50):  # the finished save reaches the store
            if client.exists(save) and client.exists(summary):
                break
            await asyncio.sleep(0.1)
        assert client.ttl(save) == -1, "kept while the table is listed"
        server.lobby.forget(table)
        server.cluster.forget(table)
        for _ in range(50):
            if client.ttl(save) > 0:
                break
            await asyncio.sleep(0.1)
        assert 0 < client.ttl(save) <= FINISHED_KEPT_S
        assert not client.exists(summary)
        assert not client.sismember(store.key("tables"), table.saves.key)
    assert (tmp_path / "saves" / "tables" / f"{table.saves.key}.toml").exists()
