"""The table server: whole games through it, nothing hidden in any message, hostile
input refused, a killed server or a dropped player losing nothing."""

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import running_server

from weathering_tui.cli import main as cli
from weathering_tui.engine import SPECTATOR
from weathering_tui.net import protocol as pr
from weathering_tui.net import server_messages as msg
from weathering_tui.net.headless import play_seat
from weathering_tui.net.server import Server


def card_ids(value) -> set[str]:
    if isinstance(value, str):
        return {value} if "#" in value else set()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*map(card_ids, value)) if value else set()
    return set()


class LeakProbe:
    """Checks every line the server sends, at the moment it is sent, against the state."""

    def __init__(self, server: Server):
        self.server = server
        self.checked = 0
        self.spectator_views = 0

    def __call__(self, conn, line: bytes) -> None:
        message = msg.parse_server(line)  # every line the server sends is of its protocol
        text = line.decode()
        for table in self.server.tables.values():
            if table.game is None:
                continue
            state = table.game.state
            assert f"{state.rng:016x}" not in text and '"rng"' not in text
            if not isinstance(message, msg.ViewMessage) or message.table != table.name:
                continue
            seat = conn.tables[table.name]
            hidden = set(state.draw_pile) | set(state.event_pile)
            for player in state.players:
                if player.seat != seat:
                    hidden |= set(player.hand) | set(player.deck)
            public, mine = set(), set()
            for entry in state.log:
                public |= card_ids(entry.data)
                if seat in entry.audience:
                    mine |= card_ids(entry.secret)
            shown = card_ids(message)
            leaked = (shown & hidden) - public - mine
            assert not leaked, f"seat {seat} was sent {sorted(leaked)}"
            for entry in message.view["log"]:
                if entry["secret"]:
                    assert seat in entry["audience"]
            self.checked += 1
            self.spectator_views += seat == SPECTATOR


async def watcher(path: Path, table: str, seen: list) -> None:
    """A spectator connection that keeps every view it is sent."""
    reader, writer = await asyncio.open_unix_connection(str(path), limit=16 * 1024 * 1024)
    writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "watcher", identity="watcher")))
    while True:
        writer.write(pr.client_line(pr.Spectate(table)))
        line = await reader.readline()
        if not line:
            return
        message = json.loads(line)
        if message.get("type") == "watching":
            break
        await asyncio.sleep(0.05)
    while line := await reader.readline():
        seen.append(json.loads(line))


@pytest.mark.parametrize(
    "config, humans", [("2v1", 2), ("3v2", 3)], ids=["2v1-two-players", "3v2-three-players"]
)
async def test_players_finish_a_game_through_one_server_and_the_save_checks(
    tmp_path, config, humans
):
    path = tmp_path / "s.sock"
    server = Server(tmp_path / "saves", path, pace=0, grace=30)
    probe = server.probe = LeakProbe(server)
    await server.start()
    seen: list = []
    try:
        players = [
            play_seat("night", 0, "heuristic", path, create=config, humans=humans, identity="p0")
        ] + [
            play_seat("night", seat, "random", path, identity=f"p{seat}")
            for seat in range(1, humans)
        ]
        watch = asyncio.get_running_loop().create_task(watcher(path, "night", seen))
        results = await asyncio.wait_for(asyncio.gather(*players), 120)
        for _ in range(100):  # the spectator sees the end too (it may have come in late)
            if any(m.get("type") == "view" and m["view"].get("outcome") for m in seen):
                break
            await asyncio.sleep(0.05)
        watch.cancel()
    finally:
        await server.stop()
    assert len({(r["hp"], r["band"]) for r in results}) == 1  # one game, one outcome
    saves = list((tmp_path / "saves" / "tables").glob("*.toml"))
    assert len(saves) == 1
    assert cli(["check", str(saves[0])]) == 0
    assert probe.checked > 50 and probe.spectator_views > 0
    views = [m for m in seen if m.get("type") == "view"]
    assert views and views[0]["full"] and not all(m["full"] for m in views)  # then deltas
    whole: dict = {}
    for message in views:  # each view laid over the one before, as a client does
        whole = message["view"] if message["full"] else {**whole, **message["view"]}
        assert whole["seat"] == SPECTATOR and whole["hand"] == []
    assert whole["outcome"] is not None


