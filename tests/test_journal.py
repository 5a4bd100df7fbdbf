"""The table journal: durable appends, a torn last line left out, a gap refused, and a
table read back as its save plus the journal's actions beyond it (what `check` reads)."""

import pytest

from weathering_tui.cli import main as cli
from weathering_tui.engine import Setup, legal_actions
from weathering_tui.engine.state import SeatSetup
from weathering_tui.engine.wire import action_to_data
from weathering_tui.storage.journal import FileJournal, read_table
from weathering_tui.storage.savefile import SavedGame, SaveError, write_save


def game_with(actions: int) -> SavedGame:
    setup = Setup("1v1", (SeatSetup("ecologist"), SeatSetup("lobbyist")), seed=3)
    game = SavedGame.start(setup)
    for _ in range(actions):
        seat = game.state.pending.seat
        game.play(legal_actions(game.state, seat)[0])
    return game


def test_the_journal_holds_what_the_save_does_not(tmp_path):
    save = tmp_path / "t.toml"
    game = game_with(4)
    write_save(save, game, backup=False)
    full = game_with(12)
    journal = FileJournal.beside(save)
    journal.append(4, full.actions[4:9])
    journal.append(9, full.actions[9:12])
    back = read_table(save)
    assert [action_to_data(a) for a in back.actions] == [action_to_data(a) for a in full.actions]
    assert back.state.version == full.state.version
    assert cli(["check", str(save)]) == 0


def test_a_journal_just_made_has_its_folder_synced_too(tmp_path, monkeypatch):
    """The file's lines were fsync'd but not its name: a power loss could lose a new
    table's first lines with the file (a hostile review). The folder is synced once."""
    from weathering_tui.storage import journal as journal_module

    synced = []
    monkeypatch.setattr(journal_module, "fsync_dir", synced.append)
    full = game_with(6)
    journal = FileJournal.beside(tmp_path / "t.toml")
    journal.append(0, full.actions[:3])
    assert synced == [tmp_path]
    journal.append(3, full.actions[3:6])
    assert synced == [tmp_path]  # a file already there: its lines alone


def test_a_line_cut_by_a_crash_is_left_out_and_lines_in_the_save_are_skipped(tmp_path):
    save = tmp_path / "t.toml"
    full = game_with(8)
    write_save(save, game_with(5), backup=False)
    journal = FileJournal.beside(save)
    journal.append(3, full.actions[3:7])  # 3 and 4 are in the save already
    with open(journal.path, "ab") as handle:
        handle.write(b'{"n": 7, "action": {"ki')  # the write that never finished
    assert len(read_table(save).actions) == 7


def test_a_gap_in_the_journal_is_refused(tmp_path):
    save = tmp_path / "t.toml"
    full = game_with(8)
    write_save(save, game_with(2), backup=False)
    FileJournal.beside(save).append(4, full.actions[4:6])
    with pytest.raises(SaveError, match="journal: action 4 follows action 1"):
        read_table(save)
    assert cli(["check", str(save)]) == 2


async def test_a_table_server_compacts_its_journal_off_the_event_loop(tmp_path, monkeypatch):
    """Every COMPACT_EVERY journal lines the save is written again and the journal
    emptied, by the server's writer thread (never on the event loop); the finished
    save holds the whole game."""
    import threading

    from helpers import running_server

    from weathering_tui.net import table_saves
    from weathering_tui.net.headless import play_seat

    monkeypatch.setattr(table_saves, "COMPACT_EVERY", 10)
    threads: list[int] = []
    write_compacted = table_saves.TableSaves.write_compacted

    def recorded(self, text, count):
        if self.journal.length:  # a grown journal compacted (not the save at the start)
            threads.append(threading.get_ident())
        write_compacted(self, text, count)

    monkeypatch.setattr(table_saves.TableSaves, "write_compacted", recorded)
    async with running_server(tmp_path) as server:
        await play_seat("c", 0, "random", server.socket_path, create="1v1", seed=4, timeout=60)
        table = server.tables["c"]
        assert table.over
        actions = list(table.game.actions)
    assert len(threads) >= len(actions) // 10 - 1 > 2, "compacted as the journal grew"
    assert threading.get_ident() not in threads
    assert read_table(table.saves.path).actions == actions
    assert len(FileJournal.beside(table.saves.path).entries()) < 10


