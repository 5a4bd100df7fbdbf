"""A full disk, for real and end to end (issue #28, item 1): `weathering serve` in a
child process whose files may not grow past a size (RLIMIT_FSIZE, set before it runs;
the server ignores SIGXFSZ itself), real clients playing through its socket, every view
each of them saw recorded. The journal fills: the players are told the table is paused,
every key they press is refused in one line, nothing is shown. The limit is raised from
outside (prlimit, as a disk that has room again): the table resumes by itself. It fills
again, the server is killed (-9) while full, started again without a limit on the same
folder: every action any client saw is in the reopened game, which plays on to its end.

Run by hand for figures: `python tests/test_disk_full.py --config 3v2 --humans 5 --fills 6`.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from weathering_tui.bots import BOTS
from weathering_tui.cli import main as cli
from weathering_tui.engine import view_for
from weathering_tui.engine.wire import view_to_data, wire_converter
from weathering_tui.net import protocol as pr
from weathering_tui.net import server_messages as msg
from weathering_tui.net.client import TableClient
from weathering_tui.storage.journal import read_table
from weathering_tui.storage.savefile import SavedGame

# The start save (~7 KB for a 3v2) fits; the journal fills before its 200 lines (~10 KB)
# would be compacted into a save.
LIMIT = 8000
STEP = 1500  # bytes more each time the disk "has room again"
REFUSED = "the server cannot save right now: nothing was played"


class Server:
    """`weathering serve` as a child process; its output kept by a thread (a pipe left
    undrained would stop it)."""

    def __init__(self, folder: Path, sock: Path, limit: int | None):
        def limited():  # in the child, before it runs: its files grow to `limit` at most
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

        command = [sys.executable, "-m", "weathering_tui", "serve", "--lang", "en"]
        command += ["--socket", str(sock), "--saves-dir", str(folder), "--pace", "0"]
        self.process = subprocess.Popen(
            [*command, "--grace", "120"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            preexec_fn=limited if limit else None,
        )
        self.output: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()
        end = time.monotonic() + 30
        while time.monotonic() < end and self.process.poll() is None:
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(str(sock))
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"the server never listened: {self.output}")

    def _drain(self) -> None:
        for line in self.process.stdout:
            self.output.append(line.decode(errors="replace"))

    def limit(self, size: int) -> None:
        """The disk has room again, up to `size` bytes a file (from outside, as root or
        the same user may)."""
        resource.prlimit(self.process.pid, resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()


class Player:
    """A real client at one seat, a random bot deciding, every view it is shown kept.
    While the table is paused it presses a key every PRESS seconds, as a player would."""

    PRESS = 0.05

    def __init__(self, sock: Path, table: str, seat: int, create: tuple | None = None):
        self.table, self.seat, self.create = table, seat, create
        self.bot = BOTS["random"](seed=seat + 1)
        self.rng = random.Random(seat)
        self.client = TableClient(
            sock, identity=f"p{seat}", name=f"p{seat}", client="headless", on_event=self.on_event
        )
        self.seen: list[tuple[int, int]] = []  # (version, log length) of every view shown
        self.log: list[dict] = []  # the log as last shown (before the kill)
        self.notices: list[str] = []
        self.refusals: list[str] = []  # what each key pressed while paused was answered
        self.shown_while_paused = 0
        self.paused = False
        self.acted_on = None
        self.outcome = None
        self.welcomed = 0

    def on_event(self, message) -> None:
        if isinstance(message, msg.Welcome):
            self.welcomed += 1
            self.acted_on = None
            if self.create and self.welcomed == 1:
                config, humans, seed = self.create
                seats = tuple(range(humans))
                self.client.send(
                    pr.CreateTable(self.table, config, seats, seed=seed, start_when_full=True)
                )
            if self.welcomed == 1:
                self.client.take_seat(self.table, self.seat)
            self.paused = False  # (a new connection: the server says so again if it is)
        elif isinstance(message, msg.Notice) and message.table == self.table:
            self.notices.append(message.kind)
            if message.kind in ("paused", "resumed"):
                self.paused = message.kind == "paused"
                self.acted_on = None
                self.decide()
        elif isinstance(message, msg.ErrorMessage) and message.code == "paused":
            self.refusals.append(message.message)
        elif isinstance(message, msg.ErrorMessage) and message.code in (
            "stale",
            "illegal",
            "rate_limited",
        ):
            self.acted_on = None
            asyncio.get_running_loop().call_later(0.05, self.decide)
        elif isinstance(message, msg.ViewMessage) and message.table == self.table:
            view = self.client.views[self.table]
            self.seen.append((view.version, len(view.log)))
            self.shown_while_paused += self.paused
            self.decide()

    def decide(self) -> None:
        view = self.client.views.get(self.table)
        if view is None or self.paused:
            return
        if view.outcome is not None:
            self.outcome = view.outcome
        elif view.legal and self.acted_on != view:
            self.acted_on = view
            self.client.act(self.table, view, self.bot.choose(view))

    async def press_while_paused(self) -> None:
        """A key pressed on the last view shown, again and again, while paused."""
        while True:
            await asyncio.sleep(self.PRESS)
            view = self.client.views.get(self.table)
            if self.paused and view is not None and view.legal:
                self.client.act(self.table, view, self.rng.choice(view.legal))

    def keep_log(self) -> None:
        unstructure = wire_converter().unstructure
        self.log = json.loads(json.dumps([unstructure(e) for e in self.client.logs[self.table]]))


async def until(check, seconds: float, why: str) -> None:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"waited {seconds} s: {why}")
        await asyncio.sleep(0.02)


async def full(players: list[Player], fill: int) -> None:
    """The disk is full (the `fill`th time): every player is told the table is paused,
    and keys pressed meanwhile are refused."""

    def told() -> bool:
        return all(p.notices.count("paused") == fill for p in players) or any(
            p.outcome for p in players
        )

    try:
        await until(told, 20, f"every player told the table is paused ({fill})")
    except AssertionError as exc:  # say what each player heard (a flake seen once in CI)
        heard = [p.notices for p in players]
        raise AssertionError(f"{exc}; notices heard: {heard}") from None
    assert not any(p.outcome for p in players), "the game ended before the disk filled"
    refused = sum(len(p.refusals) for p in players)
    await until(lambda: sum(len(p.refusals) for p in players) >= refused + 3, 10, "keys refused")


async def room_again(server: Server, tables: Path, players: list[Player], fill: int) -> int:
    """Room on the disk again, STEP bytes beyond its largest file (more, STEP by STEP,
    if what waits is a compaction whose new save is larger): the table resumes by itself.
    How many times room was made."""
    room = max(p.stat().st_size for p in tables.glob("*") if p.is_file())
    for times in range(1, 21):
        room += STEP
        server.limit(room)
        end = time.monotonic() + 2.5  # (the server tries again every second)
        while time.monotonic() < end:
            if all(p.notices.count("resumed") == fill for p in players):
                return times
            await asyncio.sleep(0.02)
    raise AssertionError(f"never told the table resumes ({fill})")


def every_view_in(game: SavedGame, players: list[Player]) -> int:
    """Each view a player was shown is a state of `game` (its version and log length),
    and each player's last log is that seat's log there, entry for entry. How many of
    the game's actions the views showed (the furthest state any player saw)."""
    replay = SavedGame.start(game.setup)
    states = {(replay.state.version, len(replay.state.log)): 0}  # each state: its actions
    for count, action in enumerate(game.actions, 1):
        replay.play(action)
        states.setdefault((replay.state.version, len(replay.state.log)), count)
    furthest = 0
    for player in players:
        missing = [v for v in player.seen if v not in states]
        assert not missing, f"seat {player.seat} saw views the reopened game lacks: {missing}"
        furthest = max([furthest] + [states[v] for v in player.seen])
    replay = SavedGame.start(game.setup)
    for action in game.actions[:furthest]:
        replay.play(action)
    for player in players:
        log = view_to_data(view_for(replay.state, player.seat))["log"]
        log = json.loads(json.dumps(log))
        assert log[: len(player.log)] == player.log, f"seat {player.seat}: its log differs"
    return furthest


