"""A card that moves the gauge the other side's way is played only once confirmed (seen
in play: an Écolo's `p` on the first card of the hand played Plastic pollution at once).
"No" is highlighted: Enter alone plays nothing."""

import pytest
from helpers import set_hand

from weathering_tui.engine import actions as act
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal

from .games import at, human_turn, setup_for, wait_for


@pytest.mark.parametrize(
    ("config", "harm", "said"),
    [
        ("2v1", "deforestation", "moves the gauge the other side's way"),  # −3 PV
        # Seen in a play-test: Advertising blitz ("each Écolo loses 2 PA") was played at
        # once and cost the player their PA; the gauge check let it through.
        ("1v1", "matraquage_publicitaire", "this hits your own side"),
    ],
)
async def test_an_ecolo_s_card_against_the_ecolos_asks_before_it_is_played(config, harm, said):
    game = at(setup_for(config, seed=11), human_turn(0, 1))
    set_hand(game.state, 0, harm, "mangroves")
    game.state.players[0].ap = 6
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        version = app.session.view().version
        await pilot.press("1", "p")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.pause()
        assert app.screen.title_text == "Against your own side?"
        assert said in app.screen.body
        assert ".:" not in app.screen.body  # the card text's full stop, then ": this…"
        # nothing to choose again on a card aimed at no one (a play-test was offered to)
        assert app.screen.options[0][0] == "No, do not play it"
        await pilot.press("enter")  # the safe answer: nothing played
        await wait_for(pilot, lambda: not isinstance(app.screen, ChoiceModal))
        assert app.session.view().version == version
        assert app.session.view().me.ap == 6
        await pilot.press("2", "p")  # Mangroves: +2 PV, played at once
        await wait_for(pilot, lambda: app.session.view().version > version)
        played = [a for a in app.session.game.actions if isinstance(a, act.PlayCard)]
        assert played[-1].card.startswith("mangroves")


def test_a_whole_side_s_loss_is_against_that_side_only():
    from weathering_tui.content import default_content
    from weathering_tui.content import effects as fx

    cards = default_content().cards
    blitz = cards["matraquage_publicitaire"].cartouches[0]  # each Écolo loses 2 PA
    assert fx.against_side(blitz, "ecologist")
    assert not fx.against_side(blitz, "lobbyist")
    assert not fx.against_side(cards["mangroves"].cartouches[0], "ecologist")
    gift = (fx.GainAp(who="each_lobbyist", amount=1),)
    assert fx.against_side(gift, "ecologist") and not fx.against_side(gift, "lobbyist")
