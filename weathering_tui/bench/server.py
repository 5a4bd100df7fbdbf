"""`python -m weathering_tui.bench net [TABLES] [SEATS] [PROCESSES]`: the server under load;
`python -m weathering_tui.bench net ssh [PLAYERS]`: the SSH door; `… hints`: hint spam
(`hint_spam.py`).
`python -m weathering_tui.bench net floor [GAMES]`: the least an action costs (`floor.py`).
`python -m weathering_tui.bench net cluster [TABLES]`: servers on one Redis (`cluster.py`).
`python -m weathering_tui.bench net windows [GAMES] [ANSWER_SECONDS]`: what reaction
windows cost a 3v2 with three humans (`windows.py`).
`python -m weathering_tui.bench net churn [SECONDS]`: a local user's connect loop beside
a player's game (`churn.py`, as root).

Starts `weathering serve` as its own process, then TABLES tables of SEATS headless bot
players (all seats human, so every action goes through the socket), and prints the
latency from an action sent to the next view received (median and 95th percentile),
the server's CPU per action (its own CPU seconds over the actions it applied, the
journal's fsyncs included), its memory, and a headless client's. The clients run in
PROCESSES processes (4). Figures, not assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..net.headless import play_seat
from .processes import cmdline, cpu_split, local_server, pids, rss_mib, ssh_server, two_tables

CONFIG_FOR = {2: "1v1", 3: "2v1", 4: "2v2", 5: "3v2"}


def table_actions(folder: Path) -> int:
    """Actions the server applied, from its tables' saves and journals."""
    from ..storage.journal import read_table

    return sum(len(read_table(path).actions) for path in folder.glob("*.toml"))


def _load_part(args) -> list[float]:
    path, first, last, seats, timeout = args
    return asyncio.run(load(path, range(first, last), seats, timeout))


