"""The bytes of one SSH session: between its channel and the pty of its `join` process,
both ways, without ever blocking the event loop (see `Pipe`), and the pty's size."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import struct
import termios
import time

import asyncssh

from ..words import Tr

# Columns and rows at most (a client may claim 70000): each redraw costs the join
# process in proportion, and 1000×1000 made one resizing session cost half a core.
MAX_WIDTH, MAX_HEIGHT = 400, 200
MIN_WIDTH, MIN_HEIGHT = 10, 2  # what the pty is given at least (see `_set_size`)
RESIZE_EVERY = 0.5  # seconds between two window changes given to join (the last wins)


# What one session may cost the others. Keys are a few bytes each: a player holding a
# key down sends ~100 bytes a second, a pasted chat line 200.
KEYS_RATE = 2048.0  # bytes a second of input, on average
KEYS_BURST = 8192  # bytes at once
FLOOD_CLOSE = 5.0  # seconds of input beyond the rate before the session is closed
TO_CHILD_MAX = 64 * 1024  # input waiting for the join process before we stop reading more
TO_CLIENT_MAX = 256 * 1024  # output waiting for the SSH client before the pty is not read
STALLED = 60.0  # seconds a client may leave its output unread before it is closed


class Pipe:
    """Bytes between an SSH channel and the pty of its `join` process, both ways, with
    the window size following the client's; ends when either side does.

    Nothing here blocks the event loop: the pty master is non-blocking and what it
    cannot take now waits in a bounded buffer; the input of one session is limited to
    KEYS_RATE (a flood is slowed, then closed); output the client does not read stops
    the reading of the pty (the join process waits, no one else does)."""

    def __init__(self, process, master: int, child, idle: float, words=None):
        self.process, self.master, self.child, self.idle = process, master, child, idle
        self.words = words or Tr("en")  # the player's language, for the closing word
        self.done = asyncio.Event()
        self.last_input = time.monotonic()
        self.to_child = bytearray()
        self.child_ready = asyncio.Event()  # the pty took what was waiting
        self.child_ready.set()
        self.tokens = float(KEYS_BURST)
        self.stamp = time.monotonic()
        self.flooding_since: float | None = None
        self.reading = False
        self.writing = False
        self.why = ""  # why the door closes the session (a words key), said to the player
        self.size = (0, 0)  # the newest window size asked for
        self.resize_timer: asyncio.TimerHandle | None = None
        self.resized_at = 0.0
        os.set_blocking(master, False)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        self._read_pty(True)
        tasks = [loop.create_task(self.keys()), loop.create_task(self.idle_watch())]
        waiter = loop.create_task(self.child.wait())
        done = loop.create_task(self.done.wait())
        await asyncio.wait([waiter, done], return_when="FIRST_COMPLETED")
        for task in (*tasks, done):
            task.cancel()
        if self.resize_timer is not None:
            self.resize_timer.cancel()
        self._read_pty(False)
        self._write_pty(False)
        await self.stop_child()
        with contextlib.suppress(OSError):
            os.close(self.master)
        with contextlib.suppress(Exception):
            if self.why:
                self.process.stderr.write(f"\r\n{self.words(self.why)}\r\n".encode())
            self.process.exit(self.child.returncode or 0)

    # ------------------------------------------------------------ join -> client

    def _read_pty(self, on: bool) -> None:
        if on != self.reading and not (on and self.done.is_set()):
            loop = asyncio.get_running_loop()
            if on:
                loop.add_reader(self.master, self.readable)
            else:
                loop.remove_reader(self.master)
            self.reading = on

    def readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._read_pty(False)
            self.done.set()
            return
        try:
            self.process.stdout.write(data)
        except Exception:  # noqa: BLE001 - the channel is gone: the session ends
            self.done.set()
            return
        if self.process.channel.get_write_buffer_size() > TO_CLIENT_MAX:
            self._read_pty(False)  # the client reads slowly: the join process waits
            asyncio.get_running_loop().create_task(self._client_caught_up())

    async def _client_caught_up(self) -> None:
        try:
            await asyncio.wait_for(self.process.stdout.drain(), STALLED)
        except TimeoutError:
            self.why = "door.not_reading"
            self.done.set()
            return
        except Exception:  # noqa: BLE001 - the channel closed: the session ends
            self.done.set()
            return
        self._read_pty(True)

    # ------------------------------------------------------------ client -> join

    def _allow(self, size: int) -> float:
        """Take `size` bytes from the bucket; the seconds to wait before they may pass."""
        now = time.monotonic()
        self.tokens = min(KEYS_BURST, self.tokens + (now - self.stamp) * KEYS_RATE)
        self.stamp = now
        self.tokens -= size
        return max(0.0, -self.tokens / KEYS_RATE)

    async def keys(self) -> None:
        while not self.done.is_set():
            try:
                data = await self.process.stdin.read(4096)
            except asyncssh.TerminalSizeChanged as change:
                self._resize(change.width, change.height)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except Exception:  # noqa: BLE001 - the channel broke: the session ends
                break
            if not data:
                break  # the SSH session ended
            self.last_input = now = time.monotonic()
            wait = self._allow(len(data))
            if wait > 0:
                # Beyond the rate: slowed down (SSH's own window holds the client back
                # meanwhile), and closed when it goes on.
                self.flooding_since = self.flooding_since or now
                if now - self.flooding_since > FLOOD_CLOSE:
                    self.why = "door.flood"
                    break
                await asyncio.sleep(wait)
            elif self.tokens > KEYS_BURST / 2:
                self.flooding_since = None
            self.to_child += data
            self._flush_child()
            if len(self.to_child) > TO_CHILD_MAX:
                self.child_ready.clear()
                await self.child_ready.wait()
        self.done.set()

    def _resize(self, width: int, height: int) -> None:
        """Each change redraws the whole screen: join gets one every RESIZE_EVERY seconds
        at most, the newest (a client sending thousands costs a redraw or two a second,
        and a player dragging a window corner sees the size they stop at)."""
        self.size = (width, height)
        if self.resize_timer is None:
            wait = max(0.0, self.resized_at + RESIZE_EVERY - time.monotonic())
            loop = asyncio.get_running_loop()
            self.resize_timer = loop.call_later(wait, self._apply_size)

    def _apply_size(self) -> None:
        self.resize_timer = None
        self.resized_at = time.monotonic()
        if self.done.is_set():
            return
        with contextlib.suppress(OSError):
            _set_size(self.master, *self.size)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.pid, signal.SIGWINCH)

    def _write_pty(self, on: bool) -> None:
        if on != self.writing:
            loop = asyncio.get_running_loop()
            if on:
                loop.add_writer(self.master, self._flush_child)
            else:
                loop.remove_writer(self.master)
            self.writing = on

    def _flush_child(self) -> None:
        """Give the pty what it takes now, never waiting for it."""
        while self.to_child:
            try:
                sent = os.write(self.master, self.to_child)
            except BlockingIOError:
                break
            except OSError:
                self.to_child.clear()
                self.done.set()
                break
            del self.to_child[:sent]
        self._write_pty(bool(self.to_child) and not self.done.is_set())
        if len(self.to_child) <= TO_CHILD_MAX:
            self.child_ready.set()

    async def idle_watch(self) -> None:
        while not self.done.is_set():
            await asyncio.sleep(min(30.0, self.idle))
            if time.monotonic() - self.last_input > self.idle:
                self.why = "door.idle"
                self.done.set()

    async def stop_child(self) -> None:
        """The player left: the join process ends with the session (the seat stays)."""
        if self.child.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.pid, signal.SIGHUP)
        try:
            await asyncio.wait_for(self.child.wait(), 3)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.child.pid, signal.SIGKILL)
            await self.child.wait()


def _set_size(fd: int, width: int, height: int) -> None:
    """The pty's size, as the client says, within what a terminal can be. Narrower
    than MIN_WIDTH (an ssh with no terminal says 0×0) the "too small" message is
    laid out again and again: its `join` spun at a third of a core, measured."""
    width = min(max(int(width), MIN_WIDTH), MAX_WIDTH)
    height = min(max(int(height), MIN_HEIGHT), MAX_HEIGHT)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
