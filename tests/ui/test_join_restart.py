"""A real `weathering join` on a pty (drawn by pyte) plays a game while its server is
killed with SIGKILL at 20 moments and started again: each time it comes back to its
game by itself, never shows a traceback; and everything a client was shown is in the
table's journal and in the game replayed from it (a spectator keeps every log)."""

import contextlib
import json
import os
import random
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time

import pyte
from helpers import screen_text

from weathering_tui.engine import SPECTATOR, visible_entry
from weathering_tui.net import protocol as pr
from weathering_tui.storage.journal import read_table
from weathering_tui.storage.savefile import read_save

KILLS = 20


class PtyApp:
    """A program on a pseudo-terminal of 80x24, its screen kept by pyte."""

    def __init__(self, command, env):
        import fcntl
        import pty
        import struct
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.everything = b""

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            self.everything += data
            self.stream.feed(data)

    def text(self) -> str:
        return screen_text(self.screen)

    def until(self, test, limit=30.0) -> None:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if test(self.text()):
                return
            assert self.proc.poll() is None, "join exited:\n" + self.text()
            self.pump(0.05)
        raise AssertionError("never showed:\n" + self.text())

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        os.close(self.master)


class Spectator(threading.Thread):
    """Watches the table through every restart; keeps the longest log it was shown
    before each drop."""

    def __init__(self, path, table):
        super().__init__(daemon=True)
        self.path, self.table = str(path), table
        self.seen: list[list[dict]] = []
        self.log: list[dict] = []
        self.stop = False

    def run(self) -> None:
        while not self.stop:
            with contextlib.suppress(OSError):
                self.watch()
            if self.log:
                self.seen.append(list(self.log))
            time.sleep(0.1)

    def watch(self) -> None:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(self.path)
            sock.settimeout(0.5)
            sock.sendall(pr.client_line(pr.Hello(pr.PROTOCOL, "spectator", identity="eye")))
            sock.sendall(pr.client_line(pr.Spectate(self.table)))
            lines = sock.makefile("rb")
            while not self.stop:
                try:
                    line = lines.readline()
                except TimeoutError:
                    continue
                if not line:
                    return
                message = json.loads(line)
                if message.get("type") == "view":
                    start = message["log_start"]
                    self.log = self.log[:start] + message["view"]["log"]


def public_log(state) -> list[dict]:
    shown = [visible_entry(e, SPECTATOR) for e in state.log]
    return [
        {"kind": e.kind, "data": e.data, "secret": e.secret, "audience": list(e.audience)}
        for e in shown
    ]


def start_server(sock, saves, env):
    log = open(saves.parent / "serve.log", "ab")  # noqa: SIM115 - the server's own output
    proc = subprocess.Popen(
        [sys.executable, "-m", "weathering_tui", "serve", "--lang", "en", "--socket", str(sock)]
        + ["--saves-dir", str(saves), "--pace", "0", "--grace", "120"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    for _ in range(400):
        if sock.exists():
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(str(sock))
                return proc
            except OSError:
                pass
        time.sleep(0.025)
    raise AssertionError("the server never listened")


def test_a_real_join_survives_20_kill_9_of_its_server_and_nothing_seen_is_lost(tmp_path):
    sock, saves = tmp_path / "s.sock", tmp_path / "saves"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    server = start_server(sock, saves, env)
    join = PtyApp(
        [sys.executable, "-m", "weathering_tui", "join", "--socket", str(sock), "--lang", "en"],
        env,
    )
    spectator = None
    rng = random.Random(5)
    try:
        join.until(lambda t: "the tables" in t)
        join.press(b"n")
        join.until(lambda t: "configuration" in t)
        join.press(b"1")  # 1v1
        join.until(lambda t: "human" in t)
        join.press(b"1")  # one human: the Lobbyiste is a bot
        join.until(lambda t: "side" in t)
        join.press(b"1")  # an Écolo
        join.until(lambda t: "hints" in t)
        join.press(b"1")  # no hints at this table
        join.until(lambda t: "Name of the table" in t)
        join.press(b"\r")  # the name offered
        join.until(lambda t: "code" in t)
        join.press(b"\r")
        join.until(lambda t: "waiting for the players" in t)
        join.press(b"s")
        join.until(lambda t: "Ecosystem" in t or "▊ 1." in t)
        names = [p.stem for p in (saves / "tables").glob("*.toml")]
        assert len(names) == 1
        table = read_save(saves / "tables" / f"{names[0]}.toml").table["name"]
        spectator = Spectator(sock, table)
        spectator.start()
        kills = 0
        # The player answers until the game ends: keys pressed while the link is down are
        # refused ("nothing was sent"), so a busy machine needs more of them.
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            text = join.text()
            if "Game over" in text:
                break
            if "since your last turn" in text:
                join.press(b" ")  # the recap: any key goes on
            elif "▊ 1." in text:
                join.press(b"1")
            elif re.search(r" e ?end\b", text.splitlines()[-1]):  # (e, in reverse: "end")
                join.press(b"e")
            join.pump(rng.uniform(0.02, 0.3))
            if kills < KILLS and rng.random() < 0.6:
                server.kill()  # SIGKILL, at whatever moment this is
                server.wait()
                kills += 1
                join.pump(rng.uniform(0.0, 0.4))
                server = start_server(sock, saves, env)
                join.until(lambda t: "Ecosystem" in t or "Game over" in t or "▊" in t, 20)
                assert join.proc.poll() is None
        assert kills == KILLS, f"the game ended after {kills} kills"
        assert "Game over" in join.text(), join.text()
        assert b"Traceback" not in join.everything
    finally:
        if spectator is not None:
            spectator.stop = True
            spectator.join(5)
        join.close()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    out = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in out, out
    game = read_table(saves / "tables" / f"{names[0]}.toml")
    assert game.state.over
    final = public_log(game.state)
    assert spectator.seen, "the spectator saw nothing"
    for log in spectator.seen:  # what anyone saw before a kill was never taken back
        assert final[: len(log)] == log
