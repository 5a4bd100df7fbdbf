"""Escape on a decision the game waits for (the mulligan) says how to answer instead
of doing nothing (a play-test pressed it and saw no change)."""

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal

from .games import at, setup_for


async def test_escape_on_the_mulligan_says_how_to_answer_and_keeps_the_dialog():
    game = at(
        setup_for("2v1", seed=3), lambda s: s.pending.kind == "mulligan" and s.pending.seat == 0
    )
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceModal) and not dialog.can_back
        app.clear_notifications()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is dialog
        said = [n.message for n in app._notifications]
        assert said == [app.tr("dialog.no_back", n=len(dialog.options))], said
        assert f"1 à {len(dialog.options)}" in said[0]
