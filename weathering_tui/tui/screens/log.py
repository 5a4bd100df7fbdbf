"""The whole log of the game, as the viewing seat may read it, scrollable."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .closing import close


class LogScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    LogScreen { align: center middle; }
    LogScreen VerticalScroll {
        width: 96%; height: 92%; border: thick $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS = [Binding("escape,l,q", "close", "close")]

    def __init__(self, title: str, lines: list[str], hint: str = ""):
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.hint = hint

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = self.title_text
            scroll.border_subtitle = self.hint or self.app.tr("log.close")
            yield Static(Text("\n".join(self.lines)))

    def on_mount(self) -> None:
        scroll = self.query_one(VerticalScroll)
        scroll.focus()
        scroll.scroll_end(animate=False)

    def action_close(self) -> None:
        close(self)
