"""The footer at 80 columns (issue #29 item 6): every key shown keeps its words (undo and
hint, help and quit always among them) in every language, the keys left out are in the
help ("…" says some are), and with NO_COLOR each key stands apart from its word."""

import pytest

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.widgets import KeyBar

from .games import at, human_turn, setup_for, wait_for

WORDS = {"fr": ("aide", "quitter"), "en": ("help", "quit")}


def phase_one_game():
    return at(setup_for("2v1", seed=11), human_turn(0, 1))


@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "no_color"])
@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_help_and_quit_keep_their_words_at_80_columns(monkeypatch, lang, no_color):
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = WeatheringApp(lang=lang, saves_dir=None, game=phase_one_game(), pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        bar = screen.query_one(KeyBar)
        await wait_for(pilot, lambda: "e" in bar.shown)
        # The richest footer: a card selected that can be played, put in the deck and
        # discarded, then a draw done so that undo is offered too.
        await pilot.press("d")  # a draw of one card, or two: the first
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: "u" in bar.shown)
        line = str(bar.render())
        help_word, quit_word = WORDS[lang]
        assert f"?{' ' if no_color else ''}{help_word}" in line
        assert f"q{' ' if no_color else ''}{quit_word}" in line
        assert len(line) <= 80
        left_out = set(bar.shown) - set(bar.drawn)
        assert ("…" in line) == bool(left_out)
        assert left_out <= set(KeyBar.DROP), "only keys the help tells are left out"
        assert {"p", "e", "u", "h", "?", "q"} <= set(bar.drawn)
        if not no_color:  # store and power stay even in French (a play-test missed them)
            assert {"s", "o"} & set(bar.shown) <= set(bar.drawn), (bar.shown, bar.drawn)
        assert bar.bare == (), "every key on the line says what it does"
        if no_color:
            for key in bar.drawn:  # "p jouer", never "pjouer"
                at_key = line.index(f" {key}")
                after = line[at_key + 1 + len(key) :]
                assert after == "" or after[0] == " ", line


async def test_a_wide_terminal_shows_every_key_with_its_word():
    app = WeatheringApp(lang="fr", saves_dir=None, game=phase_one_game(), pace=0, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        bar = app.screen.query_one(KeyBar)
        await wait_for(pilot, lambda: "e" in bar.shown)
        assert bar.drawn == bar.shown
        assert "…" not in str(bar.render())
        assert "h conseil" in str(bar.render())
