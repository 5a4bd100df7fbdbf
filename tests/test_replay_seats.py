"""Before a game's end, its replay and its review show only the player's own seat: the
bots' hands stay hidden (a play-test read them in the replay of a game it then loaded
and played on, and `review` named a card a bot had put in its deck). Once it is over,
every seat; in a game several players share, none before the end."""

import json

import attrs
import pytest

from weathering_tui.cli import main
from weathering_tui.engine import SPECTATOR, view_for
from weathering_tui.engine.state import Setup
from weathering_tui.play.replay import ReplaySession, Timeline, seats_shown
from weathering_tui.sim.simulate import play_game
from weathering_tui.storage.savefile import SavedGame, write_save


def with_humans(setup: Setup, humans: tuple[int, ...]) -> Setup:
    seats = tuple(attrs.evolve(s, human=i in humans) for i, s in enumerate(setup.seats))
    return attrs.evolve(setup, seats=seats)


def game(humans: tuple[int, ...], stop_after: int | None = 40, seed: int = 8) -> SavedGame:
    setup = with_humans(Setup.standard("2v1", seed=seed), humans)
    state, _ = play_game(setup, "random", stop_after=stop_after)
    return SavedGame(setup, state, "t", "t")


@pytest.mark.parametrize(
    ("humans", "over", "shown"),
    [
        ((1,), False, [1]),
        ((0, 2), False, []),
        ((), False, [0, 1, 2]),
        ((1,), True, [0, 1, 2]),
        ((0, 2), True, [0, 1, 2]),
    ],
)
def test_the_seats_a_replay_may_show(humans, over, shown):
    setup = with_humans(Setup.standard("2v1", seed=1), humans)
    assert seats_shown(setup, over) == shown


def test_an_unfinished_game_s_replay_opens_on_the_player_and_stays_there():
    saved = game(humans=(1,))
    assert not saved.state.over
    session = ReplaySession(Timeline(saved), seat=0)  # asked for a bot's seat
    assert session.seat == 1, "the player's own seat instead"
    assert not session.choose_seat(0) and not session.choose_seat(2)
    assert session.seat == 1
    for at in range(0, session.timeline.length + 1, 7):
        session.go(at)
        view = session.view()
        assert view.seat == 1
        assert view == view_for(session.timeline.state_at(at), 1)
        assert all(p.hand is None for i, p in enumerate(view.players) if i != 1)


def test_players_sharing_an_unfinished_game_see_no_hand_in_its_replay():
    session = ReplaySession(Timeline(game(humans=(0, 2))))
    assert session.seat == SPECTATOR and session.shown == []
    assert all(p.hand is None for p in session.view().players)
    assert not any(session.choose_seat(seat) for seat in range(3))


def test_a_finished_game_s_replay_shows_every_seat():
    session = ReplaySession(Timeline(game(humans=(1,), stop_after=None)))
    assert session.timeline.over and session.seat == 1
    assert all(session.choose_seat(seat) and session.seat == seat for seat in range(3))


def test_the_command_line_keeps_the_hidden_seats_hidden(tmp_path, capsys):
    path = tmp_path / "g.toml"
    write_save(path, game(humans=(1,)))
    assert main(["--lang", "en", "replay", str(path), "--json", "--seat", "0"]) == 2
    assert "not over" in capsys.readouterr().err
    assert main(["--lang", "en", "replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seat"] == 1
    assert main(["--lang", "en", "review", str(path), "--seat", "2", "--budget", "4"]) == 2
    assert "only seat 1" in capsys.readouterr().err
    assert main(["--lang", "en", "review", str(path), "--budget", "4", "--json"]) == 0
    reviewed = json.loads(capsys.readouterr().out)["reviewed"]
    assert set(reviewed) == {"1"}, "the bots' decisions are not reviewed before the end"
    shared = tmp_path / "shared.toml"
    write_save(shared, game(humans=(0, 2)))
    assert main(["--lang", "fr", "review", str(shared), "--budget", "4"]) == 2
    assert "aucune place" in capsys.readouterr().err
