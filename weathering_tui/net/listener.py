"""The table server's Unix socket: it accepts a few connections at a time, and turns a
peer that connects too fast away before any work is spent on it.

asyncio's own server accepts as many sockets in one turn of the event loop as its
backlog (1024 here), and makes a transport and a task for each: a local user who opened
and closed connections in a loop held the loop for 200 ms a turn, and every table's
moves waited that long (a hostile review measured 386 ms from a move to its view, 2 ms
without). Here a turn serves at most `PER_TURN` sockets; a peer (a uid) may connect
`RATE` times a second on average (`BURST` at once), and one past that is closed at
once, before a stream or a task exists. The server's own user (the SSH door's
processes, the operator) is not counted here: the door limits its peers itself.

Measured (2 cores, one local user connecting and closing in a loop, another player's
move → view at a 1v1): asyncio's server 952 ms median and no new connection welcomed
in 2 s (0 of 50); 512 turned away a turn, 42 ms and 5 of 50; 16 a turn, 4.4 ms and 47
of 50 (quiet: 2.1 ms, 50 of 50). Few a turn is better on both counts: the queue stays
full of the flooding peer's sockets, whose connects then fail in its own process.
(New connections during a flood vary from run to run, 0 to 50 of 50: a connect that
finds the queue full fails; the moves' figure holds, 4–10 ms in the runs made.)
"""

from __future__ import annotations

import asyncio
import errno
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path

from .connection import Peer, peer_uid

BACKLOG = 1024  # sockets waiting to be accepted: a burst of connects fills no queue
PER_TURN = 16  # sockets given streams and a task in one turn of the event loop, at most
TURNED_PER_TURN = 16  # sockets accepted and closed at once in a turn (their peer is too fast)
RATE = 10.0  # connections a second one peer may open, on average
BURST = 30.0  # and at once


class Knocks:
    """How fast each peer connects: a token bucket per peer, counted at accept."""

    def __init__(self, own_uid: Peer, rate: float = RATE, burst: float = BURST):
        self.own_uid = own_uid
        self.rate, self.burst = rate, burst
        self.buckets: dict[Peer, tuple[float, float]] = {}  # peer -> (tokens, when)

    def allow(self, peer: Peer, now: float) -> bool:
        if peer == self.own_uid:
            return True
        tokens, then = self.buckets.get(peer, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self.buckets[peer] = (tokens, now)
            return False
        self.buckets[peer] = (tokens - 1.0, now)
        if len(self.buckets) > 4096:  # (peers are local users: a few, never this many)
            self.buckets = {p: b for p, b in self.buckets.items() if b[0] < self.burst - 1}
        return True


class Listener:
    """Listens on `path` (mode 0660: the owner and the players' group) and hands each
    accepted socket's streams to `serve(reader, writer)`, in a task of its own."""

    def __init__(self, path: Path, own_uid: Peer, serve: Callable, limit: int):
        self.path = path
        self.serve = serve
        self.limit = limit  # the streams' line limit
        self.knocks = Knocks(own_uid)
        self.sock: socket.socket | None = None
        self.turned_away = 0  # sockets closed for their peer's pace (figures, tests)
        self.opening: set[asyncio.Task] = set()  # sockets on their way to `serve`

    def start(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(str(self.path))
            os.chmod(self.path, 0o660)
            sock.listen(BACKLOG)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        self.sock = sock
        asyncio.get_running_loop().add_reader(sock.fileno(), self._accept)

    def close(self) -> None:
        if self.sock is not None:
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
            self.sock.close()
            self.sock = None
        for task in self.opening:  # (each closes its socket)
            task.cancel()

    def _accept(self) -> None:
        """One turn's share: at most PER_TURN sockets served and TURNED_PER_TURN turned
        away (their peer connects too fast), the rest in the next turns."""
        sock = self.sock
        if sock is None:
            return
        now = time.monotonic()
        loop = asyncio.get_running_loop()
        served = 0
        for _ in range(PER_TURN + TURNED_PER_TURN):
            if served == PER_TURN:
                return
            try:
                client, _ = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    # Out of descriptors: the sockets wait in the queue a moment, rather
                    # than this turn coming back at once, for ever.
                    loop.remove_reader(sock.fileno())
                    loop.call_later(0.1, self._resume, sock)
                    print(f"weathering serve: accept: {exc}", flush=True)
                return
            if not self.knocks.allow(peer_uid(client), now):
                self.turned_away += 1
                client.close()
                continue
            client.setblocking(False)
            task = loop.create_task(self._open(client))
            self.opening.add(task)
            task.add_done_callback(self.opening.discard)
            served += 1

    def _resume(self, sock: socket.socket) -> None:
        if self.sock is sock:
            asyncio.get_running_loop().add_reader(sock.fileno(), self._accept)

    async def _open(self, client: socket.socket) -> None:
        try:
            reader, writer = await asyncio.open_unix_connection(sock=client, limit=self.limit)
        except OSError:
            client.close()
            return
        except asyncio.CancelledError:  # the server stops
            client.close()
            raise
        self.opening.discard(asyncio.current_task())  # (served: the server tracks it)
        await self.serve(reader, writer)
