"""Textual messages the table server's app posts to its screens."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class TableEvent(Message):
    """Something came from the table server: `kind` is its type ("view", "tables",
    "notice", "error"…) and `message` the message itself, read by its fields (a class
    of net/server_messages.py, which the screens need not import: they know no
    transport); or kind "link", message None, when the link went or came."""

    bubble = False  # for the screen it is posted to alone

    def __init__(self, kind: str, message: Any = None) -> None:
        super().__init__()
        self.kind = kind
        self.message = message
