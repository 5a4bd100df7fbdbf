"""A digit names a card of the hand; one beyond it says so instead of doing nothing (a
play-test typed "4 p" with three cards: the 4 was ignored and p played the card
selected before)."""

from helpers import set_hand

from weathering_tui.tui.app import WeatheringApp

from .games import at, human_turn, setup_for


async def test_a_digit_beyond_the_hand_says_the_hand_s_size():
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    set_hand(game.state, 0, "mangroves", "eoliennes", "reboisement")
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("2")
        await pilot.pause()
        assert screen.selected == 1 and not app._notifications
        await pilot.press("4")
        await pilot.pause()
        assert [n.message for n in app._notifications] == ["No card 4: your hand holds 3."]
        assert screen.selected == 1  # the selection stays where it was
