"""The guided first game on the game screen: lessons before their move, the move the
lesson expects on the bottom line, and what comes after the last one (a part of
`GameScreen`; the session says what the lesson wants, the screen says it in words)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import actions as act
from ...words.describe import move_label
from ..widgets import DeckPane, EventsPane, Gauge, HandPane, LogPane, PlayersPane
from .choice import ChoiceModal
from .lesson import LessonModal, place_away_from

# The panes a lesson may point at, by the names rules/learn.toml gives them.
PANES = {
    "gauge": Gauge,
    "players": PlayersPane,
    "events": EventsPane,
    "hand": HandPane,
    "deck": DeckPane,
    "log": LogPane,
}

# The key that makes each kind of move on one's turn.
MOVE_KEYS = {
    act.PlayCard: "p",
    act.PutInDeck: "b",
    act.Discard: "x",
    act.Draw: "d",
    act.ProposeTrade: "t",
    act.StoreAp: "s",
    act.UsePower: "o",
    act.EndTurn: "e",
}
CARD_MOVES = (act.PlayCard, act.PutInDeck, act.Discard)

if TYPE_CHECKING:
    from .game_host import GameHost
else:
    GameHost = object  # (the type checker's view of what GameScreen shares)


class GameLearn(GameHost):
    """Mixed into `GameScreen`: its state (session, tr, busy…) lives there."""

    _learn_done_shown = False

    def todo(self) -> str:
        """What the lesson expects now, in words, with its key ("" outside a lesson)."""
        expected = self.session.expected() if self.session.can.guide else None
        if expected is None:
            return ""
        tr, view = self.tr, self.view()
        label = move_label(tr, view, expected)
        key = MOVE_KEYS.get(type(expected))
        if view.pending is None or view.pending.kind != "turn" or key is None:
            return tr("learn.todo.dialog", label=label)
        if isinstance(expected, CARD_MOVES):
            card = tr.card(expected.card)
            return tr("learn.todo.card", card=card, k=key)
        return tr("learn.todo.key", label=label, k=key)

    def show_lesson(self) -> bool:
        """A lesson whose move has come: shown before anything else (True if one was)."""
        if not self.session.can.guide:
            return False
        lesson = self.session.lesson()
        if lesson is None:
            return self._learn_finished()
        lang = self.tr.lang
        self.busy = True
        self.refresh_view()  # the panes it speaks of, as they are now
        self.app.push_screen(
            self._lesson_box(lesson.title[lang], lesson.text[lang], lesson.points),
            self._after_lesson,
        )
        return True

    def _lesson_box(self, title: str, text: str, points=()) -> LessonModal:
        """A lesson's box, away from the panes it points at (their names, as in
        rules/learn.toml: gauge, players, events, hand, deck, log)."""
        regions = [self.query_one(PANES[name]).region for name in points]
        width, height = self.app.size
        place = place_away_from(regions, width, height - 1)  # the keys line stays too
        tr = self.tr
        keys = (tr("learn.go_key"), self.app.dialog_keys)
        return LessonModal(tr.colons(title), tr.colons(text), tr("learn.go"), keys, place)

    _ending_shown = False

    def show_ending(self) -> bool:
        """Once, when a guided game is over: the final check (who won and why) before
        the end screen (True if it was shown)."""
        if not self.session.can.guide or self._ending_shown:
            return False
        ending = self.session.ending(self.tr.lang)
        if ending is None:
            return False
        self._ending_shown = True
        title, text = ending
        self.busy = True
        self.refresh_view()  # the final gauge under the words that say it
        self.app.push_screen(self._lesson_box(title, text, ("gauge",)), self._after_lesson)
        return True

    def _after_lesson(self, _) -> None:
        self.busy = False
        self.advance()

    def _learn_finished(self) -> bool:
        """Once, after the last scripted move: a real game, this one freely, or the title."""
        if self._learn_done_shown or not self.session.finished or self.session.over:
            return False
        self._learn_done_shown = True
        tr = self.tr
        options = [
            (tr("learn.end.new"), "new"),
            (tr("learn.end.go_on"), "go_on"),
            (tr("learn.end.title"), "title"),
        ]
        self.busy = True
        self.app.push_screen(
            ChoiceModal(tr("learn.end.heading"), options, body=tr("learn.end.body")),
            self._after_learning,
        )
        return True

    def _after_learning(self, choice) -> None:
        self.busy = False
        if choice == "new":
            self.app.back_to_title()
            self.app.open_new_game()
        elif choice == "title":
            self.app.back_to_title()
        else:
            self.advance()
