"""Limits a stranger cannot use up: counted per local user from accept, a hello
deadline, identities only the server's own user may name, and folders nobody else can
change. Other users are real: forked children that take another uid before they
connect (SO_PEERCRED records the uid at connect time; the tests run as root)."""

import asyncio
import json
import multiprocessing
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from helpers import running_server

from weathering_tui.net import protocol as pr
from weathering_tui.net.connection import HELLO_WITHIN, PER_UID
from weathering_tui.net.folders import unsafe_folder

pytestmark = pytest.mark.serial  # times measured under load: run alone

NOBODY, DAEMON = 65534, 1
as_root = pytest.mark.skipif(os.getuid() != 0, reason="other users need root to become them")


def become(uid: int) -> None:
    os.setgid(uid)
    os.setuid(uid)


def hoard(path: str, uid: int, count: int, seconds: float) -> None:
    """Hold `count` sockets that never say hello, reopening each one the server drops."""
    become(uid)
    chooser = selectors.DefaultSelector()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        while len(chooser.get_map()) < count:
            sock = socket.socket(socket.AF_UNIX)
            try:
                sock.connect(path)
            except OSError:
                sock.close()
                break
            chooser.register(sock, selectors.EVENT_READ)
        for key, _ in chooser.select(0.05):
            try:
                data = key.fileobj.recv(4096)
            except OSError:
                data = b""
            if not data or data.endswith(b"\n"):
                chooser.unregister(key.fileobj)
                key.fileobj.close()


def say_hello(path: str, uid: int, times: int, identity, out) -> None:
    """`times` hellos, each on a new socket: what the server answered first."""
    become(uid)
    answers = []
    for _ in range(times):
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(2)
            try:
                sock.connect(path)
                hello = pr.Hello(pr.PROTOCOL, "probe", identity=identity)
                sock.sendall(pr.client_line(hello))
                line = sock.makefile("rb").readline()
                message = json.loads(line)
                answers.append(message.get("code") or message["type"])
            except (OSError, ValueError) as exc:
                answers.append(f"no answer: {exc!r}")
        time.sleep(0.05)
    out.send(answers)


def shared_folder() -> Path:
    """A folder other users may pass through (as the README's /srv/weathering)."""
    folder = Path(tempfile.mkdtemp(prefix="weathering-limits-", dir="/tmp"))
    folder.chmod(0o711)
    return folder


async def in_child(target, *args):
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    child = context.Process(target=target, args=(*args, writer))
    child.start()
    loop = asyncio.get_running_loop()
    answers = await loop.run_in_executor(None, reader.recv)
    await loop.run_in_executor(None, child.join)
    return answers


@as_root
async def test_r_limits_300_silent_sockets_of_one_user_lock_nobody_else_out():
    folder = shared_folder()
    async with running_server(folder) as server:
        server.socket_path.chmod(0o666)
        path = str(server.socket_path)
        context = multiprocessing.get_context("fork")
        flood = context.Process(target=hoard, args=(path, NOBODY, 300, 6.0))
        flood.start()
        held = []
        try:
            await asyncio.sleep(1.0)
            probe = asyncio.ensure_future(in_child(say_hello, path, DAEMON, 20, None))
            while not probe.done():
                held.append(server.admission.open.get(NOBODY, 0))
                await asyncio.sleep(0.05)
            answers = await probe
        finally:
            flood.kill()
            flood.join()
    assert answers == ["welcome"] * 20, answers
    assert max(held) == PER_UID  # the flood held its share, and no more


@as_root
async def test_r_limits_a_silent_socket_is_closed_at_the_hello_deadline(tmp_path):
    async with running_server(tmp_path) as server:
        reader, writer = await asyncio.open_unix_connection(str(server.socket_path))
        start = time.monotonic()
        line = await asyncio.wait_for(reader.readline(), HELLO_WITHIN + 2)
        assert json.loads(line)["code"] == "no_hello"
        assert await reader.readline() == b""  # closed
        assert time.monotonic() - start < HELLO_WITHIN + 1
        writer.close()
        assert server.admission.total == 0


@as_root
async def test_r_limits_only_the_servers_own_user_names_an_identity():
    folder = shared_folder()
    async with running_server(folder) as server:
        server.socket_path.chmod(0o666)
        path = str(server.socket_path)
        stranger = await in_child(say_hello, path, DAEMON, 1, "ssh:SHA256:someone-else")
        plain = await in_child(say_hello, path, DAEMON, 1, None)
        own = await in_child(say_hello, path, os.getuid(), 1, "ssh:SHA256:a-door-player")
    assert stranger == ["identity"]
    assert plain == own == ["welcome"]


@pytest.mark.parametrize(
    ("mode", "refused"),
    [(0o777, "anyone"), (0o770, "its group"), (0o1777, None), (0o700, None), (0o711, None)],
)
def test_serve_refuses_a_folder_someone_else_can_change(tmp_path, mode, refused):
    folder = tmp_path / "srv"
    folder.mkdir()
    folder.chmod(mode)
    problem = unsafe_folder(folder / "tables.sock")
    if refused is None:
        assert problem is None
    else:
        assert refused in problem and str(folder) in problem


def test_serve_says_which_folder_is_unsafe_and_starts_nothing(tmp_path):
    folder = tmp_path / "srv"
    folder.mkdir()
    folder.chmod(0o777)
    run = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "serve", "--lang", "en"]
        + ["--socket", str(folder / "tables.sock"), "--saves-dir", str(tmp_path / "saves")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 2
    assert "unsafe folder" in run.stderr and str(folder) in run.stderr
    assert "Traceback" not in run.stderr
    assert not (folder / "tables.sock").exists()
