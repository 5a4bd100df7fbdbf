"""Ask for a save's name (ctrl+s); Enter saves, Escape goes back."""

from __future__ import annotations

import re

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from .closing import close

NAME = re.compile(r"^[\w.-]{1,60}$")


class SaveNameModal(ModalScreen[str | None]):
    DEFAULT_CSS = """
    SaveNameModal { align: center middle; }
    SaveNameModal > Vertical {
        width: 60; height: auto; border: thick $accent; background: $surface; padding: 0 1;
    }
    SaveNameModal #save-hint { color: $text-muted; }
    SaveNameModal #save-hint.refused { color: $error; text-style: bold; }
    """
    BINDINGS = [Binding("escape", "back", "back", show=False)]

    def __init__(self, title: str, default: str, hint: str, refused=None):
        super().__init__()
        self.title_text = title
        self.default = default
        self.hint = hint
        # name -> what a name that cannot be saved gets (by default, the hint again)
        self.refused = refused or (lambda name: hint)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text)
            yield Input(value=self.default, id="save-name")
            yield Static(Text(self.hint), id="save-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip().removesuffix(".toml")
        if NAME.match(name):
            close(self, name)
        else:
            hint = self.query_one("#save-hint", Static)
            hint.update(Text(self.refused(name)))  # (the name as typed: plain)
            hint.add_class("refused")
            self.app.bell()

    def action_back(self) -> None:
        close(self)