async def raw(path: Path, identity: str):
    reader, writer = await asyncio.open_unix_connection(str(path), limit=16 * 1024 * 1024)
    writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "raw", identity=identity)))
    await reader.readline()  # welcome
    return reader, writer


async def answers(reader, want=None, timeout=2.0) -> list[dict]:
    """Lines until `want` (a type) arrives or nothing comes for a moment."""
    out = []
    while True:
        try:
            line = await asyncio.wait_for(reader.readline(), timeout)
        except (TimeoutError, ConnectionError):
            return out
        if not line:
            return out
        message = json.loads(line)
        out.append(message)
        if message.get("type") == want:
            return out


async def test_hostile_messages_change_nothing_and_other_tables_play_on(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path) as server:
        reader, writer = await raw(path, "mallory")
        writer.write(pr.client_line(pr.CreateTable("target", "1v1", (0, 1))))
        writer.write(pr.client_line(pr.TakeSeat("target", 0)))
        await answers(reader, "seated")
        other_r, other_w = await raw(path, "victim")
        other_w.write(pr.client_line(pr.TakeSeat("target", 1)))
        await answers(other_r, "seated")
        writer.write(pr.client_line(pr.Start("target")))
        await answers(reader, "view")
        table = server.tables["target"]
        before = (table.game.state.version, len(table.game.actions), table.saves.path.read_bytes())
        # A game elsewhere goes on meanwhile.
        elsewhere = asyncio.get_running_loop().create_task(
            play_seat("calm", 0, "random", path, create="1v1", humans=1, identity="calm")
        )
        pending = table.game.state.pending
        victim_seat = 1
        bad_lines = [
            b"{not json\n",
            b"[1, 2, 3]\n",
            b'{"type": "act"}\n',
            b'{"type": "act", "table": "target", "version": "x", "action": {}}\n',
            b'{"type": "list_tables", "extra": 1}\n',
            b'{"type": "chat", "table": "target", "text": ' + b'"' + b"x" * 5000 + b'"}\n',
            b'{"type": "nonsense"}\n',
            pr.client_line(
                pr.Act(
                    "target", table.game.state.version, {"kind": "end_turn", "seat": victim_seat}
                )
            ),  # for another seat
            pr.client_line(
                pr.Act("target", table.game.state.version, {"kind": "draw", "seat": 0})
            ),  # illegal now (mulligan)
            pr.client_line(
                pr.Act("target", table.game.state.version - 1, {"kind": "choose_card", "seat": 0})
            ),  # stale
            pr.client_line(
                pr.Act("target", 0, {"kind": "choose_card", "seat": 0, "card": "x#1", "zz": 1})
            ),
            pr.client_line(pr.TakeSeat("target", 1)),  # someone else's seat
            pr.client_line(pr.Start("calm")),  # not the creator
        ]
        for line in bad_lines:
            writer.write(line)
        errors = [m for m in await answers(reader, timeout=1.0) if m["type"] == "error"]
        assert len(errors) == len(bad_lines), errors
        assert pending == table.game.state.pending
        assert before == (
            table.game.state.version,
            len(table.game.actions),
            table.saves.path.read_bytes(),
        )
        # A flood: refused beyond the rate, then the abuser is shown the door; the server
        # lives on.
        try:
            for _ in range(300):
                writer.write(pr.client_line(pr.ListTables()))
            await writer.drain()
        except ConnectionError:
            pass
        flood = await answers(reader, timeout=1.0)
        refused = any(m.get("code") == "rate_limited" for m in flood)
        assert refused or reader.at_eof() or reader.exception() is not None
        assert len([m for m in flood if m.get("type") == "tables"]) <= 100  # never all 300
        # A line far too long closes that connection only.
        long_r, long_w = await raw(path, "huge")
        long_w.write(b'{"type": "chat", "text": "' + b"y" * (pr.MAX_LINE + 10) + b'"}\n')
        got = await answers(long_r, timeout=1.0)
        assert any(m.get("code") == "too_long" for m in got)
        assert await long_r.read() == b""
        # Another user may not speak for an identity (only the server's own user may).
        assert before == (
            table.game.state.version,
            len(table.game.actions),
            table.saves.path.read_bytes(),
        )
        result = await asyncio.wait_for(elsewhere, 60)
        assert result["band"]


