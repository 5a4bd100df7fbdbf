"""The replay: a saved game stepped through action by action, turn by turn, round by
round, as one seat saw it or, once the game is over, with every hand open."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen

from ...bots.review import BUDGET as REVIEW_ROLLOUTS
from ...engine import SPECTATOR
from ..widgets import EventsPane, Gauge, HandPane, HeaderLine, KeyBar, Line, LogPane, PlayersPane
from .bindings import quiet
from .closing import close
from .end import chart

if TYPE_CHECKING:
    from ...play.replay import ReplaySession

# Rollouts per decision reviewed: `weathering review`'s own (bots/review.py), so that the
# same save gives the same review in the replay and on the command line (at 48 against
# the command's 96 a play-test read two different lists of costly decisions).
REVIEW_BUDGET = REVIEW_ROLLOUTS


class ChartPane(Line):
    """The PV chart round by round, up to the replay's cursor."""

    DEFAULT_CSS = "ChartPane { border: round $secondary; padding: 0 1; }"


class HandsPane(Line):
    """Every hand, once the game is over."""

    DEFAULT_CSS = "HandsPane { border: round $secondary; padding: 0 1; }"


class ReplayScreen(Screen[None]):
    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    ReplayScreen HeaderLine, ReplayScreen Gauge, ReplayScreen KeyBar { height: 1; }
    ReplayScreen #top { height: 8; }
    ReplayScreen PlayersPane { width: 44; height: 100%; }
    ReplayScreen ChartPane { width: 1fr; height: 100%; }
    ReplayScreen #middle { height: 1fr; min-height: 6; }
    ReplayScreen HandPane, ReplayScreen HandsPane { width: 1fr; height: 100%; }
    ReplayScreen HandsPane { height: 1fr; }
    ReplayScreen EventsPane { width: 30; height: 100%; }
    ReplayScreen LogPane { height: 5; }
    """
    BINDINGS = quiet(
        ("right", "step(1)"),
        ("left", "step(-1)"),
        ("pagedown", "turn(1)"),
        ("pageup", "turn(-1)"),
        ("right_square_bracket", "round(1)"),
        ("left_square_bracket", "round(-1)"),
        ("end", "edge(1)"),  # the game's end, as End means everywhere
        ("home", "edge(-1)"),
        ("o", "open_hands"),
        ("v", "review"),
        ("question_mark,f1", "help"),
        ("escape,q", "back"),
    )

    def __init__(self, session: ReplaySession, tr, standalone: bool = False):
        super().__init__()
        self.standalone = standalone  # `weathering replay`: leaving it ends the program
        self.session = session  # the cursor, the seat and the open hands are its
        self.tr = tr
        self.reviews: dict[int, object] = {}  # seat → its review (bots/review.py), once made

    def compose(self) -> ComposeResult:
        yield HeaderLine()
        yield Gauge()
        with Horizontal(id="top"):
            yield PlayersPane()
            yield ChartPane()
        with Horizontal(id="middle"):
            yield HandPane()
            yield HandsPane()
            yield EventsPane()
        yield LogPane()
        yield KeyBar()

    def on_mount(self) -> None:
        tr = self.tr
        self.query_one(PlayersPane).border_title = tr("players")
        self.query_one(EventsPane).border_title = tr("events")
        self.query_one(LogPane).border_title = tr("log")
        self.query_one(ChartPane).border_title = tr("end.chart")
        self.show()

    def on_resize(self) -> None:
        self.call_after_refresh(self.show)

    # ------------------------------------------------------------ what is shown

    def view(self):
        return self.session.view()

    def show(self) -> None:
        tr, view = self.tr, self.view()
        total = self.session.timeline.length
        seat = self.session.seat
        if self.session.open:
            who = tr("replay.all")
        else:
            who = view.players[seat].name if seat != SPECTATOR else tr("replay.public")
        status = tr("replay.status", n=self.session.at, total=total, who=who)
        self.query_one(HeaderLine).show(view, tr, status)
        self.query_one(Gauge).show(view, tr)
        self.query_one(PlayersPane).show(view, tr)
        self.query_one(EventsPane).show(view, tr)
        self.query_one(ChartPane).show_text(chart(view, column=2))
        hand, hands = self.query_one(HandPane), self.query_one(HandsPane)
        # Every hand open takes the whole middle and the log's rows: five hands fit.
        for pane in (hand, self.query_one(EventsPane), self.query_one(LogPane)):
            pane.display = not self.session.open
        hands.display = self.session.open
        if self.session.open:
            hands.border_title = tr("replay.hands")
            out = Text()
            colon = tr.colon
            held, decks = (
                self.session.timeline.hands_at(self.session.at),
                self.session.timeline.decks_at(self.session.at),
            )
            for player, cards, deck in zip(view.players, held, decks, strict=True):
                names = ", ".join(tr.card(c) for c in cards) or "—"
                out.append(player.name + colon, style="bold")
                out.append(names + "\n")
                if deck:  # an Écolo's secret deck, open too once the game is over
                    deck_names = ", ".join(tr.card(c) for c in deck)
                    out.append(f"  ▤ {tr('deck', n=len(deck))}{colon}{deck_names}\n", style="dim")
            hands.show_text(out)
        else:
            hand.show(view, tr, selected=-1, deck=True)  # its deck under it
            self.query_one(LogPane).show(view, tr)
        keys = [("←→", tr("replay.key.action")), (tr("replay.keys.page"), tr("replay.key.turn"))]
        keys += [("[ ]", tr("replay.key.round")), (tr("replay.keys.edge"), tr("replay.key.edge"))]
        if len(self.session.shown) > 1:  # (before the end: the player's seat alone)
            keys.append((f"1-{len(view.players)}", tr("replay.key.seat")))
        if self.session.timeline.over:
            keys.append(("o", tr("replay.key.open")))
        keys.append(("v", tr("replay.key.review")))
        keys.append(("q", tr("key.back")))
        self.query_one(KeyBar).show_keys(keys)

    # ------------------------------------------------------------ keys

    def _go(self, at: int) -> None:
        self.session.go(at)
        self.show()

    def action_step(self, step: int) -> None:
        self._go(self.session.at + step)

    def action_turn(self, step: int) -> None:
        self.session.turn(step)
        self.show()

    def action_round(self, step: int) -> None:
        self.session.round(step)
        self.show()

    def action_edge(self, step: int) -> None:
        self._go(self.session.timeline.length if step > 0 else 0)

    def action_open_hands(self) -> None:
        if self.session.open_hands():
            self.show()
        else:  # said, not ignored: every hand opens once the game is over
            self.notify(self.tr("replay.open_later"), markup=False)

    def action_review(self) -> None:
        """The seat's three costliest decisions, judged from its own view then (made
        once, off the event loop; Escape stops it); choosing one jumps to it."""
        if self.session.seat in self.reviews:
            self._show_review(self.session.seat)
            return
        if self.session.seat == SPECTATOR:  # several players share an unfinished game
            self.notify(self.tr("replay.none_shown"), markup=False)
            return
        from textual.worker import get_current_worker

        from ...bots.review import decisions, review_decisions
        from ...bots.search import Stopped

        seat, game = self.session.seat, self.session.timeline.game
        # Shown until the review is done or stopped (a 4 s notice left a play-test
        # looking at nothing for the last seconds of a 7 s review).
        self.notify(self.tr("replay.reviewing"), markup=False, timeout=600)

        def work():
            worker = get_current_worker()
            found = decisions(game.setup, self.session.timeline.actions, [seat])
            try:
                result = review_decisions(
                    found, budget=REVIEW_BUDGET, should_stop=lambda: worker.is_cancelled
                )
            except Stopped:
                return None
            return seat, result

        self.run_worker(work, thread=True, group="review", exclusive=True)

    def on_worker_state_changed(self, event) -> None:
        from textual.worker import WorkerState

        if event.worker.group != "review" or not event.worker.is_finished:
            return
        self.app.clear_notifications()  # "the expert reviews…" ends with the work
        if event.state != WorkerState.SUCCESS or event.worker.result is None:
            return
        seat, result = event.worker.result
        self.reviews[seat] = result
        if seat == self.session.seat:
            self._show_review(seat)

    def _show_review(self, seat: int) -> None:
        from ...words.review import review_item
        from .choice import ChoiceModal

        result = self.reviews[seat]
        items = result.seats.get(seat, ())
        options = [(review_item(self.tr, c, short=True), c.index) for c in items]
        said = {index: words for words, index in options}
        name = self.session.timeline.final.players[seat].name
        body = self.tr("replay.review.body", n=result.reviewed.get(seat, 0))
        if not options:
            body = self.tr("replay.review.clean", n=result.reviewed.get(seat, 0))
        self.app.push_screen(
            ChoiceModal(
                self.tr("replay.review.title", name=name),
                options,
                body=body,
                keys=self.tr("replay.review.keys" if options else "back"),
                can_back=True,
            ),
            lambda index: index is not None and self._go_review(index, said[index]),
        )

    def _go_review(self, at: int, words: str) -> None:
        """To a reviewed decision, saying what it was about there (the review's line):
        a play-test landed on "Relecture 36/114" with nothing to tell which move."""
        self._go(at)
        self.notify(words, timeout=12, markup=False)

    def on_key(self, event) -> None:
        digit = event.character and event.character.isdigit()
        if not digit:
            return
        seat = int(event.character) - 1
        if self.session.choose_seat(seat):
            self.show()
            event.stop()
        elif 0 <= seat < len(self.session.timeline.setup.seats):
            # Said, not ignored: another seat's hand stays hidden until the game is over.
            said = "replay.seat_hidden" if self.session.shown else "replay.none_shown"
            self.notify(self.tr(said), markup=False)
            event.stop()

    def action_help(self) -> None:
        """The help, its keys the replay's (the game's keys are not this screen's)."""
        from ...words import REPLAY_KEYS
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self.tr, keys=REPLAY_KEYS[self.tr.lang]))

    def action_back(self) -> None:
        self.workers.cancel_group(self, "review")  # a review under way stops working
        if self.standalone:
            self.app.exit()
        else:
            close(self)
