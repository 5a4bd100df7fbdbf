"""The guided first game on the game screen: lessons before their move, the move the
lesson expects on the bottom line, and what comes after the last one (a part the
screen holds; the session says what the lesson wants, the flow when, this says it in
words)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import actions as act
from ...words.describe import move_label
from ..widgets import DeckPane, EventsPane, Gauge, HandPane, LogPane, PlayersPane
from .choice import ChoiceModal
from .lesson import LessonModal, place_away_from
from .part import ScreenPart

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
    pass


class Lessons(ScreenPart):
    """The guided game's words on the game screen (a part the screen holds:
    `screen.lessons`)."""

    def todo(self, in_dialog: bool = False) -> str:
        """What the lesson expects now, in words, with its key ("" outside a lesson);
        `in_dialog`: said for a dialog of the turn, open now (how much PA to store)."""
        expected = self.session.expected() if self.session.can.guide else None
        if expected is None:
            return ""
        tr, view = self.tr, self.view()
        label = move_label(tr, view, expected)
        key = MOVE_KEYS.get(type(expected))
        if in_dialog or view.pending is None or view.pending.kind != "turn" or key is None:
            return tr("learn.todo.dialog", label=label)
        if isinstance(expected, CARD_MOVES):
            card = tr.card(expected.card)
            return tr("learn.todo.card", card=card, k=key)
        return tr("learn.todo.key", label=label, k=key)

    def show_lesson(self, lesson) -> None:
        """A lesson whose move has come: shown before anything else."""
        lang = self.tr.lang
        self.screen.refresh_view()  # the panes it speaks of, as they are now
        self.app.push_screen(
            self._lesson_box(lesson.title[lang], lesson.text[lang], lesson.points),
            self._after_lesson,
        )

    def _lesson_box(self, title: str, text: str, points=()) -> LessonModal:
        """A lesson's box, away from the panes it points at (their names, as in
        rules/learn.toml: gauge, players, events, hand, deck, log)."""
        regions = [self.screen.query_one(PANES[name]).region for name in points]
        width, height = self.app.size
        place = place_away_from(regions, width, height - 1)  # the keys line stays too
        tr = self.tr
        keys = (tr("learn.go_key"), self.app.dialog_keys)
        return LessonModal(tr.colons(title), tr.colons(text), tr("learn.go"), keys, place)

    def show_ending(self, title: str, text: str) -> None:
        """A guided game over: the final check (who won and why) before the end screen."""
        self.screen.refresh_view()  # the final gauge under the words that say it
        self.app.push_screen(self._lesson_box(title, text, ("gauge",)), self._after_lesson)

    def _after_lesson(self, _) -> None:
        self.flow.closed()
        self.screen.advance()

    def show_learn_done(self) -> None:
        """After the last scripted move: a real game, this one freely, or the title."""
        tr = self.tr
        options = [
            (tr("learn.end.new"), "new"),
            (tr("learn.end.go_on"), "go_on"),
            (tr("learn.end.title"), "title"),
        ]
        self.app.push_screen(
            ChoiceModal(tr("learn.end.heading"), options, body=tr("learn.end.body")),
            self._after_learning,
        )

    def _after_learning(self, choice) -> None:
        self.flow.closed()
        if choice == "new":
            self.app.back_to_title()
            self.app.open_new_game()
        elif choice == "title":
            self.app.back_to_title()
        else:
            self.screen.advance()
