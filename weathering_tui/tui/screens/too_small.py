"""Shown over everything while the terminal is smaller than 80×24."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static


class TooSmallScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; overflow: hidden hidden; }
    TooSmallScreen Static { width: auto; max-width: 100%; max-height: 100%; text-style: bold; }
    """
    BINDINGS = [Binding("q", "app.quit", show=False)]  # quit (a game is saved first)

    def __init__(self, message: str):
        super().__init__()
        self.message = message
        self._leaving = False

    def compose(self) -> ComposeResult:
        yield Static(self.message, id="too-small")

    def on_screen_resume(self) -> None:
        # Uncovered again: still needed only if the terminal is still small and no other
        # message stands for it.
        app = self.app
        width, height = app.size
        if (width >= 80 and height >= 24) or app._too_small not in (None, self):
            if app._too_small is self:
                app._too_small = None  # or the game would wait under a message now gone
            # (Only from the top, and once: a dialog may have come over it meanwhile,
            # from the answer to the one that uncovered it; it goes when uncovered again.)
            if app.screen is self and not self._leaving:
                self._leaving = True
                self.dismiss(None)
        else:
            app._too_small = self

    def fade(self) -> None:
        """Left under another screen when the terminal grew back: nothing of it shows
        (the screens under it show through) until it is uncovered and goes."""
        self.styles.background = "transparent"
        if self.is_mounted:
            self.query_one(Static).display = False

    def set_message(self, message: str) -> None:
        self.message = message
        if self.is_mounted:
            self.query_one(Static).update(message)
