"""The table journal: durable appends, a torn last line left out, a gap refused, and a
table read back as its save plus the journal's actions beyond it (what `check` reads)."""

import pytest

from weathering_tui.cli import main as cli
from weathering_tui.engine import Setup, legal_actions
from weathering_tui.engine.state import SeatSetup
from weathering_tui.engine.wire import action_to_data
from weathering_tui.savefile import SavedGame, SaveError, write_save
from weathering_tui.storage.journal import FileJournal, read_table


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


def test_reset_empties_it(tmp_path):
    journal = FileJournal(tmp_path / "j.journal")
    journal.append(0, game_with(3).actions)
    assert journal.length == 3 and len(journal.entries()) == 3
    journal.reset()
    assert journal.length == 0 and journal.entries() == []


async def test_a_table_server_compacts_its_journal_off_the_event_loop(tmp_path, monkeypatch):
    """Every COMPACT_EVERY journal lines the save is written again and the journal
    emptied, by the server's writer thread (never on the event loop); the finished
    save holds the whole game."""
    import threading

    from helpers import running_server

    from weathering_tui.net import driver
    from weathering_tui.net.headless import play_seat
    from weathering_tui.net.table import Table

    monkeypatch.setattr(driver, "COMPACT_EVERY", 10)
    threads: list[int] = []
    write_compacted = Table.write_compacted

    def recorded(self, text):
        if self.journal.length:  # a grown journal compacted (not the save at the start)
            threads.append(threading.get_ident())
        write_compacted(self, text)

    monkeypatch.setattr(Table, "write_compacted", recorded)
    async with running_server(tmp_path) as server:
        await play_seat("c", 0, "random", server.socket_path, create="1v1", seed=4, timeout=60)
        table = server.tables["c"]
        assert table.over
        actions = list(table.game.actions)
    assert len(threads) >= len(actions) // 10 - 1 > 2, "compacted as the journal grew"
    assert threading.get_ident() not in threads
    assert read_table(table.path).actions == actions
    assert len(FileJournal.beside(table.path).entries()) < 10
