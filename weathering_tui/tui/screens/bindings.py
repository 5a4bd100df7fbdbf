"""Keys a screen binds without showing them in Textual's footer: each screen says its
keys in its own key bar (or, in a game, the key table's footer: tui/keymap.py)."""

from __future__ import annotations

from textual.binding import Binding


def quiet(*keys: tuple[str, str]) -> list[Binding]:
    """(key, action) pairs as bindings the footer does not list."""
    return [Binding(key, action, show=False) for key, action in keys]
