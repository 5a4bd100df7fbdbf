"""A table's waiting room: who sits where until the creator starts the game."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from ..messages import TableEvent
from .lobby import net_error, seat_line


class WaitingScreen(Screen[None]):
    """Until the creator starts the game: who sits where. Empty open seats become bots."""

    DEFAULT_CSS = """
    WaitingScreen { padding: 1 2; }
    WaitingScreen #wait-title { text-style: bold; }
    WaitingScreen #wait-keys { color: $text-muted; margin-top: 1; }
    """
    BINDINGS = [
        Binding("s", "start", show=False),
        Binding("escape,q", "leave", show=False),
    ]

    def __init__(self, table: str, creator: bool):
        super().__init__()
        self.table = table
        self.creator = creator

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        yield Static(Text(tr("wait.title", table=self.table)), id="wait-title")
        yield Static("", id="wait-seats")
        keys = tr("wait.keys_creator") if self.creator else tr("wait.keys")
        yield Static(keys, id="wait-keys")

    def on_mount(self) -> None:
        self.creator = self.creator or self.table in self.app.client.created
        self.show()

    def on_screen_resume(self) -> None:
        self.show()

    def show(self, summary: dict | None = None) -> None:
        tr = self.app.tr
        # the table's own word (it may have come before this screen did)
        summary = summary or self.app.lobby.summary(self.table)
        if summary is None:
            return
        text = Text()
        for i, seat in enumerate(summary["seats"]):
            text.append(seat_line(tr, i, seat) + "\n")
        self.query_one("#wait-seats", Static).update(text)
        keys = "wait.keys_creator" if self.creator else "wait.keys"
        if summary.get("start_when_full") and not self.creator:
            keys = "wait.keys_full"
        self.query_one("#wait-keys", Static).update(tr(keys))

    def on_table_event(self, event: TableEvent) -> None:
        kind, message = event.kind, event.message
        if kind == "table" and message.table == self.table:
            self.show(message.summary)
        elif kind == "seated" and message.table == self.table:
            self.creator = self.creator or message.creator
            self.show()
        elif kind == "error":
            self.app.notify(net_error(self.app.tr, message), markup=False)
            client = self.app.client
            if self.table not in client.seats and self.table not in client.watching:
                self.app.back_to_lobby()  # the seat was refused: this room is not ours

    def action_start(self) -> None:
        if self.creator:
            self.app.lobby.start(self.table)

    def action_leave(self) -> None:
        self.app.lobby.leave(self.table)
        self.app.back_to_lobby()
