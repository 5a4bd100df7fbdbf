"""Textual messages the table server's app posts to its screens."""

from __future__ import annotations

from textual.message import Message


class TableEvent(Message):
    """Something came from the table server: a message of its protocol (`kind` is its
    type: "view", "tables", "notice", "error"…), or "link" when the link went or came."""

    bubble = False  # for the screen it is posted to alone

    def __init__(self, kind: str, data: dict) -> None:
        super().__init__()
        self.kind = kind
        self.data = data
