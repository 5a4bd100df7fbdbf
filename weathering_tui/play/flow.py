"""What a game screen shows next, decided without a screen (no Textual).

A `Flow` wraps a session that plays (`session.can.play`) and answers one question,
`next()`: what the screen must put up now — the transition's summary, a guided game's
lesson, the recap of what the others did since this player's last turn, a paced bot, a
privacy screen, a shared terminal's public window, a decision's dialog, the keys of a
turn, the end. It orders them (a lesson before the recap, the recap before the turn's
dialog, the guided game's final check before the end), paces the bots, and knows
whether something is up that waits for an answer (`busy`): the screen then waits too.
The screen renders each record and tells the flow when it is answered (`closed`,
`seat_taken`, `spoke`, `bot_step`, `bot_chose`). tests/test_flow.py plays whole games
through it with no app."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from ..bots.pacing import SEARCHING
from .recap import Recaps, Since, told
from .session import bot_deciding

if TYPE_CHECKING:
    from ..engine import View
    from ..engine import actions as act
    from .learn import Lesson
    from .session import GameSession


@attrs.frozen
class Show:
    """What the screen must show now; `holds`: the flow waits for it to be answered."""

    holds = False


@attrs.frozen
class Transition(Show):
    """Once, as phase 2 begins: what the transition did (the view is already the next
    turn's; the screen shows the game as it is now under the summary)."""


@attrs.frozen
class LessonShow(Show):
    """A guided game's lesson whose move has come, before anything else."""

    lesson: Lesson
    holds = True


@attrs.frozen
class LearnDone(Show):
    """Once, after the last scripted move: a real game, this one freely, or the title."""

    holds = True


@attrs.frozen
class Ending(Show):
    """Once, a guided game over: the final check (who won and why) before the end."""

    title: str
    text: str
    holds = True


@attrs.frozen
class Recap(Show):
    """What the other seats did since this player's last turn (`entries` of the log)."""

    since: Since
    entries: tuple
    holds = True


@attrs.frozen
class End(Show):
    """The game is over: the end screen."""


@attrs.frozen
class BotTurn(Show):
    """A bot of this terminal decides `seat`: after `delay` seconds (0: at once), the
    screen calls `bot_step`."""

    seat: int
    delay: float
    holds = True


@attrs.frozen
class Privacy(Show):
    """The keyboard goes to `seat` (`previous` had it; None: nobody yet)."""

    seat: int
    previous: int | None
    holds = True


@attrs.frozen
class Window(Show):
    """A shared terminal's public "anyone to react?" prompt, waiting for `seats`."""

    seats: tuple[int, ...]
    holds = True


@attrs.frozen
class Decide(Show):
    """`seat`, at this terminal, answers a decision in a dialog."""

    seat: int


@attrs.frozen
class Turn(Show):
    """`seat` plays its turn with the keys."""

    seat: int


@attrs.frozen
class Wait(Show):
    """Another terminal decides: the screen shows the game and waits."""


@attrs.frozen
class BotStep:
    """After a bot's pace: `think` (a seat) when it must think off the event loop and
    `bot_chose` comes later; `moved` when it played at once."""

    moved: bool = False
    think: int | None = None


class Flow:
    """A session's next step as the screen must show it (see the module's words)."""

    def __init__(
        self,
        session: GameSession,
        pace: float = 0.6,
        lang: str = "fr",
        tells: Callable[[View, object], bool] | None = None,
    ):
        self.session = session
        self.pace = pace  # seconds before a bot's paced move (0: none)
        self.lang = lang  # a guided game's final check is written in it
        # Whether a recap says something of a log entry (the words know; default: all).
        self.tells = tells or (lambda view, entry: True)
        self.busy = False  # something is up that waits for an answer
        self.recaps = Recaps()  # "since your last turn", per seat
        self._learn_done_shown = False
        self._ending_shown = False

    def next(self) -> Show | None:
        """What the screen must show now (None: something is up already, it waits)."""
        if self.busy:
            return None
        session = self.session
        step = session.next_step()
        if step.kind == "transition":  # (its view is already the next turn's: the
            return Transition()  # recap of that turn comes after the summary)
        view = session.view()
        since = self.recaps.observe(view)  # every step: it marks where turns end
        if step.kind in ("turn", "decide"):
            first = self._lesson() or self._recap(view, since)
            if first is not None:
                return self._held(first)
        if step.kind == "over":
            return self._held(self._ending() or End())
        if step.kind == "bot":
            return self._held(BotTurn(step.seat, self.pace if self.pace > 0 and step.pace else 0))
        if step.kind == "privacy":
            return self._held(Privacy(step.seat, session.last_human))
        if step.kind == "window":
            return self._held(Window(tuple(session.waiting)))
        if step.kind == "decide":
            return Decide(step.seat)
        if step.kind == "turn":
            return Turn(step.seat)
        return Wait()

    def _held(self, show: Show) -> Show:
        self.busy = self.busy or show.holds
        return show

    def _lesson(self) -> Show | None:
        """A guided game's lesson whose move has come, or (once) what comes after the last
        scripted move."""
        session = self.session
        if not session.can.guide:
            return None
        lesson = session.lesson()
        if lesson is not None:
            return LessonShow(lesson)
        if self._learn_done_shown or not session.finished or session.over:
            return None
        self._learn_done_shown = True
        return LearnDone()

    def _recap(self, view: View, since: Since | None) -> Show | None:
        """At the start of a player's turn, what every other seat did since their last
        one (not in a guided game: the lessons say what happens)."""
        if since is None or self.session.can.guide:
            return None
        entries = tuple(e for e in told(view.log, since.start) if self.tells(view, e))
        return Recap(since, entries) if entries else None

    def _ending(self) -> Show | None:
        if not self.session.can.guide or self._ending_shown:
            return None
        ending = self.session.ending(self.lang)
        if ending is None:
            return None
        self._ending_shown = True
        return Ending(*ending)

    # ------------------------------------------------------------ answers

    def hold(self) -> None:
        """The screen put up something of its own that waits for an answer (a key's
        dialog, a hint being thought): the next step waits for `closed`."""
        self.busy = True

    def closed(self) -> None:
        """What was up is answered: the next step may come."""
        self.busy = False

    def seat_taken(self, seat: int) -> None:
        """Past the privacy screen: `seat` has the keyboard."""
        self.busy = False
        self.session.take_seat(seat)

    def spoke(self, seat: int | None) -> None:
        """A player spoke up in the public window (they answer in their own dialog,
        after their privacy screen), or nobody did and it lets the move happen."""
        self.busy = False
        if seat is None:
            self.session.nobody_reacts()
        else:
            self.session.speak_up(seat)

    def bot_turn(self) -> bool:
        """A bot of this terminal decides now."""
        return bot_deciding(self.session)

    def bot_step(self) -> BotStep:
        """The bot's pace is over: it plays, or (a searching bot, up to a second) thinks
        off the event loop, and the flow waits for `bot_chose`."""
        self.busy = False
        session = self.session
        if not self.bot_turn():
            return BotStep()
        seat = session.deciding_bot()
        if session.bot_kind(seat) in SEARCHING:
            self.busy = True
            return BotStep(think=seat)
        session.bot_move()
        return BotStep(moved=True)

    def bot_chose(self, action: act.Action | None) -> None:
        """The expert's move, thought off the event loop (None: it failed)."""
        self.busy = False
        if action is not None and self.bot_turn():
            self.session.bot_move(action)
