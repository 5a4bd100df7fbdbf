"""A card that moves the gauge the other side's way is played only once confirmed (seen
in play: an Écolo's `p` on the first card of the hand played Plastic pollution at once).
"No" is highlighted: Enter alone plays nothing."""

from helpers import set_hand

from weathering_tui.engine import actions as act
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal

from .games import at, human_turn, setup_for, wait_for


async def test_an_ecolo_s_damage_card_asks_before_it_is_played():
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    set_hand(game.state, 0, "deforestation", "mangroves")
    game.state.players[0].ap = 6
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        version = app.session.view().version
        await pilot.press("1", "p")  # Deforestation: −3 PV
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.pause()
        assert app.screen.title_text == "Against your own side?"
        await pilot.press("enter")  # the safe answer: nothing played
        await wait_for(pilot, lambda: not isinstance(app.screen, ChoiceModal))
        assert app.session.view().version == version
        await pilot.press("2", "p")  # Mangroves: +2 PV, played at once
        await wait_for(pilot, lambda: app.session.view().version > version)
        played = [a for a in app.session.game.actions if isinstance(a, act.PlayCard)]
        assert played[-1].card.startswith("mangroves")
