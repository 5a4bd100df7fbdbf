"""The SSH door under a hostile session: a real OpenSSH client sending /dev/zero for
10 s does not slow another player nor the table socket, is closed by the door, and
leaves no `join` process behind (the server and its door run in their own process,
as `weathering serve --ssh` does)."""

import asyncio
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pyte
import pytest
from helpers import openssh, screen_text

from weathering_tui.net import protocol as pr

pytestmark = pytest.mark.serial  # times measured under load: run alone


class Screen(asyncssh.SSHClientSession):
    """The player's terminal, with an event for each batch of bytes drawn."""

    def __init__(self):
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.drawn = asyncio.Event()

    def data_received(self, data, datatype):
        self.stream.feed(data)
        self.drawn.set()

    def text(self) -> str:
        return screen_text(self.screen)

    async def until(self, test, limit=30.0) -> None:
        end = time.monotonic() + limit
        while not test(self.text()):
            self.drawn.clear()
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError("never showed:\n" + self.text())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.drawn.wait(), left)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def door_children(serve_pid: int) -> list[str]:
    """The command lines of the `join` processes the door started, or left orphaned."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
            ppid = int((proc / "stat").read_text().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if b"--door" in args and b"join" in args and ppid in (serve_pid, 1):
            found.append(b" ".join(args).decode(errors="replace"))
    return found


def serve_with_door(tmp_path):
    """`weathering serve --ssh` in its own process, as an operator starts it."""
    port = free_port()
    sock = tmp_path / "s.sock"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "LANG": "C.UTF-8"}
    serve = subprocess.Popen(
        [sys.executable, "-m", "weathering_tui", "serve", "--lang", "en", "--socket", str(sock)]
        + ["--saves-dir", str(tmp_path / "saves"), "--ssh", f"127.0.0.1:{port}"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return serve, port, sock


async def player(port: int, user: str):
    """A player's SSH session with a pty of 80x24, its screen drawn by pyte."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, client_keys=[key], known_hosts=None
    )
    term = Screen()
    chan, _ = await conn.create_session(
        lambda: term, encoding=None, term_type="xterm-256color", term_size=(80, 24)
    )
    return conn, chan, term


async def key_to_repaint(chan, term: Screen) -> float:
    """Seconds from a key to the screen showing its answer (the create dialog opening)."""
    start = time.perf_counter()
    chan.write(b"n")
    await term.until(lambda t: "configuration" in t, 10)
    took = time.perf_counter() - start
    chan.write(b"\x1b")
    await term.until(lambda t: "configuration" not in t, 10)
    await asyncio.sleep(0.05)
    return took


async def hello_answered(path) -> float:
    start = time.perf_counter()
    reader, writer = await asyncio.open_unix_connection(str(path))
    writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "probe")))
    line = await asyncio.wait_for(reader.readline(), 5)
    writer.close()
    assert b'"welcome"' in line, line
    return time.perf_counter() - start


async def test_a_flooding_ssh_session_slows_nobody_and_is_closed(tmp_path):
    ssh_program = openssh("ssh")
    serve, port, sock = serve_with_door(tmp_path)
    try:
        conn, chan, term = await player(port, "ann")
        await term.until(lambda t: "the tables" in t and "Connected as ann" in t)
        baseline = [await key_to_repaint(chan, term) for _ in range(7)]
        hello_base = [await hello_answered(sock) for _ in range(3)]

        flood_key = tmp_path / "flood_key"
        flood_key.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
        flood_key.chmod(0o600)
        flood = subprocess.Popen(
            [ssh_program, "-tt", "-p", str(port), "-i", str(flood_key), "-o", "BatchMode=yes"]
            + ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
            + ["flood@127.0.0.1"],
            stdin=open("/dev/zero", "rb"),  # noqa: SIM115 - the flood's endless input
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        during, hellos = [], []
        started = time.monotonic()
        await asyncio.sleep(0.5)
        while time.monotonic() - started < 10 and flood.poll() is None:
            during.append(await key_to_repaint(chan, term))
            hellos.append(await hello_answered(sock))
        closed_by_door = flood.poll() is not None
        if not closed_by_door:
            flood.kill()
        _, flood_err = flood.communicate(timeout=10)
        ended = time.monotonic()

        base, under = statistics.median(baseline), statistics.median(during)
        print(
            f"key -> repaint: {base * 1000:.1f} ms alone, {under * 1000:.1f} ms during the "
            f"flood ({len(during)} keys); hello {max(hellos) * 1000:.1f} ms at worst"
        )
        assert during and len(hellos) == len(during)  # every hello was welcomed
        assert under <= 2 * base + 0.03, (baseline, during)
        assert max(hellos) < 1.0 + 2 * max(hello_base)
        assert closed_by_door, "the door never closed the flooding session"
        assert b"too much input" in flood_err
        while door_children(serve.pid) and time.monotonic() - ended < 5:
            await asyncio.sleep(0.1)
        left = door_children(serve.pid)
        assert len(left) == 1 and "ann" in left[0], left  # only the player's own join
        # the player is still at ease
        assert await key_to_repaint(chan, term) < 1.0
        conn.close()
    finally:
        serve.terminate()
        out, _ = serve.communicate(timeout=10)
    assert b"Traceback" not in out, out.decode()


@pytest.mark.parametrize("stop", [signal.SIGHUP, signal.SIGTERM])
async def test_serve_stopped_by_a_signal_ends_every_join_and_prints_no_traceback(tmp_path, stop):
    serve, port, _ = serve_with_door(tmp_path)
    try:
        conn, _, term = await player(port, "ann")
        await term.until(lambda t: "the tables" in t)
        assert len(door_children(serve.pid)) == 1
        serve.send_signal(stop)
        out, _ = serve.communicate(timeout=10)
        conn.close()
        for _ in range(50):
            if not door_children(serve.pid):
                break
            await asyncio.sleep(0.1)
        assert not door_children(serve.pid)  # no join left behind, spinning or not
        assert serve.returncode == 0
        assert b"Traceback" not in out, out.decode()
    finally:
        if serve.poll() is None:
            serve.kill()