async def seated_alone(path, identity: str = "ann"):
    """A 1v1 whose seat 0 is `identity`'s, the other a bot: started, its view come."""
    reader, writer = await raw(path, identity)
    writer.write(pr.client_line(pr.CreateTable("t", "1v1", (0,), start_when_full=True)))
    writer.write(pr.client_line(pr.TakeSeat("t", 0)))
    await answers(reader, "view")
    return reader, writer


async def test_a_dropped_player_is_replaced_by_a_bot_after_the_grace_and_comes_back(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, grace=0.5) as server:
        reader, writer = await seated_alone(path)
        table = server.tables["t"]
        assert table.deciding == 0 and not table.seats[0].botted
        writer.close()  # the link drops mid-decision
        await asyncio.sleep(0.2)
        assert table.seats[0].away and not table.seats[0].botted  # still hers
        await asyncio.sleep(0.8)
        assert table.seats[0].botted  # past the grace, a bot plays it
        await asyncio.sleep(0.3)
        assert table.game.state.version > 0 or table.over
        # She comes back: the seat is hers again and she plays on.
        result = await asyncio.wait_for(play_seat("t", 0, "heuristic", path, identity="ann"), 60)
        assert not table.seats[0].botted or table.over
        assert result["seat"] == 0


async def test_a_player_cannot_watch_the_table_they_sit_at_and_leave_it_waiting(tmp_path):
    """Watching one's own table took the seat's place on the connection: gone, the seat
    was never marked away and the game waited for it forever (a hostile review)."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, grace=0.5) as server:
        reader, writer = await seated_alone(path)
        writer.write(pr.client_line(pr.Spectate("t")))
        refused = await answers(reader, "error")
        assert refused[-1]["code"] == "seated", refused
        writer.close()
        await asyncio.sleep(0.2)
        table = server.tables["t"]
        assert table.seats[0].away
        await asyncio.sleep(0.8)
        assert table.seats[0].botted  # past the grace, a bot plays it


async def test_a_player_who_leaves_a_started_game_is_played_by_a_bot_at_once(tmp_path):
    """Leaving on purpose (q at the table) keeps nobody waiting out the grace: a bot plays
    the seat at once, the table is told who left, and the seat stays theirs to take back."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, grace=60.0) as server:
        ann_r, ann_w = await raw(path, "ann")
        ann_w.write(pr.client_line(pr.CreateTable("t", "1v1", (0, 1), start_when_full=True)))
        ann_w.write(pr.client_line(pr.TakeSeat("t", 0)))
        await answers(ann_r, "seated")
        bob_r, bob_w = await raw(path, "bob")
        bob_w.write(pr.client_line(pr.TakeSeat("t", 1)))
        await answers(bob_r, "view")
        table = server.tables["t"]
        bob_w.write(pr.client_line(pr.Leave("t")))
        heard = await answers(ann_r, "notice")  # the game's start
        heard = await answers(ann_r, "notice")
        assert (heard[-1]["kind"], heard[-1]["name"]) == ("left", "bob")
        assert table.seats[1].botted and table.seats[1].owner == "bob"
        assert 1 not in server.lobby.driver("t").away_timers  # no minute to wait out
        bob_w.write(pr.client_line(pr.TakeSeat("t", 1)))  # back from the lobby
        seated = await answers(bob_r, "seated")
        assert seated[-1]["seat"] == 1
        assert not table.seats[1].botted or table.over


