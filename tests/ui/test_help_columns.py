"""The help's keys and symbols: every description starts in the same column, whatever
cells its key takes (✋ takes two: str.ljust shifted its line by one, a play-test saw)."""

import pytest
from rich.cells import cell_len

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.help import HelpScreen
from weathering_tui.words import LEGEND


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_every_symbol_s_words_start_in_the_same_column(lang):
    app = WeatheringApp(lang=lang, saves_dir=None, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_help()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        lines = screen._keys().plain.splitlines()
        wide = 0
        for key, what in LEGEND[lang]:
            line = next(line for line in lines if line.startswith(key + " "))
            start = line.index(what.split()[0], len(key))
            assert cell_len(line[:start]) == 16, (key, line)
            wide += cell_len(key) != len(key)
        assert wide, "a symbol two cells wide is among them (else nothing is tested)"
