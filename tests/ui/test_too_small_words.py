"""The "too small" message says what q does under it (issue #29 item 9: it said "the
game is saved" in the lobby): a game at this terminal is saved; a seat at a table waits
a while; the title, the lobby or a game not saved have nothing to save."""

import pytest

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.too_small import TooSmallScreen

from .games import setup_for

SAVED = {"fr": "la partie est sauvegardée", "en": "the game is saved"}


async def small_message(app, pilot) -> str:
    await pilot.pause(0.4)
    assert isinstance(app.screen, TooSmallScreen)
    return str(app.screen.message)


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_the_title_does_not_say_a_game_is_saved(tmp_path, lang):
    app = WeatheringApp(lang=lang, saves_dir=tmp_path, pace=0)
    async with app.run_test(size=(79, 23)) as pilot:
        message = await small_message(app, pilot)
        assert SAVED[lang] not in message and "q" in message


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_a_game_saved_at_this_terminal_says_so(tmp_path, lang):
    app = WeatheringApp(lang=lang, saves_dir=tmp_path, setup=setup_for("2v1", seed=3), pace=0)
    async with app.run_test(size=(79, 23)) as pilot:
        assert SAVED[lang] in await small_message(app, pilot)


async def test_a_game_not_saved_does_not_say_so():
    app = WeatheringApp(
        lang="fr", saves_dir=None, setup=setup_for("2v1", seed=3), pace=0, autosave=False
    )
    async with app.run_test(size=(79, 23)) as pilot:
        assert SAVED["fr"] not in await small_message(app, pilot)


async def test_the_lobby_does_not_say_a_game_is_saved(tmp_path):
    from helpers import running_server

    from weathering_tui.tui.join import JoinApp

    async with running_server(tmp_path):
        app = JoinApp(lang="fr", socket_path=tmp_path / "s.sock", identity="me", name="Me")
        async with app.run_test(size=(79, 23)) as pilot:
            await pilot.pause(0.3)
            message = await small_message(app, pilot)
            assert SAVED["fr"] not in message and "q\u00a0: quitter" in message
