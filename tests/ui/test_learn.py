"""The guided first game as a learner lives it: lessons, the expected move's keys, the end."""

import pytest
from textual.containers import Vertical

from weathering_tui.engine import action_key
from weathering_tui.engine import actions as act
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.screens.end import EndScreen
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.tui.screens.game_learn import MOVE_KEYS, PANES
from weathering_tui.tui.screens.lesson import LessonModal
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


def box_clear_of_its_panes(app, modal) -> None:
    """A lesson's box hides neither the panes it speaks of nor a prompt, and shows its
    words whole (the box on PA once lay over the Players pane, then hid its last line)."""
    game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    assert not any(isinstance(s, ChoiceModal) for s in app.screen_stack if s is not modal), (
        "a lesson never lies over a dialog"
    )
    box = modal.query_one(Vertical).region
    lesson = app.session.script.lessons[app.session.lessons_shown - 1]
    points = ("gauge",) if app.session.state.over else lesson.points
    for name in points:
        pane = game.query_one(PANES[name]).region
        assert not box.overlaps(pane), (lesson.title["en"], name, box, pane)
    words = modal.query_one("#choice-body-box")
    assert words.max_scroll_y == 0, (lesson.title["en"], "its words scroll", app.size)


@pytest.mark.parametrize(("lang", "size"), [("fr", (80, 24)), ("en", (80, 24)), ("fr", (120, 40))])
async def test_the_guided_game_from_the_title_to_its_end(lang, size):
    app = WeatheringApp(lang=lang, saves_dir=None, pace=0, autosave=False)
    lessons, refused, ending, hinted_in_dialog = 0, False, None, False
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # "Apprendre à jouer" under "Nouvelle partie"
        for _ in range(900):
            await pilot.pause(0.02)
            screen = app.screen
            session = app.session
            if isinstance(screen, EndScreen):
                break
            if isinstance(screen, LessonModal):
                await pilot.pause()
                box_clear_of_its_panes(app, screen)
                if session.state.over:
                    ending = screen.body
                else:
                    lessons += 1
                await pilot.press("enter")
            elif isinstance(screen, ChoiceModal):
                assert not any(v == "go_on" for _, v in screen.options), "no early end"
                if session.expected() is not None and isinstance(
                    screen.options[0][1], act.Action.__args__
                ):
                    # the bottom line points into the dialog, not at the key that opened it
                    in_dialog = app.tr("learn.todo.dialog", label="")
                    assert screen.keys.startswith(in_dialog), screen.keys
                    if not hinted_in_dialog:  # `h` there says why it gives nothing
                        hinted_in_dialog = True
                        app.clear_notifications()
                        await pilot.press("h")
                        await pilot.pause()
                        said = [n.message for n in app._notifications]
                        assert said == [app.tr("hint.in_lesson")], said
                        app.clear_notifications()
                    await answer(pilot, screen, session.expected())
                else:
                    await pilot.press("1")  # the transition summary, the recap
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
        assert session.finished and session.state.over
        outcome = session.state.outcome
        assert ending is not None and f"{outcome.hp} ≥ 15" in ending  # the final check
        await pilot.press("enter")  # back to the title
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_h_in_a_lesson_says_why_it_gives_no_hint():
    """A learner who pressed `h` while a lesson led saw nothing happen: it now says that
    the lesson leads, and no expert is asked."""
    app = WeatheringApp(lang="en", saves_dir=None, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        for _ in range(300):
            await pilot.pause(0.02)
            screen = app.screen
            if isinstance(screen, LessonModal):
                await pilot.press("enter")
            elif isinstance(screen, ChoiceModal):
                await answer(pilot, screen, app.session.expected())
            elif isinstance(screen, GameScreen) and screen._my_turn():
                break
        else:
            raise AssertionError(f"no turn of the learner: {app.screen!r}")
        app.clear_notifications()
        await pilot.press("h")
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert said == [app.tr("hint.in_lesson")]
        assert not screen.hinting
        assert isinstance(app.screen, GameScreen)