async def disk_full_run(tmp: Path, config="3v2", humans=3, seed=11, fills=2) -> dict:
    """The whole run; its figures. Raises AssertionError on anything lost or untold."""
    folder, sock, table = tmp / "saves", tmp / "s.sock", "full"
    tables = folder / "tables"
    save = tables / f"{table}.toml"
    server = Server(folder, sock, LIMIT)
    players = [Player(sock, table, 0, (config, humans, seed))]
    players += [Player(sock, table, seat) for seat in range(1, humans)]
    tasks = [asyncio.ensure_future(p.client.run()) for p in players]
    tasks += [asyncio.ensure_future(p.press_while_paused()) for p in players]
    figures = {"config": config, "humans": humans, "fills": fills, "room_made": 0}
    try:
        for fill in range(1, fills + 1):
            await full(players, fill)
            if fill < fills:  # room again: the table goes on by itself
                figures["room_made"] += await room_again(server, tables, players, fill)
        await asyncio.sleep(0.3)  # keys still pressed, refused, while full
        server.kill()  # -9, while full
        for player in players:
            player.keep_log()
        said = [line for line in server.output if "journal: [Errno 27] File too large" in line]
        assert said, server.output  # (the log says why, once a second while full)
        figures["refused"] = sum(len(p.refusals) for p in players)
        figures["views_seen"] = sum(len(p.seen) for p in players)
        figures["shown_while_paused"] = sum(p.shown_while_paused for p in players)
        for player in players:
            assert player.notices.count("paused") == fills, (player.seat, player.notices)
            assert player.notices.count("resumed") == fills - 1, (player.seat, player.notices)
            assert set(player.refusals) <= {REFUSED}, player.refusals
        assert figures["shown_while_paused"] == 0
        assert cli(["check", str(save)]) == 0  # save and journal whole, nothing torn
        reopened = read_table(save)
        figures["seen"] = every_view_in(reopened, players)
        figures["on_disk_at_kill"] = len(reopened.actions)
        figures["journal_bytes_at_kill"] = (tables / f"{table}.journal").stat().st_size
        server = Server(folder, sock, None)  # the disk has room: plays on from there
        await until(lambda: all(p.outcome for p in players), 60, "the game played to its end")
        final = read_table(save)
        assert final.state.over
        assert final.actions[: len(reopened.actions)] == reopened.actions
        figures["actions_at_end"] = len(final.actions)
        return figures
    finally:
        server.kill()
        for task in tasks:
            task.cancel()
        for player in players:
            player.client.close()


async def test_a_full_disk_loses_no_action_anyone_saw_through_kill_and_reopen(tmp_path):
    """The disk fills twice (room made once between), the server is killed while full,
    started again without a limit: every view any player was shown is in the reopened
    game, the players were told it paused and each key they pressed was refused."""
    figures = await disk_full_run(tmp_path, "2v2", humans=4)
    assert figures["refused"] >= 6
    assert figures["seen"] <= figures["on_disk_at_kill"] < figures["actions_at_end"]


if __name__ == "__main__":
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="3v2")
    parser.add_argument("--humans", type=int, default=5)
    parser.add_argument("--fills", type=int, default=6)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        began = time.monotonic()
        run = disk_full_run(Path(folder), args.config, args.humans, args.seed, args.fills)
        figures = asyncio.run(run)
        figures["seconds"] = round(time.monotonic() - began, 1)
        print(json.dumps(figures))
