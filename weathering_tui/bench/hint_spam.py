"""`python -m weathering_tui.bench net hints [KEYS_PER_SECOND] [ROUNDS]`: one player
asking for hints as fast as a keyboard repeats, and what it costs another player.

Starts `weathering serve --ssh` and two SSH sessions (asyncssh client, loopback). The
other player sits in the lobby and presses ↓/↑ (one pane repaints): ms from each key to
the screen that shows it, as `bench ssh` measures it. The spammer holds seat 0 of a 1v1
with hints, on its turn (brought there over the socket under its key's identity, then
taken by its SSH session). In one run, one phase after another, each of ROUNDS ↓/↑
pairs (30):

- nobody spams (the baseline);
- h held: h at KEYS_PER_SECOND (30, a fast key repeat);
- h then Escape, again and again: each h a new hint, each Escape stopping it (Escape
  is followed by the 0.12 s a terminal app waits to tell a lone Escape from Alt+key);
- nobody spams again (the baseline after: how much the machine drifted meanwhile).

It prints each phase's median and p95, its ratio to the first baseline, and the CPU the
spammer's join process (where its hints are computed, at nice 10) and the server used
over the phase (one whole hint costs about 0.7 s of CPU; h held computes one, then its
dialog stays open and takes the h's). The
machine's load is printed before and after: on a shared machine, say what ran.
Figures, not assertions.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from ..bots import BOTS
from ..net.client import TableClient
from .processes import cmdline, cpu_seconds, pids, ssh_server, two_tables

TABLE = "bench-h"
ESCAPE_WAIT = 0.12  # after a lone Escape (Textual's ESCDELAY is 0.1 s)


async def seat_at_turn(path: Path, identity: str) -> None:
    """The spammer's table: a 1v1 with hints, seat 0 held by `identity`, played (a random
    bot, the other seat a bot of the server) until seat 0's turn; then the link closes,
    the seat stays `identity`'s."""
    from ..net import protocol as pr
    from ..net import server_messages as msg

    loop = asyncio.get_running_loop()
    done = loop.create_future()
    bot = BOTS["random"](seed=1)
    acted: list = [None]

    def on_event(message) -> None:
        if isinstance(message, msg.Welcome):
            table = pr.CreateTable(TABLE, "1v1", (0,), seed=3, start_when_full=True, hints=True)
            client.send(table)
            client.take_seat(TABLE, 0)
        view = client.views.get(TABLE)
        if view is None or done.done() or view.pending is None or view.pending.seat != 0:
            return
        if view.pending.kind == "turn":
            done.set_result(None)
        elif view.legal and acted[0] != view:
            acted[0] = view
            client.act(TABLE, view, bot.choose(view))

    client = TableClient(path, identity=identity, name="spammer", on_event=on_event)
    runner = loop.create_task(client.run())
    try:
        await asyncio.wait_for(done, 60)
    finally:
        client.close()
        runner.cancel()


async def spam(chan, keys: list[tuple[bytes, float]]) -> None:
    """Each key in turn, then its pause, until cancelled."""
    while True:
        for data, pause in keys:
            chan.write(data)
            await asyncio.sleep(pause)


def join_of(identity: str) -> int | None:
    """The pid of the door's join process for `identity`."""
    for pid in pids():
        line = cmdline(pid)
        if b"weathering_tui\x00join" in line and identity.encode() in line:
            return pid
    return None


async def hint_figures(port: int, victim_key, spammer_key, rate: float, rounds: int, server):
    from ..net.ssh_gate import fingerprint
    from .term import arrows, open_term, wait

    conn, chan, term = await open_term(port, victim_key, user="other")
    await wait(term, lambda t: "bench-b" in t)
    spammer, schan, sterm = await open_term(port, spammer_key, (120, 40), user="spammer")
    await wait(sterm, lambda t: "hint" in t)  # its game screen, h offered (its turn)
    join = join_of(f"ssh:{fingerprint(spammer_key)}")
    press = 1 / rate
    phases = [
        ("nobody spams", None),
        (f"h held ({rate:.0f}/s)", [(b"h", press)]),
        ("h then Escape", [(b"h", press), (b"\x1b", max(press, ESCAPE_WAIT))]),
        ("nobody spams, after", None),
    ]
    results = []
    for name, keys in phases:
        cpu = (cpu_seconds(join) if join else 0.0, cpu_seconds(server.pid))
        started = time.perf_counter()
        task = asyncio.ensure_future(spam(schan, keys)) if keys else None
        await asyncio.sleep(0.3)  # the spam under way before measuring
        times = await arrows(chan.write, term, wait, rounds)
        seconds = time.perf_counter() - started
        used = (cpu_seconds(join) if join else 0.0) - cpu[0], cpu_seconds(server.pid) - cpu[1]
        if task is not None:
            task.cancel()
            schan.write(b"\x1b")  # a dialog left open goes; a hint under way stops
            await asyncio.sleep(1.5)
        results.append((name, sorted(times), used, seconds))
    base = statistics.median(results[0][1])
    for name, times, (spammer_cpu, server_cpu), seconds in results:
        median = statistics.median(times)
        print(
            f"  {name:<22} median {median:6.1f} ms, p95 {times[int(len(times) * 0.95)]:6.1f} ms,"
            f" ×{median / base:.2f}; CPU over {seconds:.1f} s: spammer's join "
            f"{spammer_cpu:.2f} s, server {server_cpu:.2f} s"
        )
    for c in (conn, spammer):
        c.close()


def bench_hints(rate: float = 30, rounds: int = 30) -> int:
    import asyncssh

    from ..net.ssh_gate import fingerprint

    folder = Path(tempfile.mkdtemp(prefix="weathering-bench-"))
    path, port = folder / "s.sock", 22000 + os.getpid() % 1000
    print(f"  load before: {Path('/proc/loadavg').read_text().strip()}")
    server = ssh_server(folder, path, port, 8, "--pace", "0", "--grace", "600")
    try:
        victim = asyncssh.generate_private_key("ssh-ed25519")
        spammer = asyncssh.generate_private_key("ssh-ed25519")
        asyncio.run(two_tables(path))
        asyncio.run(seat_at_turn(path, f"ssh:{fingerprint(spammer)}"))
        print(
            f"one player spamming hints, another's ↓/↑ in the lobby through SSH "
            f"({rounds * 2} keys a phase, {os.cpu_count()} CPUs)"
        )
        asyncio.run(hint_figures(port, victim, spammer, rate, rounds, server))
    finally:
        server.terminate()
        server.wait()
        print(f"  load after: {Path('/proc/loadavg').read_text().strip()}")
    return 0