async def heard(reader, kind: str, timeout: float = 5.0) -> dict:
    """The next notice of `kind` this connection hears (what comes before it, skipped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in await answers(reader, "notice", timeout=deadline - time.monotonic()):
            if message.get("type") == "notice" and message["kind"] == kind:
                return message
    raise AssertionError(f"no {kind} notice in {timeout} s")


async def test_a_player_who_does_not_decide_is_played_by_a_bot_until_they_act(
    tmp_path, monkeypatch
):
    """A seated player who never acted stalled everyone's game for good: only reaction
    windows had a clock (a hostile review). Now the table hears when the decision's time
    is nearly up, then a bot plays the seat; the player's next move takes it back."""
    from weathering_tui.engine import legal_actions
    from weathering_tui.net import decision_clock

    monkeypatch.setattr(decision_clock, "WARN_BEFORE", 0.4)
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, decision_time=1.0, pace=0.5) as server:
        reader, writer = await seated_alone(path)
        table = server.tables["t"]
        assert table.deciding == 0
        started = time.monotonic()
        soon = await heard(reader, "decide_soon")
        assert (soon["name"], soon["text"]) == ("ann", "0")  # (0.4 s, said in whole seconds)
        assert not table.seats[0].botted
        slow = await heard(reader, "slow")
        assert slow["name"] == "ann" and time.monotonic() - started >= 0.9
        assert table.seats[0].botted and table.seats[0].owner == "ann"
        # She acts before the bot (at the table's pace) has: the seat is hers again.
        state = table.game.state
        action = legal_actions(state, 0)[0]
        writer.write(pr.client_line(pr.Act("t", state.version, pr.action_data(action))))
        back = await heard(reader, "back")
        assert back["name"] == "ann" and not table.seats[0].botted
        assert table.game.actions[-1] == action  # her move, not a bot's
        # Her next decision has its own clock: idle again, a bot again.
        if table.deciding == 0:
            await heard(reader, "slow")
            assert table.seats[0].botted


async def test_an_act_and_its_undo_give_no_new_time(tmp_path, monkeypatch):
    """Acting just before the time was up, then taking the move back, gave the decision
    a new time, again and again: the table stalled for good (a hostile review). The
    decision an undo comes back to keeps the time it had left."""
    from types import SimpleNamespace

    from weathering_tui.engine import apply as engine_apply
    from weathering_tui.engine import can_undo, clone, legal_actions
    from weathering_tui.net import table as table_module

    # a deal whose first turn offers a move the undo rule lets her take back (the
    # deal's seed is random at a table: 2 in 6 had none)
    monkeypatch.setattr(table_module, "secrets", SimpleNamespace(randbits=lambda bits: 1))
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, decision_time=2.0, pace=5.0) as server:
        reader, writer = await seated_alone(path)
        table = server.tables["t"]
        for _ in range(100):  # her own turn, past the mulligan (a bot's pace: 5 s)
            state = table.game.state
            if state.pending.seat == 0 and state.pending.kind == "turn":
                break
            action = legal_actions(state, state.pending.seat)[-1]
            writer.write(pr.client_line(pr.Act("t", state.version, pr.action_data(action))))
            await answers(reader, "view", timeout=1.0)
        state = table.game.state
        assert state.pending.kind == "turn" and state.pending.seat == 0
        started, version = time.monotonic(), state.version

        def undoable(action) -> bool:
            trial = clone(state)
            engine_apply(trial, action)
            return can_undo(trial, 0)

        action = next(a for a in legal_actions(state, 0) if undoable(a))
        await asyncio.sleep(1.2)
        writer.write(pr.client_line(pr.Act("t", version, pr.action_data(action))))
        await answers(reader, "view", timeout=1.0)
        writer.write(pr.client_line(pr.Undo("t", table.game.state.version)))
        await heard(reader, "undo", timeout=2.0)
        assert table.game.state.version == version  # back to the same decision
        await heard(reader, "slow", timeout=3.0)
        assert time.monotonic() - started < 2.0 + 0.6  # its time, not a new 2 s after the undo


async def test_a_paused_table_hands_nobody_to_a_bot_for_being_slow(tmp_path):
    """While the table cannot save it takes no move: a player could not have acted, so
    their decision's time starts again rather than a bot taking the seat."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, decision_time=0.4) as server:
        reader, writer = await seated_alone(path)
        table = server.tables["t"]
        table.saves.paused = True  # (as when its journal cannot be written)
        await asyncio.sleep(1.0)
        assert not table.seats[0].botted
        table.saves.paused = False
        await heard(reader, "slow", timeout=2.0)
        assert table.seats[0].botted


async def test_a_player_who_decides_in_time_keeps_the_seat(tmp_path):
    """A player who answers each decision in time plays the whole game: no bot ever
    takes the seat."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, decision_time=3.0) as server:
        result = await asyncio.wait_for(
            play_seat("t", 0, "heuristic", path, create="1v1", humans=1, identity="ann"), 120
        )
        assert result["band"] and not server.tables["t"].seats[0].botted


