"""A game played at one terminal: the saved game, its bots and its autosave (no Textual)."""

from __future__ import annotations

from pathlib import Path

import attrs

from ..bots import BOTS, pacing
from ..engine import View, view_for
from ..savefile import SavedGame, autosave_name, write_save


@attrs.frozen
class Step:
    """What the screen must do next.

    kind: "over" (show the end), "transition" (show what the transition did, once),
    "bot" (a bot decides `seat`; wait the table's pace first when `pace`), "privacy"
    (hand the keyboard to `seat`), "decide" (`seat`, at this terminal, answers a
    decision in a dialog), "turn" (`seat` plays its turn with the keys) or "wait"
    (another terminal decides)."""

    kind: str
    seat: int = -1
    pace: bool = False


class LocalSession:
    """Every state change goes through `play` or `bot_move`, which apply, record and
    autosave. Turn sequencing (bots, privacy hand-overs, the transition summary)
    lives here; the screen renders views and turns keys into actions."""

    can_hand_over = True
    local = True
    notices: tuple = ()  # table notices: only a table server sends them

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
        self.last_human: int | None = None
        self._transition_seen = False
        self._view_key = None
        self._view: View | None = None

    @property
    def state(self):
        return self.game.state

    @property
    def humans(self) -> list[int]:
        return [seat for seat in range(len(self.game.setup.seats)) if seat not in self.bots]

    @property
    def updated(self) -> str:
        return self.game.updated

    @property
    def over(self) -> bool:
        return self.state.over

    # ------------------------------------------------------------ what to show

    def view(self) -> View:
        """The viewing seat's view, built once per change (keys ask for it often)."""
        state = self.state
        pending = state.pending
        key = (
            state.version,
            self.viewer,
            len(state.log),
            None if pending is None else (pending.kind, pending.seat),
        )
        if key != self._view_key:
            self._view_key = key
            self._view = view_for(state, self.viewer)
        return self._view

    def bot_view(self, seat: int) -> View:
        return view_for(self.state, seat, with_log=False)

    def is_bot_turn(self) -> bool:
        pending = self.state.pending
        return pending is not None and pending.seat in self.bots and not self.state.over

    def deciding_bot(self) -> int:
        """The seat of the bot that decides now (when `is_bot_turn`)."""
        return self.state.pending.seat

    def bot_kind(self, seat: int) -> str:
        return self.bots[seat].name

    def next_step(self) -> Step:
        """What comes next. A bot answers a reaction window at once, without the table's
        pace, so how long a window takes never tells whether a bot held a cancel."""
        state = self.state
        if state.over:
            return Step("over")
        if not self._transition_seen and state.phase == 2:
            self._transition_seen = True
            if self.humans and self.view().round_in_phase == 1:  # phase 2 has just begun
                return Step("transition")
        pending = state.pending
        seat = pending.seat
        if seat in self.bots:
            return Step("bot", seat, pace=not pacing.at_once(pending.kind))
        if len(self.humans) > 1 and seat != self.last_human:
            return Step("privacy", seat)
        self.take_seat(seat)
        return Step("turn" if pending.kind == "turn" else "decide", seat)

    def take_seat(self, seat: int) -> None:
        """The human at `seat` now has the keyboard (after a privacy screen, if any)."""
        self.last_human = seat
        if seat in self.humans or not self.humans:
            self.viewer = seat

    # ------------------------------------------------------------ actions

    def play(self, action) -> None:
        """Apply (raises IllegalAction, changing nothing) then autosave."""
        self.game.play(action)
        self.autosave_now()

    def bot_choose(self, seat: int):
        """The bot's decision for `seat`, from its view alone (safe in a worker thread)."""
        return self.bots[seat].choose(self.bot_view(seat))

    def bot_move(self, action=None):
        """The deciding bot plays (or plays `action`, chosen from its view elsewhere)."""
        seat = self.state.pending.seat
        view = self.bot_view(seat)
        if action is None:
            action = self.bots[seat].choose(view)
        self.game.play(action, view)
        self.autosave_now()
        return action

    def hand_over(self, seat: int) -> None:
        """A human who leaves: a heuristic bot plays the seat from now on (and after a load)."""
        self.bots[seat] = BOTS["heuristic"](seed=self.game.setup.seed * 7919 + seat)
        self.game.handed.append(seat)
        if self.humans:
            self.last_human = None
        if self.autosave:
            self.save()

    # ------------------------------------------------------------ saving

    def autosave_now(self) -> None:
        """Autosave; a failing disk never stops the game, it is reported once instead."""
        if not self.autosave:
            return
        try:
            self.save()
            self.save_problem = None
        except OSError as exc:
            self.save_problem = f"{exc.filename or self.saves_dir}: {exc.strerror or exc}"

    def other_game_at(self, name: str) -> bool:
        """Whether save `name` exists and holds something other than this game (another
        game, or a file that cannot be read): saving there would replace it."""
        from ..savemeta import SaveError, read_document

        path = self.saves_dir / f"{name}.toml"
        if not path.exists():
            return False
        try:
            document = read_document(path)
        except SaveError:
            return True
        meta, setup = document.get("meta"), document.get("setup")
        return not (
            isinstance(meta, dict)
            and isinstance(setup, dict)
            and meta.get("created") == self.game.created
            and setup.get("seed") == self.game.setup.seed
        )

    def save(self, name: str | None = None) -> Path:
        """Autosave, or a named save (which the autosave keeps following)."""
        path = write_save(self.saves_dir / f"{name or self.save_name}.toml", self.game)
        self.last_saved = self.game.updated
        return path
