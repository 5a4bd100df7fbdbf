"""`python -m weathering_tui.bench net churn [SECONDS]`: one local user opens and closes
connections in a loop while a player plays a 1v1 through the same server; prints that
player's move → view latency and how many new connections a third client gets
welcomed, quiet and under the flood (net/listener.py says what they were before).

The flood must come from another uid than the server's (the server's own user is
limited per identity, not per uid): run as root, the flooding child takes the uid of
`nobody`. Figures, not assertions.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pwd
import random
import socket
import statistics
import tempfile
import time
from pathlib import Path

import orjson

from ..net import protocol as pr
from .processes import local_server


def _flood(path: str, seconds: float, uid: int, gid: int) -> None:
    os.setgid(gid)
    os.setuid(uid)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        client = socket.socket(socket.AF_UNIX)
        with contextlib.suppress(OSError):
            client.connect(path)
        client.close()


async def _moves(path: Path, who: str, seconds: float, seated=None) -> list[float]:
    """A player's 1v1s against a bot for `seconds`: each move's time to its view.
    `seated()` once the player is welcomed (the flood starts then: a connect that
    finds the server's queue full fails at once)."""
    reader, writer = await asyncio.open_unix_connection(str(path), limit=1 << 24)
    writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "bench", identity=who)))
    await reader.readline()
    if seated is not None:
        seated()
        await asyncio.sleep(1)
    rtts: list[float] = []
    deadline = time.monotonic() + seconds
    game = 0
    while time.monotonic() < deadline:
        game += 1
        name = f"{who[-8:]}-{game}"
        writer.write(pr.client_line(pr.CreateTable(name, "1v1", (0,), start_when_full=True)))
        writer.write(pr.client_line(pr.TakeSeat(name, 0)))
        rng, sent, acted, decision, legal = random.Random(game), None, None, 0, []
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = await asyncio.wait_for(reader.readline(), left)
            except TimeoutError:
                break
            message = orjson.loads(line)
            if message.get("type") == "error":
                acted = sent = None
                await asyncio.sleep(0.02)
                continue
            if message.get("type") != "view" or message.get("table") != name:
                continue
            if sent is not None:
                rtts.append(time.perf_counter() - sent)
                sent = None
            view = message["view"]
            if view.get("outcome") is not None:
                break
            if "legal" in view:
                legal, decision = view["legal"], decision + 1
            if legal and acted != (message["version"], decision):
                acted = (message["version"], decision)
                await asyncio.sleep(0.005)  # (a player's pace, not a flood of its own)
                sent = time.perf_counter()
                act = pr.Act(name, message["version"], rng.choice(legal))
                writer.write(pr.client_line(act))
    writer.close()
    return rtts


def _welcomed(path: Path, tries: int) -> int:
    """New connections that get their welcome within 2 s each."""
    ok = 0
    for i in range(tries):
        client = socket.socket(socket.AF_UNIX)
        client.settimeout(2)
        try:
            client.connect(str(path))
            client.sendall(pr.client_line(pr.Hello(pr.PROTOCOL, "bench", identity=f"new{i}")))
            ok += b"welcome" in client.recv(4096)
        except OSError:
            pass
        client.close()
    return ok


def bench_churn(seconds: int) -> int:
    if os.geteuid() != 0:
        print("bench net churn: run as root (the flood takes the uid of nobody)")
        return 1
    nobody = pwd.getpwnam("nobody")
    folder = Path(tempfile.mkdtemp(prefix="weathering-churn-"))
    os.chmod(folder, 0o755)
    path = folder / "s.sock"
    server = local_server(folder, path, "--max-tables", "200")
    try:
        time.sleep(0.3)
        os.chmod(path, 0o666)  # (the bench's flood is another user)
        for label, flood in (("quiet", False), ("a local user's connect loop", True)):
            context = multiprocessing.get_context("fork")
            args = (str(path), seconds + 60, nobody.pw_uid, nobody.pw_gid)
            children = [context.Process(target=_flood, args=args, daemon=True)] if flood else []
            start = children[0].start if children else None
            rtts = asyncio.run(_moves(path, f"bench-{flood}", seconds, start))
            welcomed = _welcomed(path, 50)
            for child in children:
                child.kill()
            ms = sorted(x * 1000 for x in rtts) or [float("nan")]
            print(
                f"{label}: a player's move → view median {statistics.median(ms):.1f} ms, "
                f"p90 {ms[int(len(ms) * 0.9)]:.1f} ms ({len(rtts)} moves in {seconds} s); "
                f"new connections welcomed {welcomed} of 50"
            )
    finally:
        server.terminate()
        server.wait()
    return 0
