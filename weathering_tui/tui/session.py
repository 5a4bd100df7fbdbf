"""A game being played in the app: the saved game, its bots and its autosave (no Textual)."""

from __future__ import annotations

from pathlib import Path

from ..bots import BOTS
from ..engine import View, view_for
from ..savefile import SavedGame, autosave_name, write_save


class Session:
    """Every state change goes through `play`, which applies, records and autosaves."""

    def __init__(self, game: SavedGame, saves_dir: Path | None, autosave: bool = True):
        self.game = game
        self.saves_dir = saves_dir
        self.autosave = autosave and saves_dir is not None
        setup = game.setup
        self.bots = {
            seat: BOTS.get(seat_setup.bot, BOTS["heuristic"])(seed=setup.seed * 7919 + seat)
            for seat, seat_setup in enumerate(setup.seats)
            if not seat_setup.human or seat in game.handed
        }
        self.save_name = autosave_name(game)
        self.last_saved: str | None = None
        self.save_problem: str | None = None
        humans = self.humans
        self.viewer = humans[0] if humans else 0

    @property
    def state(self):
        return self.game.state

    @property
    def humans(self) -> list[int]:
        return [seat for seat in range(len(self.game.setup.seats)) if seat not in self.bots]

    def hand_over(self, seat: int) -> None:
        """A human who leaves: a heuristic bot plays the seat from now on (and after a load)."""
        self.bots[seat] = BOTS["heuristic"](seed=self.game.setup.seed * 7919 + seat)
        self.game.handed.append(seat)
        if self.autosave:
            self.save()

    @property
    def deciding(self) -> int | None:
        pending = self.state.pending
        return None if pending is None else pending.seat

    def is_bot_turn(self) -> bool:
        seat = self.deciding
        return seat is not None and seat in self.bots

    def view(self, seat: int | None = None) -> View:
        return view_for(self.state, self.viewer if seat is None else seat)

    def play(self, action) -> None:
        """Apply (raises IllegalAction, changing nothing) then autosave."""
        self.game.play(action)
        self.autosave_now()

    def bot_view(self, seat: int) -> View:
        return view_for(self.state, seat, with_log=False)

    def bot_move(self, action=None):
        """The deciding bot plays (or plays `action`, chosen from its view elsewhere)."""
        seat = self.deciding
        view = self.bot_view(seat)
        if action is None:
            action = self.bots[seat].choose(view)
        self.game.play(action, view)
        self.autosave_now()
        return action

    def autosave_now(self) -> None:
        """Autosave; a failing disk never stops the game, it is reported once instead."""
        if not self.autosave:
            return
        try:
            self.save()
            self.save_problem = None
        except OSError as exc:
            self.save_problem = f"{exc.filename or self.saves_dir}: {exc.strerror or exc}"

    def save(self, name: str | None = None) -> Path:
        """Autosave, or a named save (which the autosave keeps following)."""
        path = write_save(self.saves_dir / f"{name or self.save_name}.toml", self.game)
        self.last_saved = self.game.updated
        return path
