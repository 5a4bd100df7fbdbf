"""The guided first game on the game screen: lessons before their move, the move the
lesson expects on the bottom line, and what comes after the last one (a part of
`GameScreen`; the session says what the lesson wants, the screen says it in words)."""

from __future__ import annotations

from ...engine import actions as act
from ...words.describe import move_label
from .choice import ChoiceModal

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


class GameLearn:
    """Mixed into `GameScreen`: its state (session, tr, busy…) lives there."""

    _learn_done_shown = False

    def todo(self) -> str:
        """What the lesson expects now, in words, with its key ("" outside a lesson)."""
        expected = self.session.expected()
        if expected is None:
            return ""
        tr, view = self.tr, self.view()
        label = move_label(tr, view, expected)
        key = MOVE_KEYS.get(type(expected))
        if view.pending.kind != "turn" or key is None:
            return tr("learn.todo.dialog", label=label)
        if isinstance(expected, CARD_MOVES):
            card = tr.card(expected.card)
            return tr("learn.todo.card", card=card, k=key)
        return tr("learn.todo.key", label=label, k=key)

    def show_lesson(self) -> bool:
        """A lesson whose move has come: shown before anything else (True if one was)."""
        if not self.session.learning:
            return False
        lesson = self.session.lesson()
        if lesson is None:
            return self._learn_finished()
        lang = self.tr.lang
        self.busy = True
        self.app.push_screen(
            ChoiceModal(lesson.title[lang], [(self.tr("learn.go"), True)], body=lesson.text[lang]),
            self._after_lesson,
        )
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
