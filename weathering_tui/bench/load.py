"""A load generator for throughput benches: random players speaking the wire protocol.

The headless client (`net.headless`, what `weathering join --bot` runs) structures a
whole View from every message and asks a bot; at full speed that costs about as much
CPU as the server it talks to (0.8 ms per action, measured), and on a 2-core machine
the clients would then be what a throughput figure measures. A `LeanSeat` keeps of a
view only its version, its `legal` list (the actions in wire form, sent back as they
came) and whether the game is over, and picks an action at random (`lean_seat`).
Latency figures still come from the real client.
"""

from __future__ import annotations

import asyncio
import random
import resource

import orjson

from ..net import protocol as pr

RETRY = ("stale", "rate_limited", "paused", "illegal")


async def lean_seat(path, table: str, seat: int, identity: str, seed: int) -> int:
    """Play `seat` of `table` at random until the game is over; the actions it made
    that were applied (sent, less those refused)."""
    reader, writer = await asyncio.open_unix_connection(str(path), limit=pr.MAX_LINE * 4)
    writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "bench", identity=identity)))
    writer.write(pr.client_line(pr.TakeSeat(table, seat, "")))
    rng = random.Random(seed)
    legal: list = []
    decision = 0  # a new `legal` list is a new decision, even at the same version (a
    version = -1  # pass in a reaction window moves no version)
    acted = None
    applied = 0
    try:
        while True:
            line = await reader.readline()
            if not line:
                raise RuntimeError(f"{table}: the server closed the connection")
            message = orjson.loads(line)
            kind = message.get("type")
            if kind == "error":
                if message.get("code") not in RETRY:
                    raise RuntimeError(f"{table}: {message.get('code')}")
                applied -= 1
                acted = None  # decide again on the newest view, a moment later
                await asyncio.sleep(0.05)
            elif kind != "view" or message.get("table") != table:
                continue
            else:
                view = message["view"]
                version = message["version"]
                if "legal" in view:
                    legal, decision = view["legal"], decision + 1
                if view.get("outcome") is not None:
                    return applied
            if legal and acted != (version, decision):
                acted = (version, decision)
                action = rng.choice(legal)
                writer.write(pr.client_line(pr.Act(table, version, action)))
                applied += 1
    finally:
        writer.close()


def lean_tables(path, names: list[str], seats: int = 2) -> tuple[int, float]:
    """Every seat of these tables played by `lean_seat`, in this process: the actions
    applied and this process's CPU seconds."""

    async def run():
        return await asyncio.gather(
            *(
                lean_seat(path, name, s, f"{name}-{s}", hash((name, s)) & 0xFFFF)
                for name in names
                for s in range(seats)
            )
        )

    before = resource.getrusage(resource.RUSAGE_SELF)
    applied = sum(asyncio.run(run()))
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return applied, cpu
