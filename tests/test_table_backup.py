"""A damaged table save is told, not hidden: compaction keeps the previous save as
NAME.toml.bak and the journal keeps every line beyond it; after a restart a save that
does not read is restored from the backup and the journal (the log says so), or the
table is listed as damaged with its reason (the log names the file), and joining it is
refused in one line."""

import errno
import os

import pytest
from helpers import running_server
from test_net import answers, raw

from weathering_tui.cli import main as cli
from weathering_tui.engine import legal_actions, replay
from weathering_tui.engine.wire import action_to_data
from weathering_tui.net import protocol as pr
from weathering_tui.net import server_messages as msg
from weathering_tui.net.table import Table
from weathering_tui.storage.atomicfile import atomic_copy
from weathering_tui.storage.journal import FileJournal
from weathering_tui.storage.savefile import read_save
from weathering_tui.tui.screens.lobby import net_error, table_line
from weathering_tui.words import Tr


def table_at(saves) -> Table:
    """A 1v1 table of the server's tables folder in `saves`, Ann at seat 0 (away after
    a restart), started and saved as the server does."""
    folder = saves / "tables"
    folder.mkdir(parents=True)
    table = Table("Tee", "1v1", [0], bot_kind="random", seed=5, creator="ann")
    table.seats[0].owner, table.seats[0].name = "ann", "Ann"
    table.saves.keep_at(folder / "tee.toml")
    table.start()
    for seat in table.seats:
        seat.botted = True  # (the test plays every seat: no reaction waits on Ann)
    table.saves.save()
    return table


def play(table: Table, count: int) -> None:
    """`count` more actions, journaled as the server journals them."""
    for _ in range(count):
        state = table.game.state
        table.game.play(legal_actions(state, state.pending.seat)[0])
    table.saves.journal.append(table.saves.durable, list(table.saves.unjournaled))
    table.saves.durable = len(table.game.actions)


def data(actions) -> list[dict]:
    return [action_to_data(a) for a in actions]


def test_compaction_keeps_the_previous_save_as_bak_and_the_journal_beyond_it(tmp_path):
    table = table_at(tmp_path)
    backup = table.saves.path.with_name("tee.toml.bak")
    assert not backup.exists()  # the first save replaces none
    play(table, 6)
    table.saves.save()
    before = table.saves.path.read_bytes()
    play(table, 5)
    table.saves.save()  # a compaction: the save of 6 actions becomes the backup
    assert backup.read_bytes() == before
    assert table.saves.path.read_bytes() != before
    assert len(read_save(backup).actions) == 6
    assert [n for n, _ in FileJournal.beside(table.saves.path).entries()] == list(range(6, 11))
    play(table, 3)
    table.saves.save()
    assert len(read_save(backup).actions) == 11  # one save back, never older
    assert [n for n, _ in FileJournal.beside(table.saves.path).entries()] == list(range(11, 14))


def test_a_backup_that_cannot_be_written_stops_the_compaction(tmp_path):
    table = table_at(tmp_path)
    play(table, 6)
    before = table.saves.path.read_bytes()
    table.saves.path.with_name("tee.toml.bak").mkdir()  # (no file can be renamed over it)
    with pytest.raises(OSError):
        table.saves.save()
    assert table.saves.path.read_bytes() == before  # nothing half done: tried again later
    assert len(FileJournal.beside(table.saves.path).entries()) == 6


@pytest.mark.parametrize("refusal", [errno.EPERM, errno.EIO])
def test_where_links_are_refused_the_backup_is_a_copy_and_other_failures_raise(
    tmp_path, monkeypatch, refusal
):
    save, backup = tmp_path / "a.toml", tmp_path / "a.toml.bak"
    save.write_bytes(b"previous")

    def refused(*args, **kwargs):
        raise OSError(refusal, os.strerror(refusal))

    monkeypatch.setattr(os, "link", refused)
    if refusal == errno.EPERM:  # (a file system without hard links)
        assert atomic_copy(save, backup) and backup.read_bytes() == b"previous"
    else:
        with pytest.raises(OSError):
            atomic_copy(save, backup)
        assert not backup.exists()
    assert {p.name for p in tmp_path.iterdir()} <= {"a.toml", "a.toml.bak"}  # no temporary


def test_a_move_taken_back_past_the_backup_leaves_no_backup_to_replay_it(tmp_path):
    table = table_at(tmp_path)
    play(table, 6)
    table.saves.save()
    play(table, 2)
    table.saves.save()  # backup: 6 actions, save: 8
    game = table.game
    game.state = replay(game.setup, game.actions[:5])  # (as an undo past both would)
    table.saves.write_compacted(table.saves.snapshot()[1], 5)
    assert not table.saves.path.with_name("tee.toml.bak").exists()
    assert FileJournal.beside(table.saves.path).entries() == []


