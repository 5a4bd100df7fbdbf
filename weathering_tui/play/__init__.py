"""Sessions a screen plays through: what to show, what to wait for, where actions go.

A session gives the View of the seat at this terminal, takes that seat's actions and
says what comes next (`Step`). The local session wraps the engine, the bots and the
autosave; the remote one is a seat at a table server. The game screen does not know
which: it speaks to the `Session` interface below.
"""

from __future__ import annotations

from typing import Protocol

from ..engine import View
from .local import LocalSession, Step


class Session(Protocol):
    local: bool  # one terminal (bots, privacy screens) or a table of a server
    can_hand_over: bool  # ctrl+b: a leaving player's seat goes to a bot
    autosave: bool
    saves_dir: object  # where ctrl+s saves (None: no saving here)
    save_problem: str | None
    last_saved: str | None
    notices: tuple | list  # table notices for the log pane: (log length, order, line)

    def view(self) -> View:
        """The view of the seat at this terminal (or the public one, watching)."""

    def next_step(self) -> Step:
        """What the screen must do now: show the end, wait, let a bot or a seat decide."""

    def play(self, action) -> None:
        """Take the seat's action; an illegal one raises IllegalAction, changing nothing."""

    def is_bot_turn(self) -> bool: ...

    def can_undo(self) -> bool:
        """Whether this terminal's seat may take back its last decision now (`u`)."""

    def undo(self) -> None:
        """Take back that decision (IllegalAction "cannot_undo" when the rule forbids)."""

    learning: bool  # the guided first game: lessons, and one expected move at a time

    def expected(self):
        """The move the lesson asks for now (None: any legal move will do)."""

    def lesson(self):
        """The next lesson to show, once, before the learner's move (or None)."""

    def can_hint(self) -> bool:
        """Whether `h` may ask the expert now (a table server: if the table allows it)."""

    def hint_view(self) -> View:
        """The view a hint is computed from: this seat's, nothing more."""

    def window_left(self) -> float:
        """Seconds left in the open reaction window (0: none), the same for every seat."""

    # At a table server only (the screen offers m and a where `local` is False):
    chat_limit: int

    def chat(self, text: str) -> None:
        """A line to everyone at the table."""

    def toggle_auto_pass(self) -> bool:
        """Pass by myself where I cannot cancel, or no longer; the new setting."""

    @property
    def over(self) -> bool: ...


__all__ = ["LocalSession", "Session", "Step"]
