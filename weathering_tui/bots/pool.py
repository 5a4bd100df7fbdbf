"""Bot decisions in a process of their own, so that a bot thinking never holds the
table server: not its event loop, and not the interpreter lock its other tables need
(the expert spends up to 0.8 s of CPU a decision; in a thread it starved every table).

One worker process keeps each bot it is asked for, by kind and seed, so a bot keeps its
own random state from one decision to the next, as it does in a local game.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from . import BOTS, Bot

_KEPT: dict[tuple[str, int], Bot] = {}  # in the worker: the bots it plays


def _choose(kind: str, seed: int, view):
    bot = _KEPT.get((kind, seed))
    if bot is None:
        bot = _KEPT[(kind, seed)] = BOTS[kind](seed=seed)
    return bot.choose(view)


def _warm() -> None:
    from ..content import default_content

    default_content()


class BotPool:
    """`await pool.choose(kind, seed, view)`: the bot's action, computed elsewhere."""

    def __init__(self, workers: int = 1):
        self.workers = workers
        self.executor: ProcessPoolExecutor | None = None

    async def choose(self, kind: str, seed: int, view):
        if self.executor is None:
            context = multiprocessing.get_context("spawn")  # no copy of a running loop
            self.executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_warm)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, _choose, kind, seed, view)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
