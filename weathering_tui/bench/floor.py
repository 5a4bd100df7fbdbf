"""`python -m weathering_tui.bench net floor [GAMES]`: what a server's action costs at
the least on this machine, each part measured alone in this process (thread CPU).

The parts every action needs, whatever the code around them: the engine checks and
applies it; the journal appends it and fsyncs (durable before visible); the writer's
thread hands the result back to the event loop; a view line goes to each of the five
seats of a 3v2. Their sum is the floor under `server CPU per action`, before any view
is built, any message parsed, any legality answered. Building the five views (the
server's own push, on the same games) is printed beside it.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import tempfile
import time

import attrs

from ..engine import Answers, Setup, apply, legal_actions, new_game
from ..net import server_messages as msg
from ..net.broadcast import Frame, LogCache, Sent, seat_view
from ..storage.writer import Writer

SEATS = 5


def engine_and_push(games: int) -> tuple[float, float, list[bytes]]:
    """(engine ms per action, push ms per action, some view lines) over random 3v2
    games where every seat is human, as at a networked table."""
    engine = push = 0.0
    actions = 0
    lines: list[bytes] = []
    for game in range(games):
        setup = Setup.standard("3v2", seed=game)
        setup = attrs.evolve(setup, seats=tuple(attrs.evolve(s, human=True) for s in setup.seats))
        state, rng = new_game(setup), random.Random(game)
        frame, log, answers = None, LogCache(), Answers()
        sent: list[Sent | None] = [None] * SEATS
        while not state.over:
            start = time.thread_time()
            seat = state.pending.seat if state.pending is not None else state.active
            apply(state, rng.choice(legal_actions(state, seat)))
            middle = time.thread_time()
            frame = Frame(state, frame)
            answered = answers.answered(state)
            for s in range(SEATS):
                data, sent[s] = seat_view(state, s, answered, frame, sent[s], log, None)
                if data is not None:
                    line = msg.ViewHead("t", state.version).line(data, 0, False)
                    if len(lines) < 4000:
                        lines.append(line)
            end = time.thread_time()
            engine, push, actions = engine + middle - start, push + end - middle, actions + 1
    return engine / actions * 1000, push / actions * 1000, lines


def sends(lines: list[bytes]) -> float:
    """ms of this thread's CPU to send SEATS view lines, each on its own socket, read
    by another process."""
    pairs = [socket.socketpair() for _ in range(SEATS)]
    child = os.fork()
    if child == 0:  # the players: read everything until the sockets close
        for mine, _ in pairs:
            mine.close()
        for _, theirs in pairs:
            theirs.setblocking(False)
        while True:
            alive = False
            for _, theirs in pairs:
                try:
                    alive = bool(theirs.recv(1 << 16)) or alive
                except BlockingIOError:
                    alive = True
            if not alive:
                os._exit(0)
            time.sleep(0.0005)
    for _, theirs in pairs:
        theirs.close()
    try:
        start = time.thread_time()
        for line in lines:
            for mine, _ in pairs:
                mine.sendall(line)
        used = time.thread_time() - start
    finally:
        for mine, _ in pairs:
            mine.close()
        os.waitpid(child, 0)
    return used / len(lines) * 1000


def fsyncs(count: int = 400, size: int = 160) -> float:
    """ms of CPU for one journal line appended and fsync'd (the waiting not counted)."""
    with tempfile.TemporaryDirectory() as folder:
        fd = os.open(os.path.join(folder, "j"), os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            start = time.thread_time()
            for _ in range(count):
                os.write(fd, b"x" * (size - 1) + b"\n")
                os.fsync(fd)
            return (time.thread_time() - start) / count * 1000
        finally:
            os.close(fd)


def hand_overs(count: int = 2000) -> float:
    """ms of this process's CPU (both threads) for one job given to the writer's thread
    and its answer back on the event loop, one at a time (a busy server batches them)."""

    async def run() -> float:
        writer = Writer()
        await writer.run(int)  # its thread started
        start = time.process_time()
        for _ in range(count):
            await writer.run(int)
        used = time.process_time() - start
        writer.close()
        return used / count * 1000

    return asyncio.run(run())


def bench_floor(games: int = 20) -> int:
    engine, push, lines = engine_and_push(games)
    send = sends(lines)
    fsync = fsyncs()
    over = hand_overs()
    floor = engine + send + fsync + over
    size = sum(map(len, lines)) / len(lines) / 1024
    rows = [
        ("the engine (legal actions, apply)", engine),
        (f"{SEATS} view lines sent (mean {size:.1f} KiB each)", send),
        ("a journal line appended and fsync'd", fsync),
        ("one hand-over to the writer and back", over),
        ("floor, before any view is built", floor),
        (f"building the {SEATS} views (the server's push)", push),
    ]
    print(f"What one action of a 3v2 costs at the least here (thread CPU, {games} games):")
    for label, ms in rows:
        print(f"  {label + ':':<48}{ms:.3f} ms")
    return 0
