"""A `join` whose terminal takes no more output (stopped, or gone under a `su` that
outlived it) once ignored kill: its screen writes blocked, it lived on, reconnected after
every server restart and took the seat back from the player's new terminal (found in a
play-test). kill now ends it, whatever its terminal does."""

import asyncio
import contextlib
import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import time

from helpers import running_server


async def test_kill_ends_a_join_whose_terminal_stopped_reading(tmp_path):
    async with running_server(tmp_path) as server:
        main, other = pty.openpty()
        fcntl.ioctl(main, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        join = subprocess.Popen(
            [sys.executable, "-m", "weathering_tui", "join", "--lang", "en"]
            + ["--socket", str(server.socket_path)],
            stdin=other,
            stdout=other,
            stderr=other,
            start_new_session=True,
            env={**os.environ, "TERM": "xterm-256color"},
        )
        os.close(other)
        os.set_blocking(main, False)
        try:
            seen, end = b"", time.monotonic() + 30
            while b"tables" not in seen and time.monotonic() < end:
                try:
                    seen += os.read(main, 65536)
                except BlockingIOError:
                    await asyncio.sleep(0.05)
            assert b"tables" in seen, seen[-500:]
            for i in range(200):  # the screen changes, and nobody reads it any more
                with contextlib.suppress(BlockingIOError):
                    os.write(main, b"n" if i % 2 == 0 else b"\x1b")
                await asyncio.sleep(0.02)
            await asyncio.sleep(1.0)
            assert join.poll() is None  # it is stuck writing, not gone
            join.send_signal(signal.SIGTERM)
            for _ in range(150):
                if join.poll() is not None:
                    break
                await asyncio.sleep(0.1)
            assert join.poll() is not None, "kill did not end a join stuck on its terminal"
        finally:
            if join.poll() is None:
                join.kill()
            join.wait()
            os.close(main)
