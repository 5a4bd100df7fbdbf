"""The server's writer: one thread that does its blocking writes (a journal append and
its fsync, a save, a store's command) in the order they come, so that the event loop
never waits on a disk or a store.

Writes that queue up while it works are done in one wake-up and answered in one
hand-over to the loop: a busy server pays the cost of switching threads once for many
tables, where a thread per write (`asyncio.to_thread`) paid it for every write (about
0.14 ms of CPU each, measured on this project's machine: as much as building a view
for every seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading


class Writer:
    def __init__(self, name: str = "weathering-writer"):
        self.name = name
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    async def run(self, fn, *args):
        """`fn(*args)` in the writer's thread; its result, or its exception raised here."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._jobs.put((loop, future, fn, args))
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name=self.name, daemon=True)
            self._thread.start()
        return await future

    def close(self, timeout: float = 5.0) -> None:
        """Let the writes already asked for end, then stop the thread."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout)
            self._thread = None

    def _work(self) -> None:
        while True:
            batch = [self._jobs.get()]
            while True:
                try:
                    batch.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            done: dict[asyncio.AbstractEventLoop, list] = {}
            for job in batch:
                if job is None:
                    self._answer(done)
                    return
                loop, future, fn, args = job
                outcome: tuple[asyncio.Future, object, BaseException | None]
                try:
                    outcome = (future, fn(*args), None)
                except BaseException as exc:  # noqa: BLE001 - given to whoever awaits it
                    outcome = (future, None, exc)
                done.setdefault(loop, []).append(outcome)
            self._answer(done)

    @staticmethod
    def _answer(done: dict) -> None:
        for loop, outcomes in done.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                loop.call_soon_threadsafe(_settle, outcomes)


def _settle(outcomes: list) -> None:
    for future, result, exc in outcomes:
        if future.cancelled():
            continue
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(result)
