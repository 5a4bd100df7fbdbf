"""A finished or saved game stepped through: the state after any number of its actions,
as one seat saw it then, or with every hand open once the game is over (no Textual).
`ReplaySession` is the replay screen's session (play/session.py); `Timeline` the game.

States are rebuilt from the save's setup and actions; a clone is kept every
`CHECKPOINT` actions, so a jump anywhere replays at most that many actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from ..engine import SPECTATOR, View, apply, clone, new_game, view_for
from ..storage.savefile import SavedGame
from .session import Capabilities

CHECKPOINT = 16


@attrs.frozen
class Mark:
    """Where each action falls: the round it was played in and whose turn it was."""

    round: int
    active: int


class Timeline:
    def __init__(self, game: SavedGame, content=None):
        self.game = game
        self.setup = game.setup
        self.actions = list(game.actions)
        state = new_game(game.setup, content or game.state.content)
        self._checkpoints = {0: clone(state)}
        self.marks = [Mark(state.round, state.active)]  # marks[n]: before action n
        for n, action in enumerate(self.actions, start=1):
            apply(state, action)
            self.marks.append(Mark(state.round, state.active))
            if n % CHECKPOINT == 0:
                self._checkpoints[n] = clone(state)
        self.final = state
        self._cache: tuple[int, object] | None = None
        self._view: tuple[tuple[int, int], View] | None = None

    @property
    def length(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        """Every hand may be shown only once the game is over."""
        return self.final.over

    def state_at(self, n: int):
        """The game after its first `n` actions (a state of its own: change it freely)."""
        n = max(0, min(n, self.length))
        if self._cache is not None and self._cache[0] == n:
            return self._cache[1]
        base = n - n % CHECKPOINT
        state = clone(self._checkpoints[base])
        for action in self.actions[base:n]:
            apply(state, action)
        self._cache = (n, state)
        return state

    def view_at(self, n: int, seat: int) -> View:
        """What `seat` saw after `n` actions (SPECTATOR: the public view), computed once
        for the place the replay stands at (a repaint asks it many times)."""
        if self._view is not None and self._view[0] == (n, seat):
            return self._view[1]
        view = view_for(self.state_at(n), seat)
        self._view = ((n, seat), view)
        return view

    def hands_at(self, n: int) -> list[list[str]]:
        """Every hand after `n` actions: only for a game that is over."""
        if not self.over:
            raise PermissionError("hands stay hidden until the game is over")
        return [list(p.hand) for p in self.state_at(n).players]

    def decks_at(self, n: int) -> list[list[str] | None]:
        """Every Écolo's deck after `n` actions (None for a Lobbyiste, who has none): only
        for a game that is over, as the hands."""
        if not self.over:
            raise PermissionError("decks stay hidden until the game is over")
        return [list(p.deck) if p.side == "ecologist" else None for p in self.state_at(n).players]

    # ------------------------------------------------------------ steps

    def next_turn(self, n: int, step: int) -> int:
        """The first action of the next (step 1) or this/previous (step -1) turn."""
        return self._next(n, step, lambda m: (m.round, m.active))

    def next_round(self, n: int, step: int) -> int:
        return self._next(n, step, lambda m: m.round)

    def _next(self, n: int, step: int, key) -> int:
        marks = self.marks
        if step > 0:
            here = key(marks[n])
            for m in range(n + 1, self.length + 1):
                if key(marks[m]) != here:
                    return m
            return self.length
        # back: to the start of this stretch, or of the previous one if already there
        m = max(0, n - 1)
        here = key(marks[m])
        while m > 0 and key(marks[m - 1]) == here:
            m -= 1
        return m


def seats_shown(setup, over: bool) -> list[int]:
    """The seats whose view a replay or a review may show. Every seat once the game is
    over (every hand may be opened then), or in a game no human plays. Before the end,
    only the player's at this terminal when one human plays (the bots' hands stay
    hidden: a replay was a way to read them, then to load the game and play on); when
    several do, none: they share the terminal and the save, and keep their hands from
    one another (the game's privacy screen)."""
    humans = [i for i, seat in enumerate(setup.seats) if seat.human]
    if over or not humans:
        return list(range(len(setup.seats)))
    return humans if len(humans) == 1 else []


def first_seat(setup, shown: list[int]) -> int:
    """The seat a replay opens on: the first human's among those shown, else the first
    shown (SPECTATOR: none may be)."""
    humans = [i for i in shown if setup.seats[i].human]
    return (humans or shown or [SPECTATOR])[0]


class ReplaySession:
    """A game stepped through (the replay screen's session): the cursor `at` moves
    through the game's actions; the view is `seat`'s then, or, once the game is over
    and `open`, the public one with every hand shown beside it."""

    can = Capabilities(travel=True)

    def __init__(self, timeline: Timeline, at: int | None = None, seat: int | None = None):
        self.timeline = timeline
        self.at = timeline.length if at is None else max(0, min(at, timeline.length))
        self.shown = seats_shown(timeline.setup, timeline.over)
        if seat is None or seat not in self.shown:  # (the command line refuses one)
            seat = first_seat(timeline.setup, self.shown)
        self.seat = seat  # SPECTATOR: no seat may be shown, the public view
        self.open = False

    @property
    def viewer(self) -> int:
        return SPECTATOR if self.open else self.seat

    @property
    def over(self) -> bool:
        """The game replayed is over (its hands may be opened)."""
        return self.timeline.over

    def view(self) -> View:
        return self.timeline.view_at(self.at, self.viewer)

    def go(self, at: int) -> None:
        self.at = max(0, min(at, self.timeline.length))

    def turn(self, step: int) -> None:
        """To the next turn's first action (step 1), or this or the previous turn's."""
        self.go(self.timeline.next_turn(self.at, step))

    def round(self, step: int) -> None:
        self.go(self.timeline.next_round(self.at, step))

    def choose_seat(self, seat: int) -> bool:
        """As `seat` saw it (hands shut again); False: no such seat, or one whose hand
        stays hidden until the game is over (`seats_shown`)."""
        if seat not in self.shown:
            return False
        self.seat, self.open = seat, False
        return True

    def open_hands(self) -> bool:
        """Every hand shown, or shut again: only once the game is over (False: not)."""
        if not self.timeline.over:
            return False
        self.open = not self.open
        return True


if TYPE_CHECKING:  # the type checker holds it to the parts its `can` names
    from . import session as ss

    def _parts(s: ReplaySession) -> tuple[ss.Session, ss.Travel]:
        return s, s


__all__ = ["SPECTATOR", "ReplaySession", "Timeline", "first_seat", "seats_shown"]
