"""A game at one terminal: its bots, the privacy screens between the players who share
the keyboard, a shared reaction window, undo and hints (no Textual). `LocalSession`
adds the saves; `LearnSession` the lessons."""

from __future__ import annotations

import time

from ..bots import BOTS, bot_seed, pacing
from ..engine import (
    SPECTATOR,
    Answers,
    IllegalAction,
    View,
    can_undo,
    unable_seats,
    view_for,
    window_seats,
)
from ..engine import actions as act
from ..storage.savefile import SavedGame
from .recap import transition_span
from .session import Capabilities, Step


class TerminalGame:
    """Every state change goes through `play` or `bot_move`, which apply and record
    (then `changed`: a saved game autosaves). Turn sequencing (bots, privacy hand-overs,
    the transition summary) lives here; the screen renders views and turns keys into
    actions."""

    can = Capabilities(play=True, undo=True, hints=True, bots=True, shared=True, replay=True)

    def __init__(self, game: SavedGame):
        self.game = game
        setup = game.setup
        self.bots = {
            seat: BOTS.get(seat_setup.bot, BOTS["heuristic"])(seed=bot_seed(setup.seed, seat))
            for seat, seat_setup in enumerate(setup.seats)
            if not seat_setup.human or seat in game.handed
        }
        humans = self.humans
        self.viewer = humans[0] if humans else 0
        # The seat whose private cards were on screen last: another player's cards come
        # only after the privacy screen, the same player's come back without it.
        self.last_human: int | None = None
        # Several players at one terminal and nobody's private moment (a bot plays, a
        # public window): the screen shows the public view meanwhile.
        self.public = False
        self._transition_seen = False
        self._view_key: tuple | None = None
        self._view: View | None = None
        self.answers = Answers()  # a shared terminal's window: who spoke up, and what
        self._window: object = None  # the window the clock below belongs to
        self._window_ends = 0.0
        self._window_paused: float | None = None  # seconds left while a player answers
        self._window_done = False  # nobody else reacts (Enter, or the time is up)

    @property
    def state(self):
        return self.game.state

    @property
    def humans(self) -> list[int]:
        return [seat for seat in range(len(self.game.setup.seats)) if seat not in self.bots]

    @property
    def over(self) -> bool:
        return self.state.over

    # ------------------------------------------------------------ what to show

    def view(self) -> View:
        """The viewing seat's view, built once per change (keys ask for it often)."""
        state = self.state
        pending = state.pending
        answered = self.answers.answered(state)
        viewer = SPECTATOR if self.public else self.viewer
        key = (
            state.version,
            viewer,
            len(state.log),
            None if pending is None else (pending.kind, pending.seat),
            answered,
        )
        view = self._view
        if key != self._view_key or view is None:
            self._view_key = key
            view = self._view = view_for(state, viewer, answered=answered)
        return view

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
            if self.humans and self._phase_two_untouched():
                return Step("transition")
        pending = state.pending
        seat = pending.seat
        if seat in self.bots:
            if len(self.humans) > 1:
                self._go_public()
            return Step("bot", seat, pace=not pacing.at_once(pending.kind))
        if pending.kind == "react" and len(self.humans) > 1:
            return self._shared_window()
        if len(self.humans) > 1 and seat != self.last_human:
            return Step("privacy", seat)
        self.take_seat(seat)
        return Step("turn" if pending.kind == "turn" else "decide", seat)

    def _phase_two_untouched(self) -> bool:
        """Phase 2 has just begun: no move made since the transition. A game saved
        later in its first round and loaded again showed the summary once more, with the
        gauge as the transition had left it (a play-test)."""
        state = self.state
        if self.view().round_in_phase != 1:
            return False
        span = transition_span(state.log)
        since = [entry.kind for entry in state.log[span.start :]]
        if "end_turn" in since or "announce" in since:
            return False
        if "turn" not in since or state.active < 0:
            return True  # no turn begun yet (an event's window; a turn's flags are stale then)
        turn = state.players[state.active].turn
        return not (turn.acted or turn.drew or turn.discarded or turn.traded or turn.proposed)

    # ------------------------------------------------------------ a shared terminal's window

    def _shared_window(self) -> Step:
        """Several players at one terminal: a window asks nobody by name. The players
        who cannot cancel whatever they hold, as everyone can see (`unable_seats`), let
        it happen at once — if that is all of them, no prompt opens. Otherwise a public
        prompt stays up for the same time whatever anyone holds; a player who wants to
        cancel speaks up with their seat's key (`speak_up`), and nobody else presses
        anything. Answers apply in seat order, as at a table server."""
        state = self.state
        for seat in unable_seats(state):
            if seat in self.humans:
                self.answers.give(state, act.Pass(seat))
        if self._window is not self._current_window():  # a new window: its time starts
            self._window = self.answers.frame
            self._window_ends = time.monotonic() + pacing.SHARED_REACTION_SECONDS
            self._window_paused, self._window_done = None, False
        if self._window_paused is not None:
            # Back from a player's prompt without an answer (Escape): the prompt opens
            # again with its whole time, not the moment that was left when they spoke up
            # (a play-test came back to 0.2 s). It depends on keys seen by all, not hands.
            self._window_ends = time.monotonic() + pacing.SHARED_REACTION_SECONDS
            self._window_paused = None
        answer = self.answers.next(state, expired=self._window_done or not self.window_left())
        if answer is not None:
            self.game.play(answer)
            self.changed()
            return self.next_step()
        self._go_public()
        return Step("window")

    def _go_public(self) -> None:
        """Everyone may be looking: no hand on screen until a player takes the keyboard.
        Whose cards come back next decides whether the privacy screen comes first: the
        player who had the keyboard before goes on without it."""
        self.public = True

    def _current_window(self):
        self.answers.current(self.state)
        return self.answers.frame

    @property
    def waiting(self) -> list[int]:
        """The players at this terminal the open window waits for (who have not spoken)."""
        state = self.state
        answered = self.answers.answered(state)
        return [s for s in window_seats(state) if s in self.humans and s not in answered]

    def window_left(self) -> float:
        """Seconds left in the shared terminal's window (0: none open, or time is up)."""
        if self._window is None or self._window is not self._current_window():
            return 0.0
        if self._window_paused is not None:
            return self._window_paused
        return max(0.0, self._window_ends - time.monotonic())

    def speak_up(self, seat: int) -> None:
        """A player asks for the floor: the window's time stops while they answer."""
        self._window_paused = self.window_left()

    def nobody_reacts(self) -> None:
        """Enter on the public prompt, or its time is up: the others let it happen."""
        self._window_done = True

    def take_seat(self, seat: int) -> None:
        """The human at `seat` now has the keyboard (after a privacy screen, if any)."""
        self.last_human = seat
        self.public = False
        if seat in self.humans or not self.humans:
            self.viewer = seat

    # ------------------------------------------------------------ actions

    def play(self, action: act.Action) -> None:
        """Apply (raises IllegalAction, changing nothing) and record. An answer to a
        window that asks several players at once is collected (`next_step` applies it
        in seat order)."""
        state = self.state
        pending = state.pending
        if (
            isinstance(action, act.Pass | act.Cancel)
            and pending is not None
            and pending.kind == "react"
            and len(self.humans) > 1
        ):
            if not self.answers.give(state, action):
                raise IllegalAction("not_an_option")
            return
        self.game.play(action)
        self.changed()

    def can_undo(self) -> bool:
        """Whether the player at the keyboard may take back their last decision now
        (the engine's rule: `engine.can_undo`)."""
        if self.public or self.state.pending is None:
            return False
        seat = self.state.pending.seat
        return seat == self.viewer and seat in self.humans and can_undo(self.state, seat)

    def undo(self) -> None:
        """Take back the last decision of the player at the keyboard: the game becomes
        the replay without it, and the save holds only what stands."""
        if not self.can_undo():
            raise IllegalAction("cannot_undo")
        self.game.undo(self.viewer)
        self.answers = Answers()
        self.changed()

    def can_hint(self) -> bool:
        """Hints are offered to the player at the keyboard whenever they decide: their
        turn, and a cancel or not, a discard, a trade answer, the mulligan…"""
        if self.public or self.viewer not in self.humans:
            return False
        view = self.view()
        return view.pending is not None and view.pending.seat == view.seat and bool(view.legal)

    def hint_view(self) -> View:
        """What a hint may know: the deciding seat's view, nothing more."""
        return view_for(self.state, self.viewer, with_log=False)

    def bot_choose(self, seat: int) -> act.Action:
        """The bot's decision for `seat`, from its view alone (safe in a worker thread)."""
        return self.bots[seat].choose(self.bot_view(seat))

    def bot_move(self, action: act.Action | None = None) -> act.Action:
        """The deciding bot plays (or plays `action`, chosen from its view elsewhere)."""
        seat = self.state.pending.seat
        view = self.bot_view(seat)
        if action is None:
            action = self.bots[seat].choose(view)
        self.game.play_chosen(action, view)
        self.changed()
        return action

    def changed(self) -> None:
        """After every change of the game (a saved game autosaves here)."""
