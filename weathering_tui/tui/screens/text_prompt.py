"""One line of text to type (a chat line, a join code): Enter sends it, Escape goes back."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input


class TextModal(Screen[str | None]):
    """One line of text; Enter sends it, Escape goes back."""

    DEFAULT_CSS = """
    TextModal { align: center middle; background: $background 60%; }
    TextModal Input { width: 70; }
    """
    BINDINGS = [Binding("escape", "back", show=False)]

    def __init__(self, prompt: str, limit: int):
        super().__init__()
        self.prompt = prompt
        self.limit = limit

    def compose(self) -> ComposeResult:
        yield Input(placeholder=self.prompt, max_length=self.limit)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.app.screen is self:
            self.dismiss(event.value)

    def action_back(self) -> None:
        if self.app.screen is self:
            self.dismiss(None)


def ChatModal(tr, limit: int) -> TextModal:  # noqa: N802 - a modal made to measure
    return TextModal(tr("chat.prompt"), limit)
