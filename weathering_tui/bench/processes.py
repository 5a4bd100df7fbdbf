"""What the server benches read of processes (/proc) and the servers they start: shared
by `server.py`, `cluster.py` and `hint_spam.py`."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User and system CPU a process has used so far (from /proc)."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def local_server(folder: Path, path: Path, *more: str, prefix: tuple = ()):
    """`weathering serve` on `path` with bots at no pace, once it listens (`prefix`:
    arguments before `-m`, a profiler's say)."""
    server = subprocess.Popen(
        [sys.executable, *prefix, "-m", "weathering_tui", "serve", "--socket", str(path)]
        + ["--saves-dir", str(folder), "--pace", "0", *more],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(200):
        if path.exists():
            break
        time.sleep(0.05)
    return server


def ssh_server(folder: Path, path: Path, port: int, sessions: int, *more: str):
    """`weathering serve` with its SSH door on loopback `port`, once it listens."""
    door = ("--ssh", f"127.0.0.1:{port}", "--max-ssh", str(sessions))
    pace = ("--pace", "0.6")  # (the server's own; `more` may say otherwise)
    server = local_server(folder, path, *pace, *door, "--max-ssh-per-key", str(sessions), *more)
    time.sleep(0.5)
    return server


async def two_tables(path: Path) -> None:
    from ..net import protocol as pr

    reader, writer = await asyncio.open_unix_connection(str(path))
    writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "bench", identity="bench-host")))
    for name in ("bench-a", "bench-b"):
        writer.write(pr.client_line(pr.CreateTable(name, "1v1", (0, 1))))
    await writer.drain()
    await asyncio.sleep(0.3)
    writer.close()
