"""The players pane at a table (issue #29 item 9): a player's name is never cut to 8
letters ("player1··Cassy"); at 80 columns the character gets what is left, and a wider
terminal shows both whole."""

import pytest

from weathering_tui.engine.state import SeatSetup, Setup
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.tui.widgets import PlayersPane

from .games import fresh, wait_for

SEATS = (
    SeatSetup("ecologist", "cassy", name="player1", human=True),
    SeatSetup("ecologist", "thomas", name="alexandrine"),
    SeatSetup("lobbyist", "aux_poches_pleines", name="bernadette"),
)


def rows(app) -> list[str]:
    game = next(s for s in app.screen_stack if isinstance(s, GameScreen))  # under a dialog
    return str(game.query_one(PlayersPane).render()).splitlines()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_players_name_is_whole_and_the_character_gets_the_rest(size):
    game = fresh(Setup("2v1", SEATS, seed=3))
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: len(rows(app)) == 3)
        await pilot.pause()
        lines = rows(app)
        for line, name in zip(lines, ("player1", "alexandrine", "bernadette"), strict=True):
            assert f" {name}·" in line, lines
        if size[0] >= 120:  # room for everything
            assert "player1·Cassy " in lines[0]
            assert "alexandrine·Thomas " in lines[1]
            assert "bernadette·Aux poches pleines " in lines[2]
        else:
            assert "alexandrine·Thom… " in lines[1]  # all the columns the numbers leave
        # the stats stay in one column, whatever the names
        assert len({line.index("PA") for line in lines}) == 1, lines


async def test_a_character_s_long_name_keeps_the_numbers_in_line_at_80_columns():
    """A seat named by its character, "Aux poches pleines" (18 letters), pushed its
    numbers 4 columns out of line at 80 columns (a play-test): it is cut there, whole
    from 81."""
    seats = (
        SeatSetup("ecologist", "cassy", human=True),
        SeatSetup("lobbyist", "aux_poches_pleines"),
    )
    for width, shown in ((80, "Aux poches plein… "), (81, "Aux poches pleines ")):
        game = fresh(Setup("1v1", seats, seed=3))
        app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
        async with app.run_test(size=(width, 24)) as pilot:
            await wait_for(pilot, lambda app=app: len(rows(app)) == 2)
            await pilot.pause()
            lines = rows(app)
            assert shown in lines[1], lines
            assert len({line.index("PA") for line in lines}) == 1, lines
            pane = next(s for s in app.screen_stack if isinstance(s, GameScreen))
            inside = pane.query_one(PlayersPane).size.width
            assert max(len(line) + 1 for line in lines) <= inside, (lines, inside)  # ✋: 2


async def test_pa_and_its_number_stand_apart_at_ten():
    """'PA10' read as one word (seen at 80×24): the number stands apart, in its column."""
    game = fresh(Setup("2v1", SEATS, seed=3))
    game.state.players[1].ap = 10
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: len(rows(app)) == 3)
        await pilot.pause()
        lines = rows(app)
        assert "PA 10 ◆" in lines[1] and "PA  3 ◆" in lines[0], lines
        assert len({line.index("◆") for line in lines}) == 1, lines
