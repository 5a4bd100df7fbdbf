"""The server's writer thread (`storage.writer`): writes in the order asked, off the
event loop, their errors given back to whoever awaits them."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from weathering_tui.storage.writer import Writer


def test_writes_run_in_order_off_the_loop_and_errors_come_back():
    writer = Writer()
    done: list[int] = []
    threads: set[int] = set()

    def write(n: int) -> int:
        threads.add(threading.get_ident())
        time.sleep(0.001)
        done.append(n)
        return n * 2

    def broken() -> None:
        raise OSError("disk full")

    async def main():
        results = await asyncio.gather(*(writer.run(write, n) for n in range(20)))
        with pytest.raises(OSError, match="disk full"):
            await writer.run(broken)
        return results, await writer.run(write, 99)

    try:
        results, last = asyncio.run(main())
    finally:
        writer.close()
    assert results == [n * 2 for n in range(20)]
    assert done == [*range(20), 99]  # the order they were asked in
    assert last == 198
    assert threading.get_ident() not in threads and len(threads) == 1


def test_the_loop_goes_on_while_a_write_blocks():
    writer = Writer()
    release = threading.Event()

    async def main():
        slow = asyncio.ensure_future(writer.run(release.wait, 5))
        ticks = 0
        for _ in range(5):
            await asyncio.sleep(0.01)
            ticks += 1
        assert not slow.done()
        release.set()
        return ticks, await slow

    try:
        assert asyncio.run(main()) == (5, True)
    finally:
        writer.close()


def test_close_ends_the_thread_and_a_new_write_starts_it_again():
    writer = Writer()
    assert asyncio.run(writer.run(lambda: 1)) == 1
    writer.close()
    assert not any(t.name == writer.name for t in threading.enumerate())
    assert asyncio.run(writer.run(lambda: 2)) == 2
    writer.close()
