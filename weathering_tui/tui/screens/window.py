"""A shared terminal's reaction window: a public prompt that names nobody.

What was announced, and the players it waits for — the actor's opponents at this
terminal who could cancel as everyone can see (their PA, their power), whatever they
hold. A player who wants to cancel presses their seat's number and gets the privacy
screen; nobody else presses anything, and no key of the actor's closes it: when the
time is up the action happens. Nothing private is on screen meanwhile; afterwards the
actor's hand comes back without a privacy screen (it was theirs on screen before), and
after a player spoke up it comes back behind one.

Keys typed in the first moment are ignored: they were meant for the dialog before (a
target's number, an Enter to play a card), not for the window. The prompt opens nothing
over itself (no help): it must be there to close when its time is up.
"""

from __future__ import annotations

import math
import time

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

DEAF = 0.3  # seconds during which keys are ignored


class WindowPrompt(Screen[int | None]):
    """Dismissed with the seat that speaks up, or None (time is up)."""

    DEFAULT_CSS = """
    WindowPrompt { align: center middle; }
    WindowPrompt Static { width: auto; max-width: 76; }
    WindowPrompt #window-title { text-style: bold; }
    WindowPrompt #window-body { margin-top: 1; }
    WindowPrompt #window-seats { margin-top: 1; text-style: bold; }
    WindowPrompt #window-clock { margin-top: 1; color: $warning; }
    """

    def __init__(self, tr, session, announced: str, seats: list[tuple[int, str]]):
        super().__init__()
        self.tr = tr
        self.session = session
        self.announced = announced
        self.seats = seats  # (seat, name) of the players it waits for
        self.done = False
        self.opened = time.monotonic()

    def compose(self) -> ComposeResult:
        tr = self.tr
        # (no line break inside a name: "4 · Au bras long" stays whole)
        keys = "   ".join(
            f"{seat + 1} · {name}".replace(" ", "\u00a0") for seat, name in self.seats
        )
        with Middle():
            with Center():
                yield Static(Text(tr("window.title")), id="window-title")
            with Center():
                yield Static(Text(self.announced), id="window-body")
            with Center():
                yield Static(Text(tr("window.speak", seats=keys)), id="window-seats")
            with Center():
                yield Static(Text(self._clock()), id="window-clock")

    def _clock(self) -> str:
        left = math.ceil(self.session.window_left() * 10) / 10  # tenths: 1.5 s in all
        return self.tr("window.shared_clock", s=self.tr.decimal(left))

    def on_mount(self) -> None:
        # A notice to the actor ("Not possible: Demonstration is played only in
        # reaction…") names a card of theirs: not over a screen everyone looks at.
        self.app.clear_notifications()
        self.set_interval(0.1, self._tick)

    def _tick(self) -> None:
        if self.session.window_left() <= 0:
            self.time_up()
            return
        self.query_one("#window-clock", Static).update(Text(self._clock()))

    def _close(self, result) -> None:
        """Closed from the top of the screens only (see `ChoiceModal.answer`)."""
        if not self.done and self.app.screen is self:
            self.done = True
            self.dismiss(result)

    def _deaf(self) -> bool:
        return time.monotonic() - self.opened < DEAF

    def on_key(self, event) -> None:
        if self._deaf():
            event.stop()
            event.prevent_default()
            return
        if event.character and event.character.isdigit():
            seat = int(event.character) - 1
            if any(seat == s for s, _ in self.seats):
                event.stop()
                self._close(seat)

    def time_up(self) -> None:
        """Nobody spoke up in time: the action happens. A number pressed just too late
        must not choose in the actor's next dialog: keys are dropped a moment more."""
        if not self.done and self.app.screen is self:
            self.app.deafen(DEAF)
        self._close(None)
