"""Between two human seats at one terminal: nothing private on screen until Enter."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from .closing import close

# Seconds the next player's screen ignores keys: an Enter pressed twice (0.3 s apart, a
# play-test) answered a dialog its player had not yet seen, and no one reads a screen
# in half a second.
HANDED_OVER = 0.5


class PrivacyScreen(Screen[None]):
    DEFAULT_CSS = """
    PrivacyScreen { align: center middle; }
    PrivacyScreen #privacy-title { text-style: bold; width: auto; }
    PrivacyScreen #privacy-body { color: $text-muted; width: auto; margin-top: 1; }
    """
    BINDINGS = [
        Binding("enter", "ready", "OK"),
        Binding("q", "app.leave", show=False),  # as q everywhere in a game: save and quit
        Binding("question_mark,f1", "app.open_help", show=False),
    ]

    def __init__(self, title: str, body: str):
        super().__init__()
        self.title_text = title
        self.body = body

    def on_mount(self) -> None:
        self.app.clear_notifications()  # the last player's notices may name their cards

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(Text(self.title_text), id="privacy-title")
            with Center():
                yield Static(Text(self.body), id="privacy-body")

    def action_ready(self) -> None:
        if close(self):  # (Enter twice: the game under it stays, and the second
            self.app.deafen(HANDED_OVER)  # Enter does nothing in it)
