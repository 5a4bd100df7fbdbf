"""The Session contract: what a screen may ask of the game it shows (no Textual).

A session is what a screen plays through. Every session gives the View of the seat at
this terminal (`view`), says whose that is (`viewer`) and whether the game is over, and
says in one frozen `Capabilities` (`session.can`) what else it can do. Each capability
is a small protocol below: a session has the members of the parts its `can` names, and
no others' (no member that only says "not here"). A screen asks `session.can.X` before
it uses part X, never which kind of session it holds.

The sessions: `LocalSession` (a saved game at one terminal: bots, privacy screens,
saves), `LearnSession` (the guided first game), `RemoteSession` (a seat at a table
server, which plays the bots and keeps the save) and `ReplaySession` (a game stepped
through). tests/test_session_contract.py holds each of them to what its `can` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

import attrs

from ..engine import View
from ..engine import actions as act

if TYPE_CHECKING:
    from ..storage.savefile import SavedGame
    from .learn import Lesson
    from .replay import Timeline

StepKind = Literal["over", "transition", "bot", "privacy", "decide", "turn", "window", "wait"]


@attrs.frozen
class Step:
    """What the screen must do next.

    kind: "over" (show the end), "transition" (show what the transition did, once),
    "bot" (a bot decides `seat`; wait the table's pace first when `pace`), "privacy"
    (hand the keyboard to `seat`), "decide" (`seat`, at this terminal, answers a
    decision in a dialog), "turn" (`seat` plays its turn with the keys), "window" (the
    public "someone to react?" prompt of a shared terminal: `SharedTerminal.waiting`) or
    "wait" (another terminal decides)."""

    kind: StepKind
    seat: int = -1
    pace: bool = False


@attrs.frozen
class Capabilities:
    """What a session can do; each flag names the part (protocol) it brings."""

    play: bool = False  # takes this terminal's moves and says what comes next: Playing
    undo: bool = False  # u takes back a decision (when the rules allow): Undoing
    hints: bool = False  # h asks the expert: Hinting
    bots: bool = False  # bots decide here, paced by the screen: BotsHere
    shared: bool = False  # players share the keyboard: privacy screens, a public window
    hand_over: bool = False  # ctrl+b gives a leaving player's seat to a bot: HandOver
    save: bool = False  # ctrl+s, and the autosave after every move: Saving
    replay: bool = False  # r on the end screen steps through this game again: Replayable
    guide: bool = False  # the guided first game: lessons, one expected move: Guided
    table: bool = False  # a seat at a table server: its notices, its window's clock
    chat: bool = False  # m: a line to everyone at the table: Chatting
    auto_pass: bool = False  # a: pass by oneself where one cannot cancel: AutoPass
    travel: bool = False  # the replay's keys: to any action, turn or round: Travel


Notice = tuple[int, int, str]  # a table's notice: (log length when it came, order, line)


@runtime_checkable
class Session(Protocol):
    """What every session gives, whatever it can do."""

    @property
    def can(self) -> Capabilities: ...

    def view(self) -> View:
        """The view of the seat at this terminal (or the public one)."""
        ...

    @property
    def viewer(self) -> int:
        """The seat whose view this terminal shows (SPECTATOR: every hand shut)."""
        ...

    @property
    def over(self) -> bool: ...


@runtime_checkable
class Playing(Protocol):
    """can.play: a seat that takes moves."""

    def next_step(self) -> Step:
        """What the screen must do now: show the end, wait, let a bot or a seat decide."""
        ...

    def play(self, action: act.Action) -> None:
        """Take the seat's move; an illegal one raises IllegalAction, changing nothing."""
        ...


@runtime_checkable
class Undoing(Protocol):
    """can.undo"""

    def can_undo(self) -> bool:
        """Whether this terminal's seat may take back its last decision now (`u`)."""
        ...

    def undo(self) -> None:
        """Take back that decision (IllegalAction "cannot_undo" when the rule forbids)."""
        ...


@runtime_checkable
class Hinting(Protocol):
    """can.hints"""

    def can_hint(self) -> bool:
        """Whether `h` may ask the expert now (this seat decides)."""
        ...

    def hint_view(self) -> View:
        """The view a hint is computed from: this seat's, nothing more."""
        ...


@runtime_checkable
class BotsHere(Protocol):
    """can.bots: bots play at this terminal; the screen paces them."""

    @property
    def humans(self) -> list[int]:
        """The seats people play at this terminal."""
        ...

    def is_bot_turn(self) -> bool: ...

    def deciding_bot(self) -> int:
        """The seat of the bot that decides now (when `is_bot_turn`)."""
        ...

    def bot_kind(self, seat: int) -> str: ...

    def bot_choose(self, seat: int) -> act.Action:
        """The bot's decision from its own view (safe in a worker thread)."""
        ...

    def bot_move(self, action: act.Action | None = None) -> act.Action:
        """The deciding bot plays (`action`, if chosen elsewhere)."""
        ...


@runtime_checkable
class SharedTerminal(Protocol):
    """can.shared: several players at one keyboard (Step "privacy" and "window")."""

    @property
    def last_human(self) -> int | None:
        """The player whose cards were on screen last (None: nobody's yet)."""
        ...

    @property
    def waiting(self) -> list[int]:
        """The players the open public window waits for."""
        ...

    def take_seat(self, seat: int) -> None:
        """`seat` has the keyboard now (after its privacy screen)."""
        ...

    def speak_up(self, seat: int) -> None:
        """A player asks for the floor in the public window: its time stops."""
        ...

    def nobody_reacts(self) -> None: ...

    def window_left(self) -> float:
        """Seconds left in the public window (0: none open, or time is up)."""
        ...


@runtime_checkable
class HandOver(Protocol):
    """can.hand_over"""

    @property
    def humans(self) -> list[int]: ...

    def hand_over(self, seat: int) -> None:
        """A leaving player's seat goes to a bot, from now on."""
        ...


@runtime_checkable
class Saving(Protocol):
    """can.save"""

    @property
    def saves_dir(self) -> Path | None: ...

    @property
    def autosave(self) -> bool: ...

    @property
    def save_name(self) -> str: ...

    @property
    def updated(self) -> str:
        """When the game last changed (ISO time)."""
        ...

    @property
    def last_saved(self) -> str | None: ...

    @property
    def save_problem(self) -> str | None:
        """Why the last autosave failed (None: it did not)."""
        ...

    def autosave_now(self) -> None: ...

    def save(self, name: str | None = None) -> Path: ...

    def other_game_at(self, name: str) -> bool:
        """Whether saving as `name` would replace something else."""
        ...


@runtime_checkable
class Replayable(Protocol):
    """can.replay"""

    @property
    def game(self) -> SavedGame: ...


@runtime_checkable
class Guided(Protocol):
    """can.guide: the guided first game."""

    def expected(self) -> act.Action | None:
        """The move the lesson asks for now (None: any legal move will do)."""
        ...

    def lesson(self) -> Lesson | None:
        """The next lesson to show, once, before the learner's move (or None)."""
        ...

    def ending(self, lang: str) -> tuple[str, str] | None:
        """The final check's title and words, once the game is over."""
        ...

    @property
    def finished(self) -> bool:
        """The last scripted move is made: the game goes on freely."""
        ...


@runtime_checkable
class TableFeed(Protocol):
    """can.table: a seat at a table server, which sends views, notices and a clock."""

    @property
    def notices(self) -> Sequence[Notice]: ...

    def window_left(self) -> float:
        """Seconds left in the table's reaction window (0: none), the same for all."""
        ...

    @property
    def bot_plays(self) -> bool:
        """A bot plays this seat: its player let a decision's time run out."""
        ...

    def take_back(self) -> None:
        """Take the seat back from that bot (Enter does, at the game screen)."""
        ...


@runtime_checkable
class Chatting(Protocol):
    """can.chat"""

    @property
    def chat_limit(self) -> int: ...

    def chat(self, text: str) -> None: ...


@runtime_checkable
class AutoPass(Protocol):
    """can.auto_pass"""

    def toggle_auto_pass(self) -> bool:
        """Pass by myself where I cannot cancel, or no longer; the new setting."""
        ...


@runtime_checkable
class Travel(Protocol):
    """can.travel: a game stepped through, as one seat saw it or every hand open."""

    @property
    def timeline(self) -> Timeline: ...

    @property
    def at(self) -> int:
        """How many of the game's actions are played at the cursor."""
        ...

    @property
    def seat(self) -> int: ...

    @property
    def shown(self) -> list[int]:
        """The seats whose view it may show (every seat once the game is over)."""
        ...

    @property
    def open(self) -> bool:
        """Every hand shown (a finished game only)."""
        ...

    def go(self, at: int) -> None: ...

    def turn(self, step: int) -> None: ...

    def round(self, step: int) -> None: ...

    def choose_seat(self, seat: int) -> bool: ...

    def open_hands(self) -> bool: ...


# Each capability and the part it brings (the shared test reads it).
PARTS: dict[str, type] = {
    "play": Playing,
    "undo": Undoing,
    "hints": Hinting,
    "bots": BotsHere,
    "shared": SharedTerminal,
    "hand_over": HandOver,
    "save": Saving,
    "replay": Replayable,
    "guide": Guided,
    "table": TableFeed,
    "chat": Chatting,
    "auto_pass": AutoPass,
    "travel": Travel,
}


def table_notices(session: Session) -> Sequence[Notice]:
    """The table's notices for the log (none away from a table server)."""
    return session.notices if isinstance(session, TableFeed) and session.can.table else ()


def bot_plays_for_me(session: Session) -> TableFeed | None:
    """The session, when a table's bot plays its seat (its decision's time ran out)."""
    return session if isinstance(session, TableFeed) and session.bot_plays else None


def may_undo(session: GameSession) -> bool:
    """`u` takes a move back now: the session undoes, and there is a move to take back."""
    return session.can.undo and session.can_undo()


def may_hint(session: GameSession) -> bool:
    """`h` asks the expert now."""
    return session.can.hints and session.can_hint()


def bot_deciding(session: GameSession) -> bool:
    """A bot of this terminal decides now (the screen paces it)."""
    return session.can.bots and session.is_bot_turn()


class GameSession(
    Session,
    Playing,
    Undoing,
    Hinting,
    BotsHere,
    SharedTerminal,
    HandOver,
    Saving,
    Replayable,
    Guided,
    TableFeed,
    Chatting,
    AutoPass,
    Protocol,
):
    """Every part a game screen may reach for, each once `can` says so: what the type
    checker holds the game screen's calls to. No session is all of it."""