def spread(path: Path, tables: int, seats: int, timeout: float, processes: int) -> list[float]:
    """The clients of `tables` tables spread over `processes` processes (each its own
    event loop), so that the clients are not what the figures measure."""
    import multiprocessing

    processes = max(1, min(processes, tables))
    bounds = [round(tables * i / processes) for i in range(processes + 1)]
    parts = [(path, bounds[i], bounds[i + 1], seats, timeout) for i in range(processes)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        return [x for part in pool.map(_load_part, parts) for x in part]


async def load(path: Path, tables, seats: int, pace_games: float) -> list[float]:
    latencies: list[float] = []
    config = CONFIG_FOR[seats]
    players = []
    for t in tables:
        name = f"bench{t}"
        players.append(
            play_seat(
                name,
                0,
                "random",
                path,
                create=config,
                humans=seats,
                identity=f"{name}-0",
                latencies=latencies,
                seed=t,
            )
        )
        players += [
            play_seat(name, s, "random", path, identity=f"{name}-{s}", latencies=latencies)
            for s in range(1, seats)
        ]
    await asyncio.wait_for(asyncio.gather(*players), pace_games)
    return latencies


async def _local_pty_keys(path: Path, Term, wait) -> list[float]:  # noqa: N803 - a class
    """The lobby's keys in a `weathering join` on a local pty, the same screen."""
    import fcntl
    import pty
    import struct
    import termios

    from .term import arrows

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    child = subprocess.Popen(
        [sys.executable, "-m", "weathering_tui", "join", "--socket", str(path), "--lang", "en"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    term = Term()
    loop = asyncio.get_running_loop()

    def readable():
        try:
            term.data_received(os.read(master, 65536), None)
        except OSError:
            loop.remove_reader(master)

    loop.add_reader(master, readable)
    try:
        await wait(term, lambda t: "bench-b" in t)
        return await arrows(lambda data: os.write(master, data), term, wait)
    finally:
        loop.remove_reader(master)
        child.kill()
        child.wait()
        os.close(master)


async def ssh_figures(port: int, key, players: int, path: Path) -> None:
    """Connect `players` SSH sessions (pty 80×24): time to the first lobby frame; then
    key → repaint (n opens a dialog, Escape closes it), measured on the first one."""
    from .term import Term, arrows, open_term, wait

    sessions, connects = [], []
    for _ in range(players):
        started = time.perf_counter()
        conn, chan, term = await open_term(port, key)
        await wait(term, lambda t: "tables" in t)
        connects.append((time.perf_counter() - started) * 1000)
        sessions.append((conn, chan, term))
    conn, chan, term = sessions[0]
    dialogs = []
    await wait(term, lambda t: "bench-b" in t)

    keys = await arrows(chan.write, term, wait)
    for _ in range(10):  # n opens a dialog (a new screen), Escape closes it
        for key_bytes, test in ((b"n", lambda t: "2v1" in t), (b"\x1b", lambda t: "2v1" not in t)):
            started = time.perf_counter()
            chan.write(key_bytes)
            await wait(term, test)
            dialogs.append((time.perf_counter() - started) * 1000)
    joins = [pid for pid in pids() if b"weathering_tui\x00join" in cmdline(pid)]
    memory = [rss_mib(pid) for pid in joins]
    print(f"{players} SSH sessions (asyncssh client, pty 80x24, loopback)")
    print(
        f"  connect → first lobby frame: median {statistics.median(connects):.0f} ms, "
        f"max {max(connects):.0f} ms"
    )
    print(
        f"  key → repaint through SSH (↓/↑ in the lobby): median {statistics.median(keys):.1f}"
        f" ms, p95 {sorted(keys)[int(len(keys) * 0.95)]:.1f} ms"
    )
    print(f"  key → a dialog opened or closed: median {statistics.median(dialogs):.1f} ms")
    local = await _local_pty_keys(path, Term, wait)
    ratio = statistics.median(keys) / statistics.median(local)
    print(
        f"  the same keys on a local pty (weathering join, no SSH): median "
        f"{statistics.median(local):.1f} ms; through the door / local: {ratio:.2f}×"
    )
    if memory:
        print(f"  memory of one player's join process: {statistics.median(memory):.1f} MiB")
    for conn, _, _ in sessions:
        conn.close()


def bench_ssh(players: int) -> int:
    import asyncssh

    folder = Path(tempfile.mkdtemp(prefix="weathering-bench-"))
    path, port = folder / "s.sock", 22000 + os.getpid() % 1000
    server = ssh_server(folder, path, port, players + 4)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        asyncio.run(two_tables(path))
        asyncio.run(ssh_figures(port, key, players, path))
        print(f"  server memory: {rss_mib(server.pid):.1f} MiB")
    finally:
        server.terminate()
        server.wait()
    return 0


def main(argv: list[str]) -> int:
    from ..argline import Parser, count

    parser = Parser(
        prog="python -m weathering_tui.bench net",
        description="The table server under load, printing figures. tables [TABLES SEATS "
        "PROCESSES] (the default: headless players over the socket); cluster [TABLES] (two "
        "servers on one Redis); windows [TABLES SECONDS] (reaction windows); floor [TABLES] "
        "(the server's parts alone); ssh [PLAYERS] (players through the SSH door); hints "
        "[KEYS_PER_SECOND ROUNDS] (one player spamming h, another's keys through SSH); churn "
        "[SECONDS] (a local user's connect loop beside a player's game; as root).",
    )
    kinds = ("tables", "cluster", "windows", "floor", "ssh", "hints", "churn")
    parser.add_argument("which", nargs="?", default="tables", choices=kinds)
    parser.add_argument("numbers", nargs="*", help="the figures above, in that order")
    if argv and argv[0][:1].isdigit():  # the old form: TABLES SEATS PROCESSES
        argv = ["tables", *argv]
    args = parser.parse_args(argv)
    limits = {"tables": 3, "cluster": 1, "windows": 2, "floor": 1, "ssh": 1, "hints": 2}
    limits["churn"] = 1
    if len(args.numbers) > limits[args.which]:
        parser.error(f"{args.which} takes at most {limits[args.which]} numbers")
    numbers: list = []
    for i, text in enumerate(args.numbers):
        try:
            numbers.append(float(text) if args.which == "windows" and i == 1 else count(text))
        except (ValueError, TypeError, argparse.ArgumentTypeError) as problem:
            parser.error(str(problem) or f"expected a number, got {text!r}")

    def number(i: int, default):
        return numbers[i] if len(numbers) > i else default

    if args.which == "cluster":
        from .cluster import bench_cluster

        return bench_cluster(number(0, 6))
    if args.which == "windows":
        from .windows import bench_windows

        return bench_windows(number(0, 20), number(1, 1.5))
    if args.which == "floor":
        from .floor import bench_floor

        return bench_floor(number(0, 20))
    if args.which == "ssh":
        return bench_ssh(number(0, 4))
    if args.which == "churn":
        from .churn import bench_churn

        return bench_churn(number(0, 20))
    if args.which == "hints":
        from .hint_spam import bench_hints

        return bench_hints(number(0, 30), number(1, 30))
    return bench_tables(number(0, 10), number(1, 5), number(2, 4))


def bench_tables(tables: int, seats: int, processes: int) -> int:
    folder = Path(tempfile.mkdtemp(prefix="weathering-bench-"))
    path = folder / "s.sock"
    # WEATHERING_BENCH_PROFILE=FILE: the server runs under cProfile and leaves its
    # figures in FILE when the bench stops it (read them with `python -m pstats FILE`).
    profile = os.environ.get("WEATHERING_BENCH_PROFILE")
    profiler = ["-m", "cProfile", "-o", profile] if profile else []
    server = local_server(
        folder,
        path,
        "--max-tables",
        str(tables + 1),
        "--max-connections",
        str(tables * seats + 16),
        prefix=tuple(profiler),
    )
    try:
        idle = rss_mib(server.pid)
        user_before, system_before = cpu_split(server.pid)
        started = time.perf_counter()
        latencies = spread(path, tables, seats, 900, processes)
        seconds = time.perf_counter() - started
        user, system = cpu_split(server.pid)
        user, system = user - user_before, system - system_before
        cpu = user + system
        peak = rss_mib(server.pid)
        actions = table_actions(folder / "tables")
        ms = sorted(x * 1000 for x in latencies)
        print(
            f"{tables} tables × {seats} seats, every seat a client over the socket "
            f"({processes} client processes)"
        )
        print(f"  {actions} actions in {seconds:.1f} s ({actions / seconds:.0f} actions/s)")
        per = 1000 / max(1, actions)
        print(
            f"  server CPU per action: {cpu * per:.3f} ms "
            f"(user {user * per:.3f} ms, system {system * per:.3f} ms)"
        )
        print(
            f"  action → next view: median {statistics.median(ms):.1f} ms, "
            f"p95 {ms[int(len(ms) * 0.95)]:.1f} ms, max {ms[-1]:.1f} ms"
        )
        print(f"  server memory: {idle:.1f} MiB idle, {peak:.1f} MiB with the tables")
        clients = rss_mib(os.getpid())
        print(f"  this process (all {tables * seats} headless clients): {clients:.1f} MiB")
    finally:
        server.terminate()
        server.wait()
    return 0