async def test_the_lobby_hears_each_tables_round_as_it_is_played(tmp_path):
    """The lobby lists where each game is: it is told at each new round, not only when
    seats change (a play-test read "Round 4/5" of a game in its second phase)."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, pace=0.02) as server:
        ann_r, ann_w = await raw(path, "ann")
        ann_w.write(pr.client_line(pr.CreateTable("t", "1v1", (0,), start_when_full=True)))
        ann_w.write(pr.client_line(pr.TakeSeat("t", 0)))
        await answers(ann_r, "view")
        lobby_r, _ = await raw(path, "watcher")
        ann_w.write(pr.client_line(pr.Leave("t")))  # a bot plays on, at the server's pace
        rounds = set()
        while not server.tables["t"].over:
            for message in await answers(lobby_r, "tables", timeout=5.0):
                for table in message.get("tables", []):
                    if "round" in table and "outcome" not in table:
                        rounds.add((table["phase"], table["round"]))
        assert len(rounds) >= 5, rounds


def _serve(tmp_path: Path, path: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "weathering_tui",
            "serve",
            "--socket",
            str(path),
            "--saves-dir",
            str(tmp_path / "saves"),
            "--pace",
            "0.03",
            "--grace",
            "30",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def _wait_for_socket(path: Path, limit=20.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        try:
            with socket.socket(socket.AF_UNIX) as probe:
                probe.connect(str(path))
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the server never listened")


def table_actions(save: Path) -> list:
    """A table's actions as far as anyone saw them: its save and its journal."""
    from weathering_tui.engine.wire import action_to_data
    from weathering_tui.storage.journal import read_table
    from weathering_tui.storage.savefile import SaveError

    try:
        return [action_to_data(a) for a in read_table(save).actions]
    except (OSError, SaveError):
        return []


def actions_in(save: Path) -> int:
    return len(table_actions(save))


