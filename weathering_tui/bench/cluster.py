"""Servers on one Redis: `python -m weathering_tui.bench net cluster [TABLES]`.

Starts its own Redis-compatible server (storage/redis_server.py; AOF, fsync always)
in a temporary folder and `serve --store` processes, then prints, in one run:

- the latency from an action to the next view for players on the table's owner, and
  for players on another server (their actions forwarded, the views relayed);
- the actions per second of TABLES tables on one server, and of TABLES tables spread
  over two servers (lean random players in processes of their own: `load.py`), the
  CPU each part used per action (servers, Redis, players), and the most the machine's
  cores would allow two servers at those costs (cores ÷ the two-server run's CPU per
  action, over the one-server rate): on 2 cores, where Redis and the players take
  their share, that ceiling is what a figure is to be read against;
- the time from `kill -9` of a table's owner to another server holding its lease.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..net import protocol as pr
from ..net.headless import play_seat
from ..storage.redis_server import NEEDED, server_binary
from .load import lean_tables
from .processes import cpu_seconds, local_server

ROUNDS = 4  # games played for each latency figure, players on A and on B in turns


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _redis(folder: Path) -> tuple[subprocess.Popen, str]:
    binary = server_binary()
    if binary is None:
        raise SystemExit(f"bench cluster: {NEEDED}")
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder)]
        + ["--appendonly", "yes", "--appendfsync", "always", "--save", ""],
        stdout=subprocess.DEVNULL,
    )
    import redis

    client = redis.Redis(port=port)
    for _ in range(200):
        try:
            client.ping()
            break
        except redis.RedisError:
            time.sleep(0.05)
    return process, f"redis://127.0.0.1:{port}/0"


def _serve(folder: Path, path: Path, url: str) -> subprocess.Popen:
    more = ("--store", url, "--max-tables", "200", "--max-connections", "1000")
    return local_server(folder, path, *more)


def _create(path: Path, name: str, seats: int = 2) -> None:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(str(path))
        sock.sendall(pr.client_line(pr.Hello(pr.PROTOCOL, "bench", identity=f"{name}-host")))
        table = pr.CreateTable(name, "1v1", tuple(range(seats)), seed=7, start_when_full=True)
        sock.sendall(pr.client_line(table))
        stream = sock.makefile("rb")
        while json.loads(stream.readline())["type"] != "created":
            pass


async def _players(path: Path, names: list[str], seats: int = 2) -> list[float]:
    latencies: list[float] = []
    await asyncio.gather(
        *(
            play_seat(name, s, "random", path, identity=f"{name}-{s}", latencies=latencies)
            for name in names
            for s in range(seats)
        )
    )
    return latencies


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(len(ordered) * 0.95)] if ordered else 0.0
    return f"median {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms"


def _load_part(args) -> tuple[int, float]:
    """Tables made on one server and played there by lean random players (the load
    generator: `load.py`): the actions applied and this process's CPU seconds."""
    path, first, last = args
    names = [f"t{i}" for i in range(first, last)]
    for name in names:
        _create(path, name)
    return lean_tables(path, names)


def _throughput(parts: list[tuple[Path, int, int]], watched: dict[str, int]) -> dict:
    """Actions per second with the clients of each part in a process of its own, and
    the CPU each watched process (and the clients) used per action."""
    import multiprocessing

    before = {name: cpu_seconds(pid) for name, pid in watched.items()}
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(len(parts)) as pool:
        results = pool.map(_load_part, parts)
    seconds = time.perf_counter() - started
    actions = max(1, sum(n for n, _ in results))
    cpu = {name: (cpu_seconds(pid) - before[name]) / actions for name, pid in watched.items()}
    cpu["clients"] = sum(c for _, c in results) / actions
    return {"rate": actions / seconds, "cpu": cpu, "actions": actions}


