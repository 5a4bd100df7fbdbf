"""Ask for a save's name (ctrl+s); Enter saves, Escape goes back."""

from __future__ import annotations

import re

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

NAME = re.compile(r"^[\w.-]{1,60}$")


class SaveNameModal(ModalScreen[str | None]):
    DEFAULT_CSS = """
    SaveNameModal { align: center middle; }
    SaveNameModal > Vertical {
        width: 60; height: auto; border: thick $accent; background: $surface; padding: 0 1;
    }
    SaveNameModal #save-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "back", "back", show=False)]

    def __init__(self, title: str, default: str, hint: str):
        super().__init__()
        self.title_text = title
        self.default = default
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text)
            yield Input(value=self.default, id="save-name")
            yield Static(self.hint, id="save-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip().removesuffix(".toml")
        if NAME.match(name):
            self.dismiss(name)
        else:
            self.query_one("#save-hint", Static).update(self.hint)
            self.app.bell()

    def action_back(self) -> None:
        self.dismiss(None)
