"""Closing a screen once, from the top of the screens only.

Two keys can reach a screen before its first close takes effect (keys sent 0.1 s apart
over SSH did): a second `dismiss` would close whatever is under it — the game screen,
back to the lobby, or a dialog before it mounted. `ChoiceModal.answer` and the
reaction prompt keep their own guard (an answer given under help waits for it)."""

from __future__ import annotations

from textual.screen import Screen


def close(screen: Screen, result=None) -> bool:
    """Dismiss `screen` with `result` if it is on top and not closed yet; True if so."""
    if getattr(screen, "_closed_once", False) or screen.app.screen is not screen:
        return False
    screen._closed_once = True  # type: ignore[attr-defined]
    screen.dismiss(result)
    return True
