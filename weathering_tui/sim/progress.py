"""A progress bar on stderr for long runs (`simulate`, `balance`, `duel`, `check`): games
done, games per second and the time left, drawn by `rich.progress` (installed with
Textual). Only on a terminal: piped or with --json, nothing is written (the output
stays clean for tools). The words are the player's language's (`sim.progress`)."""

from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.progress import BarColumn, ProgressColumn, TimeRemainingColumn
from rich.progress import Progress as Bar
from rich.text import Text

WIDTH = 24


class _Words(ProgressColumn):
    """Games done, games/s and the time left, in the player's words."""

    def __init__(self, tr):
        super().__init__()
        self.tr = tr
        self.left = TimeRemainingColumn()

    def render(self, task) -> Text:
        return Text(
            self.tr(
                "sim.progress",
                done=int(task.completed),
                total=int(task.total or 0),
                rate=f"{task.speed or 0.0:.1f}",
                left=self.left.render(task).plain,
            )
        )


class Progress:
    def __init__(self, total: int, tr=None, stream=None, every: float = 0.2):
        from ..words import Tr

        self.total = max(1, total)
        self.tr = tr or Tr("en")
        self.stream = stream if stream is not None else sys.stderr
        self.shown = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.bar: Bar | None = None
        if self.shown:
            console = Console(file=self.stream, force_terminal=True, highlight=False)
            self.bar = Bar(
                BarColumn(bar_width=WIDTH),
                _Words(self.tr),
                console=console,
                transient=True,
                auto_refresh=False,
                # games/s over the last minute of games, not only the last few
                speed_estimate_period=60.0,
            )
            self.task = self.bar.add_task("", total=self.total)
            self.bar.start()
        self.every = every  # seconds between two redraws at most (the last one always)
        self.last = 0.0
        self.done = 0

    def __call__(self, done: int) -> None:
        """`done` games out of the total are played."""
        self.done = done
        if self.bar is not None:
            self.bar.update(self.task, completed=done)
            now = time.perf_counter()
            if now - self.last >= self.every or done >= self.total:
                self.last = now
                self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
