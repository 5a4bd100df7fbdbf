"""Textual messages the table server's app posts to its screens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from ..net.server_messages import ServerMessage


class TableEvent(Message):
    """Something came from the table server: a message of its protocol, as its class
    (net/server_messages.py: `ViewMessage`, `TablesList`, `Notice`, `ErrorMessage`…),
    or None when the link went or came."""

    bubble = False  # for the screen it is posted to alone

    def __init__(self, message: ServerMessage | None) -> None:
        super().__init__()
        self.message = message
