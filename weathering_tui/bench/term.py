"""A terminal for the SSH benches: an asyncssh client session drawn on a pyte screen,
and a wait for what it shows (pyte: a test dependency, as the benches are tools)."""

from __future__ import annotations

import asyncio
import time

import asyncssh


class Term(asyncssh.SSHClientSession):
    def __init__(self, width: int = 80, height: int = 24):
        import pyte

        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()

    def data_received(self, data, datatype):
        self.stream.feed(data)
        self.changed.set()

    def text(self):
        return "\n".join(self.screen.display)


async def wait(term: Term, test, limit: float = 30.0) -> None:
    """Until `test(the screen's text)` holds (TimeoutError after `limit` seconds)."""
    end = time.perf_counter() + limit
    while not test(term.text()):
        term.changed.clear()
        await asyncio.wait_for(term.changed.wait(), max(0.01, end - time.perf_counter()))


async def open_term(port: int, key, size: tuple[int, int] = (80, 24), user: str = "bench"):
    """An SSH session with a pty of `size` on loopback `port`: (connection, channel, Term)."""
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, client_keys=[key], known_hosts=None
    )
    term = Term(*size)
    chan, _ = await conn.create_session(
        lambda: term, term_type="xterm-256color", term_size=size, encoding=None
    )
    return conn, chan, term


async def arrows(write, term, wait, rounds: int = 20) -> list[float]:
    """↓ and ↑ move the selection in the lobby (one pane repaints): ms from each key to
    the screen that shows it."""

    def first_selected(t):
        return "▸ bench-a" in t

    times = []
    for _ in range(rounds):
        for key_bytes, test in (
            (b"\x1b[B", lambda t: not first_selected(t)),
            (b"\x1b[A", first_selected),
        ):
            started = time.perf_counter()
            write(key_bytes)
            await wait(term, test)
            times.append((time.perf_counter() - started) * 1000)
    return times
