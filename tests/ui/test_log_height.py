"""The log pane uses the height the terminal gives it (issue: 4 lines at 120×40 under a
hand pane half empty): the hand and deck panes are as tall as what they hold."""

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.widgets import HandPane, LogPane

from .games import at, human_turn, setup_for, wait_for


async def test_on_a_tall_terminal_the_log_takes_what_the_hand_does_not_need():
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.screen.query(LogPane))
        await pilot.pause()
        hand = app.screen.query_one(HandPane)
        log = app.screen.query_one(LogPane)
        cards = len(app.session.view().hand)
        assert hand.size.height <= cards + 6, (hand.size.height, cards)
        assert log.size.height >= 15, log.size.height
