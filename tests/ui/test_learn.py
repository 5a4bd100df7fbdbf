"""The guided first game as a learner lives it: lessons, the expected move's keys, the end."""

import pytest

from weathering_tui.engine import action_key
from weathering_tui.engine import actions as act
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.tui.screens.game_learn import MOVE_KEYS
from weathering_tui.tui.screens.title import TitleScreen
from weathering_tui.tui.widgets import KeyBar


async def make_expected_move(pilot, app, screen) -> None:
    """The keys a learner presses for the move the lesson asks for."""
    expected = app.session.expected()
    hand = [c.instance for c in screen.view().hand]
    if isinstance(expected, act.PlayCard | act.PutInDeck | act.Discard):
        index = next(
            i for i, c in enumerate(hand) if c.split("#")[0] == expected.card.split("#")[0]
        )
        await pilot.press(str(index + 1))
    await pilot.press(MOVE_KEYS[type(expected)])


async def answer(pilot, modal: ChoiceModal, value) -> None:
    key = action_key(value)
    index = next(i for i, (_, v) in enumerate(modal.options) if action_key(v) == key)
    await pilot.press(str(index + 1))


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_the_guided_game_from_the_title_to_its_end(lang):
    app = WeatheringApp(lang=lang, saves_dir=None, pace=0, autosave=False)
    lessons, refused = 0, False
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # "Apprendre à jouer" under "Nouvelle partie"
        for _ in range(600):
            await pilot.pause(0.02)
            screen = app.screen
            session = app.session
            if isinstance(screen, ChoiceModal):
                if screen.options == [(app.tr("learn.go"), True)]:
                    lessons += 1
                    await pilot.press("enter")
                elif any(v == "go_on" for _, v in screen.options):
                    break  # the end of the lesson
                elif session.expected() is not None and isinstance(
                    screen.options[0][1], act.Action.__args__
                ):
                    await answer(pilot, screen, session.expected())
                else:
                    await pilot.press("1")  # the transition summary
            elif isinstance(screen, GameScreen) and screen._my_turn():
                bar = str(screen.query_one(KeyBar).render())
                assert bar.strip().startswith(app.tr("learn.todo.key", label="", k="")[:5])
                if not refused:  # a move the lesson does not ask for says why
                    refused = True
                    await pilot.press(
                        "e" if not isinstance(session.expected(), act.EndTurn) else "s"
                    )
                    await pilot.pause()
                    assert not screen._my_turn() or session.expected() is not None
                    assert len(app._notifications) == 1  # "not yet: …"
                    await make_expected_move(pilot, app, screen)
                    await pilot.pause()
                    assert len(app._notifications) == 0, "answered: it goes"
                    continue
                await make_expected_move(pilot, app, screen)
        else:
            raise AssertionError(f"stuck on {app.screen!r}")
        assert lessons == len(session.script.lessons)
        assert session.finished
        await pilot.press("3")  # back to the title
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
