"""A decision dialog closed by the table (a reaction window's time up) while help or
the log covers it: it closes when they do, and never closes them instead."""

from textual.app import App
from textual.screen import ModalScreen
from textual.widgets import Static

from weathering_tui.tui.screens.choice import ChoiceModal


class Cover(ModalScreen):
    """What a player may open over a dialog (the log and help are modal screens)."""

    def compose(self):
        yield Static("the log")


class Host(App):
    def __init__(self):
        super().__init__()
        self.answers: list = []

    def on_mount(self) -> None:
        self.dialog = ChoiceModal("X may react", [("let it happen", "pass"), ("cancel", "c")])
        self.push_screen(self.dialog, self.answers.append)


async def test_an_answer_given_under_another_screen_waits_for_it_to_close():
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        cover = Cover()
        await app.push_screen(cover)
        await pilot.pause()
        app.dialog.answer(None)  # the table moved on while the player reads the log
        await pilot.pause()
        assert app.screen is cover, "the log stays open"
        assert app.answers == []
        app.pop_screen()
        await pilot.pause()
        assert app.answers == [None], "the dialog closes as soon as it shows again"
        assert app.dialog not in app.screen_stack
        await pilot.press("1")  # a key meant for the closed dialog closes nothing else
        await pilot.pause()
        assert app.answers == [None] and len(app.screen_stack) == 1


async def test_an_answer_on_top_closes_it_at_once():
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        assert app.answers == ["c"]