@pytest.mark.parametrize("damage", ["cut short", "gone"])
async def test_a_damaged_save_is_restored_from_its_backup_and_journal(tmp_path, capsys, damage):
    table = table_at(tmp_path / "saves")
    play(table, 6)
    table.saves.save()
    play(table, 5)
    table.saves.save()
    play(table, 4)  # in the journal only
    expected = data(table.game.actions)
    damaged = table.saves.path.read_bytes()[:-40]  # cut short (a disk that lost its end)
    if damage == "gone":
        table.saves.path.unlink()
    else:
        table.saves.path.write_bytes(damaged)
    async with running_server(tmp_path) as server:
        restored = server.tables["tee"]
        assert data(restored.game.actions) == expected  # every journaled action
        assert server.lobby.damaged == {}
        assert restored.seats[0].owner == "ann" and restored.seats[0].away
    log = capsys.readouterr().out
    assert "tee.toml: " in log and "table save damaged" in log
    assert "table Tee restored from tee.toml.bak and tee.journal (15 actions)" in log
    if damage == "cut short":
        assert (
            table.saves.path.with_name("tee.toml.damaged").read_bytes() == damaged
        )  # to look into
    else:
        assert "tee.toml: no such file" in log and "it had no save" in log
    assert data(read_save(table.saves.path).actions) == expected
    assert cli(["check", str(table.saves.path)]) == 0


async def test_a_damaged_save_without_a_backup_is_listed_damaged_and_refused(tmp_path, capsys):
    table = table_at(tmp_path / "saves")
    play(table, 6)
    table.saves.save()
    play(table, 3)
    table.saves.save()
    table.saves.path.with_name("tee.toml.bak").write_text("not a save")  # the backup too
    text = table.saves.path.read_text().replace("action_count = 9", "action_count = 8")
    table.saves.path.write_text(text)  # read, but its [meta] lies: refused
    assert cli(["check", str(table.saves.path)]) == 2  # `check` says it too
    async with running_server(tmp_path) as server:
        assert server.tables == {}
        reader, writer = await raw(server.socket_path, "ann")
        writer.write(pr.client_line(pr.ListTables()))
        listed = (await answers(reader, "tables"))[-1]
        msg.parse_server(msg.server_line("tables", tables=listed["tables"]))
        [entry] = listed["tables"]
        assert entry["name"] == "Tee" and entry["stage"] == "damaged"
        assert entry["damaged"].startswith("meta.action_count is 8 but the game says 9")
        assert "/" not in entry["damaged"]  # the reason, never the server's paths
        assert [s["player"] for s in entry["seats"]] == ["Ann", ""]  # its player sees it
        tr = Tr("en")
        assert "damaged" in table_line(tr, entry)
        for request in (pr.TakeSeat("Tee", 0), pr.Spectate("Tee"), pr.Start("Tee")):
            writer.write(pr.client_line(request))
            [error] = await answers(reader, "error")
            assert error["code"] == "damaged" and error["params"]["table"] == "Tee"
            said = net_error(
                tr,
                msg.ErrorMessage(
                    **{k: error[k] for k in ("code", "message")}, params=error.get("params")
                ),
            )
            assert said.startswith(
                "This table cannot be played: its save is damaged (meta.action_count"
            )
            assert "\n" not in said
        writer.write(pr.client_line(pr.CreateTable("tee", "1v1", (0,))))
        assert (await answers(reader, "error"))[-1]["code"] == "name_taken"
        writer.close()
    log = capsys.readouterr().out
    assert f"table save damaged: {table.saves.path}: meta.action_count is 8" in log
    assert "no backup to restore it from: " in log and "tee.toml.bak" in log
    assert table.saves.path.read_text() == text  # nothing written over it


async def test_the_lobby_shows_a_damaged_table_in_words_and_enter_is_refused_there(tmp_path):
    from ui.test_join import screen_text, until

    from weathering_tui.tui.join import JoinApp
    from weathering_tui.tui.screens.lobby import LobbyScreen

    table = table_at(tmp_path / "saves")
    table.saves.path.write_text("format = 'weathering-save'\n")  # a save cut to its first line
    async with running_server(tmp_path) as server:
        app = JoinApp(lang="en", socket_path=server.socket_path, identity="ann", name="Ann")
        async with app.run_test(size=(100, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.tables)
            shown = screen_text(app)
            assert "damaged: format_version is missing" in shown, shown
            assert "tee" in shown  # (no [meta] to read its name from: its file's)
            await pilot.press("enter")
            said = "This table cannot be played: its save is damaged (format_version is missing"
            await until(pilot, lambda: any(n.message.startswith(said) for n in app._notifications))
            assert isinstance(app.screen, LobbyScreen) and app.client.seats == {}
