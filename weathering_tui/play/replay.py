"""A finished or saved game stepped through: the state after any number of its actions,
as one seat saw it then, or with every hand open once the game is over (no Textual).

States are rebuilt from the save's setup and actions; a clone is kept every
`CHECKPOINT` actions, so a jump anywhere replays at most that many actions.
"""

from __future__ import annotations

import attrs

from ..engine import SPECTATOR, View, apply, clone, new_game, view_for
from ..storage.savefile import SavedGame

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
        """What `seat` saw after `n` actions (SPECTATOR: the public view)."""
        return view_for(self.state_at(n), seat)

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


__all__ = ["SPECTATOR", "Timeline"]