def _cpu_line(cpu: dict) -> str:
    return ", ".join(f"{name} {ms * 1000:.2f}" for name, ms in cpu.items() if ms * 1000 >= 0.005)


def bench_cluster(tables: int = 6) -> int:
    folder = Path(tempfile.mkdtemp(prefix="weathering-cluster-"))
    redis_process, url = _redis(folder)
    paths = [folder / "a.sock", folder / "b.sock"]
    servers = [_serve(folder / n, p, url) for n, p in zip("ab", paths, strict=True)]
    try:
        time.sleep(1.5)  # each server has read the lobby once
        for i in range(ROUNDS):
            _create(paths[0], f"near{i}")
            _create(paths[0], f"far{i}")
        time.sleep(1.5)  # the other server has seen the tables
        near: list[float] = []
        far: list[float] = []
        for i in range(ROUNDS):  # in turns, so that a noisy moment weighs on both
            near += asyncio.run(_players(paths[0], [f"near{i}"]))
            far += asyncio.run(_players(paths[1], [f"far{i}"]))
        print(f"action → next view, {ROUNDS} games of 1v1 (two headless players), on server A:")
        print(f"  players on A (the owner):       {_ms(near)} ({len(near)} actions)")
        print(f"  players on B (forwarded to A):  {_ms(far)} ({len(far)} actions)")
        extra = (statistics.median(far) - statistics.median(near)) * 1000
        print(f"  extra for a player on another server: {extra:.2f} ms (median)")

        half = tables // 2
        watched = {"server A": servers[0].pid, "server B": servers[1].pid}
        watched["redis"] = redis_process.pid
        one = _throughput(
            [(paths[0], 100, 100 + half), (paths[0], 100 + half, 100 + tables)], watched
        )
        two = _throughput(
            [(paths[0], 200, 200 + half), (paths[1], 200 + half, 200 + tables)], watched
        )
        ratio = two["rate"] / one["rate"]
        print(f"{tables} tables of 1v1, lean random players (load.py) in 2 processes:")
        print(f"  on one server:  {one['rate']:.0f} actions/s")
        print(f"  on two servers: {two['rate']:.0f} actions/s ({ratio:.2f}×)")
        print(f"  CPU per action, one server (ms):  {_cpu_line(one['cpu'])}")
        print(f"  CPU per action, two servers (ms): {_cpu_line(two['cpu'])}")
        # What no scheduling could beat: every part of the two-server run on all cores.
        cores = os.cpu_count() or 1
        ceiling = cores / sum(two["cpu"].values()) / one["rate"]
        print(f"  the most {cores} cores allow two servers at these costs: {ceiling:.2f}×")

        _create(paths[0], "orphan")
        time.sleep(1.5)
        players = [
            subprocess.Popen(
                [sys.executable, "-m", "weathering_tui", "join", "--socket", str(paths[1])]
                + ["--bot", "random", "--table", "orphan", "--seat", str(s)]
                + ["--identity", f"orphan-{s}"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for s in range(2)
        ]
        import redis

        client = redis.Redis.from_url(url)
        owner_key = "weathering:table:orphan:owner"
        journal = "weathering:table:orphan:journal"
        end = time.monotonic() + 30
        while client.xlen(journal) < 30 and time.monotonic() < end:
            time.sleep(0.005)  # mid-game: 30 actions in
        first = client.get(owner_key)
        os.kill(servers[0].pid, signal.SIGKILL)
        killed = time.monotonic()
        while client.get(owner_key) in (None, first) and time.monotonic() - killed < 20:
            time.sleep(0.01)
        took = time.monotonic() - killed
        finished = all(p.wait(120) == 0 for p in players)
        print(f"kill -9 of the owner → another server holds the table: {took:.2f} s")
        print(f"  the game finished on the other server: {'yes' if finished else 'NO'}")
    finally:
        for process in servers + [redis_process]:
            if process.poll() is None:
                process.kill()
                process.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return 0
