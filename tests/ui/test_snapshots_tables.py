"""The screens of `weathering join` at 80×24 (pytest-textual-snapshot): the lobby and a
waiting room, fed by a real table server (`weathering serve`, its own process) whose
tables are made first by players speaking the protocol."""

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from weathering_tui.net import protocol as pr
from weathering_tui.tui.join import JoinApp
from weathering_tui.tui.screens.lobby import LobbyScreen
from weathering_tui.tui.screens.waiting import WaitingScreen

from .test_join import until


def player(path, identity: str, name: str, *messages) -> socket.socket:
    """A connection that says hello and `messages`, then waits for each one's answer."""
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(str(path))
    sock.settimeout(5)
    sock.sendall(pr.client_line(pr.Hello(pr.PROTOCOL, "test", identity=identity, name=name)))
    lines = sock.makefile("rb")
    json.loads(lines.readline())  # welcome
    for message in messages:
        sock.sendall(pr.client_line(message))
        time.sleep(0.1)
    return sock


@pytest.fixture
def tables(tmp_path):
    """A server with three tables: a 1v1 waiting for a second player, a coded 2v1 with
    hints waiting for all, and a 1v1 started that waits on its human's first choice."""
    path = tmp_path / "s.sock"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "LANG": "C.UTF-8"}
    serve = subprocess.Popen(
        [sys.executable, "-m", "weathering_tui", "serve", "--lang", "en", "--socket", str(path)]
        + ["--saves-dir", str(tmp_path / "saves")],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    for _ in range(200):
        if path.exists():
            break
        time.sleep(0.05)
    held = [
        player(path, "ann", "Ann", pr.CreateTable("den", "1v1", (0, 1)), pr.TakeSeat("den", 0)),
        player(
            path, "bea", "Bea", pr.CreateTable("garden", "2v1", (0, 1, 2), code="k", hints=True)
        ),
        player(
            path,
            "cy",
            "Cy",
            pr.CreateTable("attic", "1v1", (0,), start_when_full=True),
            pr.TakeSeat("attic", 0),
        ),
    ]
    yield path
    for sock in held:
        sock.close()
    serve.terminate()
    serve.wait(10)


def join_app(path) -> JoinApp:
    return JoinApp(lang="en", socket_path=path, identity="zoe", name="Zoe")


def test_lobby(snap_compare, tables):
    async def listed(pilot):
        app = pilot.app
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await until(pilot, lambda: len(app.lobby.tables) == 3)
        await pilot.pause(0.3)

    assert snap_compare(join_app(tables), run_before=listed, terminal_size=(80, 24))


def test_waiting_room(snap_compare, tables):
    async def seated(pilot):
        app = pilot.app
        await until(pilot, lambda: len(app.lobby.tables) == 3)
        while app.lobby.tables[app.screen.selected]["name"] != "den":
            await pilot.press("down")
        await pilot.press("enter")  # den: its free seat is the second
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen))
        await pilot.press("2")
        await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
        await until(pilot, lambda: "Zoe" in str(app.lobby.summary("den")))
        await pilot.pause(0.3)

    assert snap_compare(join_app(tables), run_before=seated, terminal_size=(80, 24))
