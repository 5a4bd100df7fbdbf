"""`python -m weathering_tui.net.bench [TABLES] [SEATS]`: the table server under load.

Starts `weathering serve` as its own process, then TABLES tables of SEATS headless bot
players (all seats human, so every action goes through the socket), and prints the
latency from an action sent to the next view received (median and 95th percentile),
the server's memory, and a headless client's. Figures, not assertions.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .headless import play_seat

CONFIG_FOR = {2: "1v1", 3: "2v1", 4: "2v2", 5: "3v2"}


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def load(path: Path, tables: int, seats: int, pace_games: float) -> list[float]:
    latencies: list[float] = []
    config = CONFIG_FOR[seats]
    players = []
    for t in range(tables):
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


def main(argv: list[str]) -> int:
    tables = int(argv[0]) if argv else 10
    seats = int(argv[1]) if len(argv) > 1 else 5
    folder = Path(tempfile.mkdtemp(prefix="weathering-bench-"))
    path = folder / "s.sock"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "weathering_tui",
            "serve",
            "--socket",
            str(path),
            "--saves-dir",
            str(folder),
            "--pace",
            "0",
            "--max-tables",
            str(tables + 1),
            "--max-connections",
            str(tables * seats + 16),
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            if path.exists():
                break
            time.sleep(0.05)
        idle = rss_mib(server.pid)
        started = time.perf_counter()
        latencies = asyncio.run(load(path, tables, seats, 900))
        seconds = time.perf_counter() - started
        peak = rss_mib(server.pid)
        ms = sorted(x * 1000 for x in latencies)
        print(f"{tables} tables × {seats} seats, every seat a client over the socket")
        print(f"  {len(ms)} actions in {seconds:.1f} s ({len(ms) / seconds:.0f} actions/s)")
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


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