def test_a_killed_server_loses_nothing_and_the_players_finish(tmp_path):
    path = tmp_path / "s.sock"
    server = _serve(tmp_path, path)
    try:
        _wait_for_socket(path)
        join = [sys.executable, "-m", "weathering_tui", "join", "--socket", str(path)]
        players = [
            subprocess.Popen(
                join
                + [
                    "--bot",
                    "random",
                    "--table",
                    "k",
                    "--seat",
                    "0",
                    "--create",
                    "2v1",
                    "--humans",
                    "2",
                    "--identity",
                    "a",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            ),
            subprocess.Popen(
                join + ["--bot", "random", "--table", "k", "--seat", "1", "--identity", "b"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            ),
        ]
        save = tmp_path / "saves" / "tables" / "k.toml"
        end = time.monotonic() + 30
        while time.monotonic() < end and actions_in(save) < 30:
            time.sleep(0.05)
        assert 30 <= actions_in(save) < 100  # mid-game
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        before = table_actions(save)
        assert cli(["check", str(save)]) == 0  # what was saved is whole
        server = _serve(tmp_path, path)
        outputs = [p.communicate(timeout=120)[0] for p in players]
        results = [json.loads(out) for out in outputs]
        assert results[0]["hp"] == results[1]["hp"]
        assert cli(["check", str(save)]) == 0
        from weathering_tui.storage.savefile import read_save

        final = read_save(save)  # finished: compacted, the save alone holds it all
        assert final.state.over
        # the game went on from what was kept: its actions begin with those
        after = table_actions(save)
        assert after[: len(before)] == before and len(after) > len(before)
    finally:
        server.kill()
        server.wait()


async def test_a_spectating_connection_leaving_frees_no_seat_and_saves_are_private(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path) as server:
        seated_r, seated_w = await raw(path, "eve")
        seated_w.write(pr.client_line(pr.CreateTable("g", "1v1", (0, 1))))
        seated_w.write(pr.client_line(pr.TakeSeat("g", 1)))
        await answers(seated_r, "seated")
        other_r, other_w = await raw(path, "eve")  # the same identity, a second connection
        other_w.write(pr.client_line(pr.Spectate("g")))
        other_w.write(pr.client_line(pr.Leave("g")))
        await answers(other_r, timeout=0.5)
        table = server.tables["g"]
        assert table.seats[1].owner == "eve"  # a spectator leaving frees nothing
        victim_r, victim_w = await raw(path, "victim")
        victim_w.write(pr.client_line(pr.TakeSeat("g", 1)))
        assert any(m.get("code") == "seat_taken" for m in await answers(victim_r, timeout=0.5))
        victim_w.write(pr.client_line(pr.TakeSeat("g", 0)))
        seated_w.write(pr.client_line(pr.Start("g")))
        await answers(victim_r, "view")
        assert table.saves.path.stat().st_mode & 0o077 == 0  # the save: its owner's alone
        assert (tmp_path / "saves" / "tables").stat().st_mode & 0o077 == 0


async def test_a_bots_reaction_is_answered_before_the_next_message_is_read(tmp_path):
    """Two messages in one write (an action, then a pass as if asked) get the same answer
    whether or not a bot held a cancel: its reaction is never a moment one can catch."""
    replies, asked = [], []
    for holds_cancel in (True, False):
        path = tmp_path / f"s{holds_cancel}.sock"
        server = Server(tmp_path / f"saves{holds_cancel}", path, pace=30, grace=30)
        await server.start()
        try:
            reader, writer = await raw(path, "p")
            writer.write(pr.client_line(pr.CreateTable("r", "1v1", (0,), seed=1)))
            writer.write(pr.client_line(pr.TakeSeat("r", 0)))
            writer.write(pr.client_line(pr.Start("r")))
            await answers(reader, "view")
            table = server.tables["r"]
            state = table.game.state
            from helpers import set_hand

            from weathering_tui.engine import actions as act

            while state.pending.kind != "turn" or state.pending.seat != 0:
                seat = state.pending.seat
                if seat == 0:  # keep the hand, let things happen
                    legal = table.view(0).legal
                    keep = [a for a in legal if a in (act.ChooseCard(0, None), act.Pass(0))]
                    table.game.play((keep or list(legal))[0])
                else:
                    table.game.play(table.bot_choice(seat))
            set_hand(state, 0, "potager_partage")  # +1 PV: not worth a cancel to the bot
            set_hand(state, 1, "boycott" if holds_cancel else "troc")
            state.players[0].ap = state.players[1].ap = 5
            play = next(a for a in table.view(0).legal if isinstance(a, act.PlayCard))
            version = state.version
            before = len(state.log)
            writer.write(pr.client_line(pr.Act("r", version, pr.action_data(play))))
            writer.write(pr.client_line(pr.Act("r", version + 1, pr.action_data(act.Pass(0)))))
            got = [m for m in await answers(reader, timeout=1.0) if m["type"] == "error"]
            asked.append(table.game.actions[-1] == act.Pass(1))
            assert not [e for e in state.log[before:] if e.kind == "cancel"]
            replies.append([(m["code"], m.get("message"), m.get("params")) for m in got])
        finally:
            await server.stop()
    assert replies[0] == replies[1] and replies[0]
    assert asked == [True, False]  # the bot was asked in the first world only


async def test_a_newer_connection_of_the_same_identity_takes_the_seat_and_the_older_is_told(
    tmp_path,
):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        old_r, old_w = await raw(path, "ann")
        old_w.write(pr.client_line(pr.CreateTable("t", "1v1", (0, 1))))
        old_w.write(pr.client_line(pr.TakeSeat("t", 0)))
        await answers(old_r, "seated")
        new_r, new_w = await raw(path, "ann")
        new_w.write(pr.client_line(pr.TakeSeat("t", 0)))
        await answers(new_r, "seated")
        told = await answers(old_r, "taken_over")
        assert told[-1] == {"type": "taken_over", "table": "t"}
        old_w.write(pr.client_line(pr.Chat("t", "still here?")))
        assert "not_at_table" in [m.get("code") for m in await answers(old_r, "error")]
