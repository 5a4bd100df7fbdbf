"""One line of text to type (a chat line, a join code, a table's name): Enter sends it,
Escape goes back."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Static

from .closing import close


class TextModal(Screen[str | None]):
    """One line of text; Enter sends it, Escape goes back. With `value` the line starts
    filled (Enter keeps it) and the prompt stands above it; `check` says why a line
    cannot be sent (words shown under it, as plain text) or None."""

    DEFAULT_CSS = """
    TextModal { align: center middle; background: $background 60%; }
    TextModal Input { width: 70; }
    TextModal Static { width: 70; padding: 0 1; }
    TextModal #text-label { background: $panel; text-style: bold; }
    TextModal #text-problem { color: $error; }
    """
    BINDINGS = [Binding("escape", "back", show=False)]

    def __init__(
        self,
        prompt: str,
        limit: int,
        value: str = "",
        check: Callable[[str], str | None] | None = None,
    ):
        super().__init__()
        self.prompt = prompt
        self.limit = limit
        self.value = value
        self.check = check

    def compose(self) -> ComposeResult:
        if self.value:
            yield Static(Text(self.prompt), id="text-label")
        yield Input(value=self.value, placeholder=self.prompt, max_length=self.limit)
        if self.check is not None:
            yield Static("", id="text-problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.app.screen is not self:
            return
        problem = self.check(event.value) if self.check is not None else None
        if problem:
            self.query_one("#text-problem", Static).update(Text(problem))
            return
        close(self, event.value)

    def action_back(self) -> None:
        close(self)


def ChatModal(tr, limit: int) -> TextModal:  # noqa: N802 - a modal made to measure
    return TextModal(tr("chat.prompt"), limit)
