""" "Ask at every announcement" (once "Ask every human") and the end's forecast
("⚡ Stormy") are said where they appear (issue #29 item 9: neither was ever explained)."""

import pytest

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.end import EndScreen
from weathering_tui.tui.screens.new_game import NewGameForm
from weathering_tui.words import LEGEND

from .test_replay_ui import finished


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_the_ask_every_human_row_says_what_it_does(lang):
    app = WeatheringApp(lang=lang, saves_dir=None, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # the title's first choice: a new game
        await pilot.pause()
        form = app.screen.query_one(NewGameForm)
        about = app.tr("new.ask_all.about")
        assert about not in str(form.render())
        while form.rows()[form.row] != "ask_all":
            await pilot.press("down")
        assert about in str(form.render())


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_the_end_says_what_its_forecast_means(tmp_path, lang):
    app = WeatheringApp(lang=lang, saves_dir=tmp_path, game=finished(), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await pilot.pause(0.02)
            if isinstance(app.screen, EndScreen):
                break
        band = app.session.view().outcome.band
        about = app.screen.query_one("#band-about")
        assert str(about.render()) == app.tr(f"band.about.{band}", goal=15)
        assert about.region.width <= 80


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_help_legend_names_every_forecast(lang):
    from weathering_tui.words import Tr

    tr = Tr(lang)
    forecast = next(text for key, text in LEGEND[lang] if key.startswith("☀"))
    for band in ("grand_soleil", "ensoleille", "eclaircies", "orageux", "tourmente"):
        assert tr(f"band.{band}").split(" ", 1)[1] in forecast
