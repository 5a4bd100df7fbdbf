"""Keys typed ahead never act in a dialog that was not on screen when they were typed
(issue #29: '4 p' typed for the hand, a dialog opened at the start of the turn took the
keys and played Troc)."""

from textual import events

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal

from .games import at, human_turn, setup_for, wait_for


async def test_a_key_typed_before_a_dialog_opened_does_not_answer_it():
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        typed = [events.Key("1", "1"), events.Key("enter", None)]  # typed now, for the hand
        version = app.session.view().version
        await pilot.press("s")  # then the store dialog opens
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.pause()
        dialog = app.screen
        for key in typed:  # and only now do they arrive
            app.post_message(key)
        await pilot.pause(0.2)
        assert app.screen is dialog and app.session.view().version == version
        await pilot.press("1")  # a key typed with the dialog on screen answers it
        await wait_for(pilot, lambda: app.screen is not dialog)
        await wait_for(pilot, lambda: app.session.view().version > version)
