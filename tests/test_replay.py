"""The replay (play/replay.py, `weathering replay`): every step is the replayed prefix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from weathering_tui.content.converter import get_converter
from weathering_tui.engine import SPECTATOR, Setup, new_game, replay, view_for
from weathering_tui.engine.wire import view_from_json
from weathering_tui.play.replay import Timeline
from weathering_tui.sim.simulate import play_game
from weathering_tui.storage.savefile import SavedGame, read_save, write_save

EXAMPLES = sorted((Path(__file__).parent.parent / "saves" / "examples").glob("*.toml"))


def data(view) -> dict:
    return get_converter().unstructure(view)


def check_every_step(game: SavedGame) -> None:
    timeline = Timeline(game)
    seats = range(len(game.setup.seats))
    state = new_game(game.setup)
    for n in range(timeline.length + 1):
        if n:
            from weathering_tui.engine import apply

            apply(state, game.actions[n - 1])
        for seat in [*seats, SPECTATOR]:
            assert data(timeline.view_at(n, seat)) == data(view_for(state, seat)), (n, seat)


def test_every_step_of_the_golden_game_is_the_replayed_prefix():
    setup = Setup.standard("3v2", seed=7)  # the golden playthrough's game
    state, actions = play_game(setup)
    check_every_step(SavedGame(setup, state, "t", "t"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_step_of_each_example_save_is_the_replayed_prefix(path):
    check_every_step(read_save(path))


def test_jumps_backwards_and_forwards_give_the_same_views():
    setup = Setup.standard("2v1", seed=3)
    state, actions = play_game(setup)
    timeline = Timeline(SavedGame(setup, state, "t", "t"))
    for n in (timeline.length, 0, 37, 5, 36, timeline.length - 1, 17):
        expected = view_for(replay(setup, actions[:n]), 1)
        assert data(timeline.view_at(n, 1)) == data(expected)


def test_turns_and_rounds_step_to_their_first_action():
    setup = Setup.standard("2v1", seed=4)
    state, actions = play_game(setup)
    timeline = Timeline(SavedGame(setup, state, "t", "t"))
    n, rounds = 0, [timeline.marks[0].round]
    while True:
        n = timeline.next_round(n, 1)
        if n == timeline.length:  # the last step stops at the end, in the last round
            break
        rounds.append(timeline.marks[n].round)
    assert rounds == sorted(set(rounds)), "each step forward reaches a later round"
    assert rounds == list(range(timeline.marks[timeline.length].round + 1))
    back = timeline.next_round(timeline.length, -1)
    assert timeline.marks[back].round == timeline.marks[timeline.length].round
    assert timeline.marks[back - 1].round < timeline.marks[back].round
    turn = timeline.next_turn(0, 1)
    assert (timeline.marks[turn].round, timeline.marks[turn].active) != (
        timeline.marks[0].round,
        timeline.marks[0].active,
    )
    assert timeline.next_turn(turn, -1) < turn


def test_every_hand_is_shown_only_once_the_game_is_over():
    setup = Setup.standard("1v1", seed=2)
    state, actions = play_game(setup, stop_after=30)
    timeline = Timeline(SavedGame(setup, state, "t", "t"))
    with pytest.raises(PermissionError):
        timeline.hands_at(10)
    with pytest.raises(PermissionError):  # nor the Écolos' decks
        timeline.decks_at(10)
    state, actions = play_game(setup)
    timeline = Timeline(SavedGame(setup, state, "t", "t"))
    assert timeline.hands_at(10) == [list(p.hand) for p in replay(setup, actions[:10]).players]


def test_replay_json_prints_the_seats_view_through_the_wire_format(tmp_path):
    setup = Setup.standard("2v1", seed=9)
    state, actions = play_game(setup)
    path = write_save(tmp_path / "game.toml", SavedGame(setup, state, "t", "t"))
    out = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "replay", str(path), "--at", "40"]
        + ["--seat", "2", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    view = view_from_json(out)
    assert data(view) == data(view_for(replay(setup, actions[:40]), 2))
    assert view.seat == 2 and view.version == replay(setup, actions[:40]).version


@pytest.mark.parametrize(
    ("args", "words"),
    [(["--at", "100000"], "--at"), (["--seat", "9"], "--seat"), ([], "no such file")],
)
def test_replay_refuses_bad_input_in_words(tmp_path, args, words):
    setup = Setup.standard("1v1", seed=1)
    state, actions = play_game(setup, stop_after=10)
    path = write_save(tmp_path / "game.toml", SavedGame(setup, state, "t", "t"))
    target = str(path) if words != "no such file" else str(tmp_path / "missing.toml")
    run = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "replay", target, "--json", "--lang", "en"] + args,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert words in run.stderr and "Traceback" not in run.stderr


def test_a_table_save_is_replayed_with_its_journal(tmp_path):
    """A table server's save is its journal compacted now and then: the replay reads
    both, so the actions after the last compaction are there too."""
    from weathering_tui.storage.journal import FileJournal

    setup = Setup.standard("2v1", seed=12)
    state, actions = play_game(setup)
    head = replay(setup, actions[:30])
    path = write_save(tmp_path / "table.toml", SavedGame(setup, head, "t", "t"))
    FileJournal.beside(path).append(30, actions[30:50])
    out = subprocess.run(
        [sys.executable, "-m", "weathering_tui", "replay", str(path), "--at", "45", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert data(view_from_json(out)) == data(view_for(replay(setup, actions[:45]), 0))
