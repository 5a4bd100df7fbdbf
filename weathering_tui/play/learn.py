"""The guided first game: a scripted, seeded game at one terminal (no Textual).

The script (`rules/learn.toml`) names the learner's moves by their action keys and the
lessons that come before some of them. The learner is seat 0; bots play the other seats
as in any game at one terminal, so the same seed and the same moves give the same game.
The moves go to the game's end, and the ending says the final victory check: who won
and why, from the game's own outcome. (A script that ends sooner leaves the game free.)
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from ..content.loader import RULES_DIR
from ..engine import IllegalAction, SeatSetup, Setup, action_from_key, action_key, sides_of
from ..engine import actions as act
from ..storage.savefile import SavedGame
from .session import Capabilities
from .terminal import TerminalGame

LEARNER = 0
SCRIPT = RULES_DIR / "learn.toml"


@attrs.frozen
class Lesson:
    at: int  # comes up before the learner's move of this number
    title: dict[str, str]  # by language
    text: dict[str, str]
    points: tuple[str, ...] = ()  # the panes it speaks of: its box leaves them in sight


@attrs.frozen
class FinalCheck:
    """The final victory check, by language: `text` with {hp}, {goal} and {verdict},
    the verdict being `won` (the learner's side won) or `lost`, with {hp} and {goal}."""

    title: dict[str, str]
    text: dict[str, str]
    won: dict[str, str]
    lost: dict[str, str]


@attrs.frozen
class Script:
    setup: Setup
    moves: tuple[str, ...]
    lessons: tuple[Lesson, ...]
    ending: FinalCheck | None = None


class ScriptError(Exception):
    """The script file is broken: the message names the file and the problem."""


def load_script(path: Path = SCRIPT) -> Script:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        setup_data = data["setup"]
        ecologists, lobbyists = sides_of(setup_data["configuration"])
        sides = ["ecologist"] * ecologists + ["lobbyist"] * lobbyists
        seats = tuple(
            SeatSetup(side, character, human=seat == LEARNER)
            for seat, (side, character) in enumerate(
                zip(sides, setup_data["characters"], strict=True)
            )
        )
        setup = Setup(
            setup_data["configuration"],
            seats,
            seed=setup_data["seed"],
            events=setup_data.get("events", True),
        )
        lessons = tuple(
            Lesson(
                item["at"],
                {"fr": item["title_fr"], "en": item["title_en"]},
                {"fr": item["text_fr"], "en": item["text_en"]},
                tuple(item.get("points", ())),
            )
            for item in data.get("lesson", [])
        )
        moves = tuple(data["moves"])
        end = data.get("ending")
        ending = (
            FinalCheck(
                *(
                    {lang: end[f"{part}_{lang}"] for lang in ("fr", "en")}
                    for part in ("title", "text", "won", "lost")
                )
            )
            if end is not None
            else None
        )
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ScriptError(f"{path}: {exc}") from None
    if not all(isinstance(m, str) for m in moves):
        raise ScriptError(f"{path}: moves must be action keys (strings)")
    return Script(setup, moves, lessons, ending)


class LearnSession(TerminalGame):
    """A game at one terminal whose learner's moves follow the script until it ends.
    Nothing is saved: a lesson starts anew each time."""

    can = Capabilities(
        play=True, undo=True, hints=True, bots=True, shared=True, replay=True, guide=True
    )

    def __init__(self, script: Script, content=None):
        super().__init__(SavedGame.start(script.setup, content))
        self.script = script
        self.lessons_shown = 0  # lessons already shown, in order
        self._finished = False

    @property
    def step(self) -> int:
        """How many of the learner's moves are made (undo takes them back too)."""
        return sum(1 for a in self.game.actions if a.seat == LEARNER)

    @property
    def finished(self) -> bool:
        """The last scripted move was made (once: a move taken back after it is free)."""
        self._finished = self._finished or self.step >= len(self.script.moves)
        return self._finished

    def expected(self) -> act.Action | None:
        """The move the lesson asks for now, if the learner decides now; else None."""
        pending = self.state.pending
        if self.finished or pending is None or pending.seat != LEARNER or self.state.over:
            return None
        return action_from_key(self.state, LEARNER, self.script.moves[self.step])

    def lesson(self) -> Lesson | None:
        """The next lesson, once the game has reached its move (shown once)."""
        lessons = self.script.lessons
        if self.lessons_shown >= len(lessons) or self.state.pending is None:
            return None
        lesson = lessons[self.lessons_shown]
        if lesson.at > self.step or self.state.pending.seat != LEARNER:
            return None
        self.lessons_shown += 1
        return lesson

    def ending(self, lang: str) -> tuple[str, str] | None:
        """The final check's title and words once the game is over (None before, or
        without an ending): the final gauge against the threshold, and who won."""
        ending, outcome = self.script.ending, self.state.outcome
        if ending is None or outcome is None:
            return None
        goal = self.view().threshold
        mine = self.script.setup.seats[LEARNER].side
        words = ending.won if outcome.winner == mine + "s" else ending.lost
        verdict = words[lang].format(hp=outcome.hp, goal=goal)
        return ending.title[lang], ending.text[lang].format(
            hp=outcome.hp, goal=goal, verdict=verdict
        )

    def play(self, action: act.Action) -> None:
        expected = self.expected()
        if (
            expected is not None
            and getattr(action, "seat", None) == LEARNER
            and action_key(action) != action_key(expected)
        ):
            raise IllegalAction("learn_move")
        super().play(action)

    def can_hint(self) -> bool:
        """No hint while the lesson leads: it would point elsewhere than the lesson."""
        return self.finished and super().can_hint()


if TYPE_CHECKING:  # the type checker holds it to the parts its `can` names
    from . import session as ss

    def _parts(
        s: LearnSession,
    ) -> tuple[
        ss.Session,
        ss.Playing,
        ss.Undoing,
        ss.Hinting,
        ss.BotsHere,
        ss.SharedTerminal,
        ss.Replayable,
        ss.Guided,
    ]:
        return s, s, s, s, s, s, s, s