CHILD_APPEND = r"""
import os, resource, signal, sys, json
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from test_journal import game_with
from weathering_tui.storage.journal import FileJournal

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # as `weathering serve` does
path = Path(sys.argv[1])
full = game_with(40)
journal = FileJournal(path)
journal.append(0, full.actions[:10])
whole = path.stat().st_size
resource.setrlimit(resource.RLIMIT_FSIZE, (whole + int(sys.argv[2]), resource.RLIM_INFINITY))
outcome = {"whole": whole}
try:
    journal.append(10, full.actions[10:40])
    outcome["append"] = "ok"
except OSError as exc:
    outcome["append"] = exc.errno
outcome["after_failure"] = path.stat().st_size
outcome["entries_after_failure"] = len(journal.entries())
resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
journal.append(10, full.actions[10:40])  # the disk has room again: tried again
outcome["entries_at_last"] = [n for n, _ in journal.entries()]
print(json.dumps(outcome))
"""


def test_a_full_disk_refuses_the_append_whole_and_leaves_no_torn_line(tmp_path):
    """RLIMIT_FSIZE in a child: the batch does not fit, part of it could be written.
    The append must fail whole (the file cut back to its last whole line) so that,
    once there is room again, the same actions follow on a clean line: nothing lost,
    nothing skipped (before, a torn fragment hid every later line)."""
    import errno
    import json
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).parent
    run = subprocess.run(
        [sys.executable, "-c", CHILD_APPEND, str(tmp_path / "t.journal"), "300", str(tests)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tests.parent,
    )
    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout)
    assert outcome["append"] in (errno.EFBIG, errno.ENOSPC)
    assert outcome["after_failure"] == outcome["whole"]
    assert outcome["entries_after_failure"] == 10
    assert outcome["entries_at_last"] == list(range(40))


def test_a_short_write_is_carried_on_to_the_end(tmp_path, monkeypatch):
    import os

    real = os.write
    calls = []

    def short(fd, data):
        calls.append(len(data))
        return real(fd, data[: max(1, len(data) // 3)])

    monkeypatch.setattr(os, "write", short)
    journal = FileJournal(tmp_path / "t.journal")
    journal.append(0, game_with(12).actions)
    monkeypatch.setattr(os, "write", real)
    assert len(calls) > 2
    assert [n for n, _ in journal.entries()] == list(range(12))


def test_a_damaged_line_in_the_middle_is_reported_not_skipped(tmp_path, capsys):
    save = tmp_path / "t.toml"
    full = game_with(10)
    write_save(save, game_with(2), backup=False)
    journal = FileJournal.beside(save)
    journal.append(2, full.actions[2:5])
    with open(journal.path, "ab") as handle:
        handle.write(b'{"n": 5, "acti\n')  # torn, then more lines written after it
    journal.append(5, full.actions[5:8])
    with pytest.raises(SaveError, match="line 4 is damaged"):
        read_table(save)
    assert cli(["--lang", "en", "check", str(save)]) != 0
    assert "line 4 is damaged" in capsys.readouterr().out


def test_a_torn_tail_left_by_a_crash_is_cut_before_the_next_append(tmp_path):
    journal = FileJournal(tmp_path / "t.journal")
    full = game_with(6)
    journal.append(0, full.actions[:3])
    with open(journal.path, "ab") as handle:
        handle.write(b'{"n": 3, "act')  # killed mid-write: never synced, never shown
    reopened = FileJournal(journal.path)
    assert reopened.length == 3
    reopened.append(3, full.actions[3:6])
    assert [n for n, _ in reopened.entries()] == list(range(6))
