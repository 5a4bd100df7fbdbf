"""A harmful card's target: the dialog puts an opponent first (Enter hits an opponent,
never the player), and a blow aimed at one's own side is played only once confirmed."""

from helpers import set_hand

from weathering_tui.engine import actions as act
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal

from .games import at, human_turn, setup_for, wait_for

HARMFUL = ("tempete", "lose_ap")  # Tempête: the target loses 3 PA


def holding_a_storm(config="2v1"):
    game = at(setup_for(config, seed=11), human_turn(0, 1))
    set_hand(game.state, 0, HARMFUL[0])
    game.state.players[0].ap = 10
    return game


async def open_play_dialog(pilot, app):
    await pilot.pause()
    await pilot.press("p")
    await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
    return app.screen


async def test_enter_on_a_storm_hits_an_opponent():
    game = holding_a_storm()
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_play_dialog(pilot, app)
        first = dialog.options[0][1]
        assert isinstance(first, act.PlayCard)
        assert game.state.players[first.target].side == "lobbyist"
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.session.game.actions) > 0 and not app.screen.is_modal)
        played = [a for a in app.session.game.actions if isinstance(a, act.PlayCard)]
        assert played and game.state.players[played[0].target].side == "lobbyist"


async def test_a_storm_at_oneself_asks_first_and_no_keeps_the_pa():
    game = holding_a_storm()
    before = len(game.actions)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_play_dialog(pilot, app)
        mine = next(i for i, (_, a) in enumerate(dialog.options) if a.target == 0)
        assert mine > 0, "the player's own seat is never the default"
        confirm_from = dialog
        dialog.answer(dialog.options[mine][1])  # the player picks themself
        await wait_for(
            pilot, lambda: isinstance(app.screen, ChoiceModal) and app.screen is not dialog
        )
        confirm = app.screen
        assert "yourself" in confirm.body or "you yourself" in str(confirm.body)
        assert confirm.options[0][1] is None, "the highlighted answer is the safe one"
        assert "1: choose again" in confirm.keys and "2: play it" in confirm.keys  # how to answer
        await pilot.press("enter")  # No: choose again
        # back to the targets, not to the hand: the player picks another
        await wait_for(
            pilot, lambda: isinstance(app.screen, ChoiceModal) and app.screen is not confirm
        )
        assert len(app.session.game.actions) == before
        assert app.session.game.state.players[0].ap == 10
        dialog = app.screen
        assert [a for _, a in dialog.options] == [a for _, a in confirm_from.options]
        # and confirmed this time: it is played
        mine = next(i for i, (_, a) in enumerate(dialog.options) if a.target == 0)
        dialog.answer(dialog.options[mine][1])
        await wait_for(
            pilot, lambda: isinstance(app.screen, ChoiceModal) and app.screen is not dialog
        )
        app.screen.answer(app.screen.options[1][1])  # Yes
        await wait_for(pilot, lambda: len(app.session.game.actions) > before)
        assert app.session.game.actions[before].target == 0
