"""A progress bar on stderr for long runs (`simulate`, `balance`): games done, games per
second and the time left, redrawn in place. Only on a terminal: piped or with --json,
nothing is written (the output stays clean for tools)."""

from __future__ import annotations

import sys
import time

WIDTH = 24


class Progress:
    def __init__(self, total: int, tr=None, stream=None, every: float = 0.2):
        from ..words import Tr

        self.total = max(1, total)
        self.tr = tr or Tr("en")
        self.stream = stream if stream is not None else sys.stderr
        self.shown = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.started = time.perf_counter()
        self.every = every
        self.last = 0.0
        self.done = 0

    def __call__(self, done: int) -> None:
        """`done` games out of the total are played."""
        self.done = done
        now = time.perf_counter()
        if self.shown and (now - self.last >= self.every or done >= self.total):
            self.last = now
            self.stream.write("\r" + self.line(now - self.started) + "\x1b[K")
            self.stream.flush()

    def line(self, seconds: float) -> str:
        filled = round(WIDTH * self.done / self.total)
        rate = self.done / seconds if seconds > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        bar = "█" * filled + "░" * (WIDTH - filled)
        return self.tr(
            "sim.progress",
            bar=bar,
            done=self.done,
            total=self.total,
            rate=f"{rate:.1f}",
            left=_clock(left),
        )

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"
