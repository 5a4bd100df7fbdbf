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


class Long(App):
    def on_mount(self) -> None:
        body = "\n".join(f"line {i} of a long lesson" for i in range(40))
        options = [(f"option {i}", i) for i in range(3)]
        self.push_screen(ChoiceModal("A long lesson", options, body=body, keys="? help · q"))


async def test_a_body_too_long_for_the_screen_scrolls_and_the_options_and_keys_show():
    """At 80×24 a long text (a lesson) never pushes the options or the keys off the
    screen, nor covers the header and the gauge."""
    from textual.widgets import OptionList

    app = Long()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        keys = dialog.query_one("#choice-keys").region
        options = dialog.query_one(OptionList).region
        box = dialog.query_one("#choice-body-box")
        assert keys.bottom <= 23 and keys.height == 1  # inside the border, on screen
        assert options.height >= 3 + 2 and options.bottom <= keys.y
        assert box.region.y >= 3  # the header and gauge lines stay visible above it
        assert box.max_scroll_y > 0  # what does not fit scrolls


class Twelve(App):
    def __init__(self):
        super().__init__()
        self.answers: list = []

    def on_mount(self) -> None:
        options = [(f"card {i}", i) for i in range(1, 13)]
        self.push_screen(ChoiceModal("Discard which?", options), self.answers.append)


async def test_the_tenth_option_is_numbered_0_and_0_picks_it():
    """Digits 1 to 9 then 0, as the keyboard's row: a tenth option has a key too; the
    eleventh and later are reached with the arrows, their labels in line."""
    from textual.widgets import OptionList

    app = Twelve()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert shown[8:] == ["9. card 9", "0. card 10", "   card 11", "   card 12"]
        await pilot.press("0")
        await pilot.pause()
        assert app.answers == [10]
