"""A small modal: a title, some lines, a list of options; Enter picks, Escape goes back."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from .bindings import quiet

UNDO = "undo"  # what a decision dialog returns when its player takes back their move
HINT = "hint"  # what a decision dialog returns when its player asks the expert (h)


class ChoiceModal(ModalScreen[Any]):
    """Returns the value of the chosen option, or None when backed out (if allowed)."""

    DEFAULT_CSS = """
    ChoiceModal { align: center bottom; }
    ChoiceModal > Vertical {
        width: 78; max-width: 100%; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ChoiceModal #choice-title { text-style: bold; }
    ChoiceModal #choice-body-box { height: auto; }
    ChoiceModal #choice-body { color: $text-muted; }
    ChoiceModal OptionList { height: auto; max-height: 12; scrollbar-gutter: stable; }
    ChoiceModal #choice-keys { color: $text-muted; }
    ChoiceModal #choice-clock { text-style: bold; color: $warning; }
    """
    BINDINGS = [
        Binding("escape", "back", "back", show=False),
        *quiet(
            # The keys that work everywhere in a game work in its dialogs too.
            ("question_mark,f1", "app.open_help"),
            ("l", "app.open_log"),
            ("v", "app.open_events"),  # as the Events pane says, a dialog open or not
            ("q", "app.leave"),  # as q on the screen under it
            ("u", "undo"),
            ("h", "hint"),
        ),
    ]

    def __init__(
        self,
        title: str,
        options: list[tuple[str, Any]],
        body: str = "",
        keys: str = "",
        can_back: bool = False,
        clock=None,
        can_undo: bool = False,
        numbers: list[int] | None = None,
        can_hint: bool = False,
        no_hint: str = "",
        start: int = 0,
    ):
        super().__init__()
        self.start = start  # the option highlighted first: the one a player almost always wants
        self.can_hint = can_hint  # h closes the dialog to ask the expert (it comes back)
        self.no_hint = no_hint  # else what h says, if anything (a lesson leads)
        self.can_undo = can_undo  # u takes back the player's last move (the dialog closes)
        # Each option's number and key, when they are not its place in the list (seats
        # are numbered as the lobby shows them: the free seat 2 is 2, even if alone).
        self.numbers = numbers or [i + 1 for i in range(len(options))]
        self.title_text = title
        self.body = body
        self.options = options
        self.keys = keys
        self.can_back = can_back
        self.clock = clock  # () -> a line to show, kept fresh (a reaction window's time)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), id="choice-title")
            if self.body:
                with VerticalScroll(id="choice-body-box"):
                    yield Static(Text(self.body), id="choice-body")
            if self.clock is not None:
                yield Static(Text(self.clock()), id="choice-clock")
            yield OptionList(
                *(
                    Option(Text(_numbered(n, label)))
                    for n, (label, _) in zip(self.numbers, self.options, strict=True)
                ),
                id="choices",
            )
            if self._keys():
                yield Static(self._keys(), id="choice-keys")

    answered = False

    shown_at = float("inf")  # when it was mounted (the clock of Textual's events)

    def on_mount(self, event) -> None:
        self.shown_at = event.time
        options = self.query_one(OptionList)
        options.highlighted = self.start
        options.focus()
        # nothing to pick (a review with no costly decision): no empty frame under the words
        if not self.options:
            options.display = False
        self._fit()
        if self.clock is not None:
            self.set_interval(0.25, self._tick)

    def on_resize(self) -> None:
        self._fit()

    def _keys(self) -> str:
        """The line of keys under the options: its own, or the game's dialog keys."""
        return self.keys or getattr(self.app, "dialog_keys", "")

    def _fit(self) -> None:
        """The options, the keys and the two lines at the top of the game (the header
        and the gauge) always show: a body too long for what is left scrolls."""
        if not self.body:
            return
        keys = self._keys()
        # border, title, clock, the list (its border and its last blank line), keys
        fixed = 2 + 1 + (self.clock is not None) + min(len(self.options), 12) + 3 + bool(keys)
        box = self.query_one("#choice-body-box")
        box.styles.max_height = max(2, self.app.size.height - 2 - fixed)

    def _tick(self) -> None:
        self.query_one("#choice-clock", Static).update(Text(self.clock()))

    later: tuple | None = None  # an answer given while another screen covered this one

    def answer(self, value) -> None:
        """Close with this answer, once, and only from the top of the screens: a key
        queued as the dialog closed must not close the screen under it (the game), and
        an answer given while help or the log covers the dialog (a reaction window's
        time up) closes it when they close — dismissing it then would close them."""
        if self.answered:
            return
        if self.app.screen is self:
            self.answered = True
            self.dismiss(value)
        elif self in self.app.screen_stack:
            self.later = (value,)

    def on_screen_resume(self) -> None:
        if self.later is not None:
            (value,), self.later = self.later, None
            self.answer(value)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.answer(self.options[event.option_index][1])

    def on_key(self, event) -> None:
        if event.character and event.character.isdigit():
            number = int(event.character) or 10  # 0 is the tenth, as on the keyboard's row
            if number in self.numbers:
                event.stop()
                self.answer(self.options[self.numbers.index(number)][1])

    def action_back(self) -> None:
        if self.can_back:
            self.answer(None)
        else:  # a decision the game waits for: say so (a play-test's Escape did nothing)
            said = self.app.tr("dialog.no_back", n=len(self.options))
            self.app.notify(said, markup=False, timeout=3)  # (it lies over the options)

    def action_undo(self) -> None:
        if self.can_undo:
            self.answer(UNDO)

    def action_hint(self) -> None:
        if self.can_hint:
            self.answer(HINT)
        elif self.no_hint:
            self.app.notify(self.no_hint, markup=False)


def _numbered(number: int, label: str) -> str:
    """An option with its key in front: 1 to 9, then 0 for the tenth (the row of digit
    keys); options further down are reached with the arrows, their labels aligned."""
    if number <= 10:
        return f"{number % 10}. {label}"
    return f"   {label}"


def typed_before_shown(screen, event) -> bool:
    """A key typed before this dialog was on screen (typed ahead for what was there):
    it must not answer a question its player had not seen (`4 p` typed for the hand
    played Troc in a dialog that opened at the start of the turn)."""
    return isinstance(screen, ChoiceModal) and event.time < screen.shown_at
