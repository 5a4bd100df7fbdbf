""" "Since your last turn": a modal with what the other seats did, closed by any key
(`l` closes it into the whole log: dismissed with "log")."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .bindings import quiet
from .closing import close


class RecapScreen(ModalScreen[str | None]):
    DEFAULT_CSS = """
    RecapScreen { align: center middle; }
    RecapScreen > Vertical {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    RecapScreen #recap-title { text-style: bold; }
    RecapScreen #recap-lines { height: auto; max-height: 16; }
    RecapScreen #recap-keys { color: $text-muted; }
    """

    # The game's footer stays in sight under the box and says "? help  q quit": they do
    # that here too (q closed the box, as any key, and a play-test pressed it twice).
    BINDINGS = quiet(("question_mark,f1", "app.open_help"), ("q", "app.leave"))
    OWN_KEYS = ("question_mark", "f1", "q")

    def __init__(self, title: str, lines: list[str], keys: str, more: str = ""):
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.keys = keys
        self.more = more  # said before the keys when the lines overflow the box

    def on_mount(self) -> None:
        self.call_after_refresh(self._say_more)

    def _say_more(self) -> None:
        """Lines below the box's bottom are said to be there: a play-test closed the
        box with what hurt it (two cards discarded at random) out of sight."""
        if self.more and self.query_one("#recap-lines", VerticalScroll).max_scroll_y > 0:
            self.query_one("#recap-keys", Static).update(Text(f"{self.more} · {self.keys}"))

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), id="recap-title")
            with VerticalScroll(id="recap-lines"):
                yield Static(Text("\n".join(self.lines)))
            yield Static(Text(self.keys), id="recap-keys")

    def on_key(self, event: events.Key) -> None:
        """Any key goes on (a key typed ahead for the turn is spent here, not on a
        dialog that was not yet on screen when it was typed). Once: a second key queued
        before the recap is gone must not dismiss what is under it then."""
        if event.key in self.OWN_KEYS:
            return  # (its binding)
        event.stop()
        event.prevent_default()
        if event.key in ("up", "down", "pageup", "pagedown"):
            scroll = self.query_one("#recap-lines", VerticalScroll)
            {
                "up": scroll.scroll_up,
                "down": scroll.scroll_down,
                "pageup": scroll.scroll_page_up,
                "pagedown": scroll.scroll_page_down,
            }[event.key]()
            return
        close(self, "log" if event.key == "l" else None)
