"""Below 80×24 the "too small" message covers whatever is up, from the start or after a
resize, and the game comes back as it was when the terminal grows; never a crash."""

import pytest

from weathering_tui.storage.savefile import write_save
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.too_small import TooSmallScreen

from .games import fresh, setup_for


def kinds(app) -> list[str]:
    return [type(s).__name__ for s in app.screen_stack]


@pytest.mark.parametrize("size", [(79, 23), (60, 20)])
@pytest.mark.parametrize("entry", ["title", "new", "load"])
async def test_every_entry_point_in_a_small_terminal_shows_the_message(tmp_path, size, entry):
    options = {"lang": "en", "saves_dir": tmp_path, "pace": 0, "autosave": False}
    if entry == "new":
        options["setup"] = setup_for("2v1", seed=3)
    elif entry == "load":
        options["load"] = write_save(tmp_path / "g.toml", fresh(setup_for("2v1", seed=3)))
    app = WeatheringApp(**options)
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.3)
        assert isinstance(app.screen, TooSmallScreen)
        assert f"{size[0]}×{size[1]}" in str(app.screen.message)
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.3)
        assert not any(isinstance(s, TooSmallScreen) for s in app.screen_stack)
        if entry != "title":
            assert "GameScreen" in kinds(app)


async def test_shrinking_a_running_game_covers_it_and_growing_brings_it_back():
    app = WeatheringApp(
        lang="fr", saves_dir=None, setup=setup_for("2v1", seed=3), pace=0, autosave=False
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        before = kinds(app)
        assert "GameScreen" in before
        await pilot.resize_terminal(79, 23)
        await pilot.pause(0.3)
        assert isinstance(app.screen, TooSmallScreen) and kinds(app)[:-1] == before
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.3)
        assert kinds(app) == before


async def test_join_in_a_small_terminal_shows_the_message_then_the_lobby(tmp_path):
    from helpers import running_server

    from weathering_tui.tui.join import JoinApp
    from weathering_tui.tui.screens.lobby import LobbyScreen

    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        app = JoinApp(lang="fr", socket_path=path, identity="me", name="Me")
        async with app.run_test(size=(79, 23)) as pilot:
            await pilot.pause(0.5)
            assert isinstance(app.screen, TooSmallScreen)
            assert "79×23" in str(app.screen.message)
            await pilot.resize_terminal(80, 24)
            await pilot.pause(0.5)
            assert isinstance(app.screen, LobbyScreen)


async def test_a_screen_opened_while_the_terminal_is_small_stays_under_the_message():
    """A prompt that opens by itself (a reaction, a bot's move, the server) while the
    terminal is too small goes under the message, not over it; it is there, as it was,
    once the terminal grows."""
    from weathering_tui.tui.screens.help import HelpScreen

    app = WeatheringApp(
        lang="en", saves_dir=None, setup=setup_for("2v1", seed=3), pace=0, autosave=False
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        await pilot.resize_terminal(79, 23)
        await pilot.pause(0.3)
        assert isinstance(app.screen, TooSmallScreen)
        app.push_screen(HelpScreen(app.tr, "keys"))  # as a prompt would, unasked
        await pilot.pause(0.3)
        assert isinstance(app.screen, TooSmallScreen)
        assert kinds(app)[-2] == "HelpScreen"
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.3)
        assert isinstance(app.screen, HelpScreen)  # (the message under it goes when uncovered)
        await pilot.press("escape")  # the help closes: the game's own dialog, nothing over it
        await pilot.pause(0.3)
        assert kinds(app)[-2:] == ["GameScreen", "ChoiceModal"]


async def test_a_dialog_that_comes_while_small_then_opens_another_leaves_no_message(
    monkeypatch,
):
    """A hint asked in the mulligan's dialog comes while the terminal is too small (it
    goes under the message); the terminal grows; Escape on the hints opens the
    mulligan's dialog again at once, before the message under them is uncovered. The game
    under them is laid out at the new size (a play-test saw it a column short through
    the dialog); that message shows nothing under the dialog, goes once uncovered, and
    nothing crashes (a play-test's Escape there ended the game with a traceback)."""
    import threading

    from weathering_tui.bots import hint_child
    from weathering_tui.bots.hints import Hint, Hints
    from weathering_tui.tui.screens.choice import ChoiceModal

    from .games import at, wait_for

    release = threading.Event()

    def held_hint(view, should_stop=None, progress=None):
        release.wait(20)
        return Hints([Hint(view.legal[0], 0.5, 0.4, 0.6, 40)])

    monkeypatch.setattr(hint_child, "hints_apart", held_hint)
    game = at(
        setup_for("1v1", seed=5), lambda s: s.pending.kind == "mulligan" and s.pending.seat == 0
    )
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.press("h")
        await pilot.resize_terminal(79, 23)
        await wait_for(pilot, lambda: isinstance(app.screen, TooSmallScreen))
        release.set()
        await wait_for(pilot, lambda: "ChoiceModal" in kinds(app))
        await pilot.pause(0.3)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        assert app.screen.title_text == "The expert's hints"
        game = next(s for s in app.screen_stack if type(s).__name__ == "GameScreen")
        await pilot.pause(0.3)
        assert game.region.size == (80, 24), "the game under the hints, laid out anew"
        await pilot.press("escape")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ChoiceModal) and "hint" not in app.screen.title_text,
        )
        await pilot.pause(0.3)
        for under in app.screen_stack:
            if isinstance(under, TooSmallScreen):  # left under the dialog: shows nothing
                assert not under.query_one("#too-small").display
        await pilot.press("5")  # keep my hand; then the first option of each decision
        for _ in range(10):  # that comes at once (a discard…), till the game is uncovered
            await pilot.pause(0.3)
            if not isinstance(app.screen, ChoiceModal):
                break
            await pilot.press("1")
        await wait_for(pilot, lambda: "TooSmallScreen" not in kinds(app))
        assert kinds(app)[-1] == "GameScreen"
