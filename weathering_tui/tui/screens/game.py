"""The game screen: panes over one seat's view, keys driven by the engine's legal actions."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Horizontal
from textual.notifications import SeverityLevel
from textual.screen import Screen

from ...engine import SPECTATOR, IllegalAction
from ...play import flow as fl
from ...play.flow import Flow
from ...play.session import bot_plays_for_me, may_hint, may_undo, table_notices
from ...words import render_refusal
from ...words.log_lines import log_line
from .. import keymap
from ..messages import TableEvent
from ..widgets import (
    DeckPane,
    EventsPane,
    Gauge,
    HandPane,
    HeaderLine,
    KeyBar,
    LogPane,
    PlayersPane,
)
from .game_flow import Shows
from .game_hints import Hinter
from .game_keys import GameKeys
from .game_learn import Lessons

if TYPE_CHECKING:
    from ...play.session import BotsHere, GameSession, Session

__all__ = ["GameScreen"]


class GameScreen(GameKeys, Screen[None]):
    """One seat's view in panes, the keys of its turn, and the session's next step."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    GameScreen HeaderLine { height: 1; }
    GameScreen Gauge { height: 1; }
    GameScreen #top { height: auto; max-height: 9; }
    GameScreen PlayersPane { width: 44; height: auto; }
    GameScreen EventsPane { width: 1fr; height: 100%; }
    GameScreen #middle { height: 2fr; min-height: 6; }
    GameScreen HandPane { width: 1fr; height: 100%; }
    GameScreen DeckPane { width: 26; height: 100%; }
    GameScreen LogPane { height: 1fr; min-height: 3; }
    GameScreen KeyBar { height: 1; }
    """

    def __init__(self, session: Session, tr, pace: float = 0.6):
        super().__init__()
        # The screen reaches for a part of the session only once `session.can` names it
        # (tests/test_session_contract.py holds every session to its `can`).
        self.session = cast("GameSession", session)
        self.tr = tr
        self.pace = pace
        self.selected = 0
        # What comes next, and whether something is up that waits for an answer.
        self.flow = Flow(
            self.session, pace, tr.lang, tells=lambda view, e: log_line(tr, view, e) is not None
        )
        self.hinting = False  # the expert thinks of a hint (Escape: no dialog after all)
        self.shows = Shows(self)  # what the flow says to show, put up
        self.lessons = Lessons(self)  # a guided game's words
        self.hinter = Hinter(self)  # hints asked, thought ahead, shown
        self._log_seen: int | None = None  # log entries looked at for `_tell_cancelled`
        self._said_share: float | None = None  # the hint's share done the footer says
        self._timer = None
        # Footer words follow the game's language, so the bindings are built per screen.
        self._bindings = BindingsMap(
            Binding(key.keys, key.action, tr(key.label) if key.label else "", show=False)
            for key in keymap.KEYS
        )

    def compose(self) -> ComposeResult:
        yield HeaderLine()
        yield Gauge()
        with Horizontal(id="top"):
            yield PlayersPane()
            yield EventsPane()
        with Horizontal(id="middle"):
            yield HandPane()
            yield DeckPane()
        yield LogPane()
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(EventsPane).border_title = self.tr("events")
        self.query_one(PlayersPane).border_title = self.tr("players")
        self.query_one(LogPane).border_title = self.tr("log")
        self.refresh_view()
        self.call_after_refresh(self.advance)
        self._shown_seconds = 0
        self.set_interval(0.25, self._tick)

    @property
    def busy(self) -> bool:
        """A dialog or privacy screen is up, a bot is paced or thinks, or a hint: the
        flow waits, and the turn's keys too (the flow holds it: `hold`, `closed`)."""
        return self.flow.busy

    @busy.setter
    def busy(self, value: bool) -> None:  # (a test puts the screen in a moment)
        self.flow.busy = value

    # ------------------------------------------------------------ the flow

    def advance(self) -> None:
        """Show what the flow says comes next (play/flow.py): the end, a bot's move, a
        privacy screen, a lesson, a recap, a decision dialog, or wait for keys on this
        seat's turn."""
        if not self.is_current or self.app.too_small:
            return  # (a terminal too small: the game waits under the message)
        show = self.flow.next()
        if show is None:  # something is up already
            return
        if isinstance(show, fl.Transition):
            self.shows.transition()
        elif isinstance(show, fl.LessonShow):
            self.lessons.show_lesson(show.lesson)
        elif isinstance(show, fl.LearnDone):
            self.lessons.show_learn_done()
        elif isinstance(show, fl.Recap):
            self.shows.recap(show)
        elif isinstance(show, fl.Ending):
            self.lessons.show_ending(show.title, show.text)
        elif isinstance(show, fl.End):
            self.app.show_end(self.session)
        elif isinstance(show, fl.BotTurn):
            if show.delay:
                self._timer = self.set_timer(show.delay, self._bot_step)
            else:
                self.call_later(self._bot_step)
        elif isinstance(show, fl.Privacy):
            self.shows.privacy(show)
        elif isinstance(show, fl.Window):
            self.shows.window(show.seats)
        else:
            self.refresh_view()
            if isinstance(show, fl.Decide):
                self.shows.ask_decision()

    def _bot_step(self) -> None:
        """The bot's pace is over: it plays (the expert thinks off the event loop first,
        up to a second, so keys still work)."""
        self._timer = None
        step = self.flow.bot_step()
        if step.think is not None:
            session, seat = self.session, step.think
            self.run_worker(lambda: session.bot_choose(seat), thread=True, name="bot", group="bot")
            return
        if step.moved:
            self.refresh_view()
        self.advance()

    def on_worker_state_changed(self, event) -> None:
        from textual.worker import WorkerState

        if event.worker.group not in ("bot", "hint") or event.state not in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
        ):
            return
        if event.worker.group == "hint":
            self.hinter.finished(event.worker, event.state)
            return
        self.flow.bot_chose(event.worker.result if event.state == WorkerState.SUCCESS else None)
        self.refresh_view()
        self.advance()

    def play(self, action) -> None:
        try:
            self.session.play(action)
        except IllegalAction as exc:
            self.refuse(exc)
        else:
            if self.session.can.guide:  # "not yet" said before is answered: it goes, so
                self.app.clear_notifications()  # as not to sit over the next instruction
        self.refresh_view()
        self.advance()

    def refuse(self, exc: IllegalAction) -> None:
        if exc.code == "learn_move":  # a guided game: the lesson asks for another move
            self._say_once(self.tr("learn.refused", todo=self.lessons.todo()))
            return
        reason = render_refusal(self.tr, exc, self.view().players)
        self._say_once(self.tr("error", reason=reason), severity="warning")

    def _say_once(self, message: str, severity: SeverityLevel = "information") -> None:
        """A notice not already on screen: Enter pressed again and again on a card the
        player cannot pay stacked the same refusal five times over the board."""
        if any(shown.message == message for shown in self.app._notifications):
            return
        self.notify(message, severity=severity, markup=False)

    # ------------------------------------------------------------ rendering

    def view(self):
        """The viewing seat's view (the session builds it once per change)."""
        return self.session.view()

    def _fit_middle(self, view) -> None:
        """The hand and deck panes as tall as what they hold (at most their 2fr share):
        the log takes the rest of a tall terminal, where it had 9 lines under a
        hand pane half empty."""
        own = view.me if 0 <= view.seat < len(view.players) else None
        deck = len(own.deck or ()) if own is not None else 0
        # cards, the selected card's text (two lines), the deck's two lines, borders
        needed = max(len(view.hand) + 2, deck + 2, 4) + 2
        self.query_one("#middle").styles.max_height = needed

    def refresh_view(self) -> None:
        if self not in self.app.screen_stack:  # a refresh queued before the end screen came
            return
        self.hinter.keep_up()  # a hint thought ahead for this moment, or stopped
        view = self.view()
        self._tell_cancelled(view)
        if view.pending is not None and view.pending.kind == "reactions" and self.session.can.bots:
            # A bot may cancel: the outcome follows at once. Showing the moment between
            # would tell this seat that somebody could cancel (network.md).
            return
        tr = self.tr
        saving = self.session.can.save
        problem = self.session.save_problem if saving else None
        if problem is not None and problem != getattr(self, "_reported", None):
            self._reported = problem
            self.notify(
                tr("save.failed", problem=problem), severity="error", timeout=10, markup=False
            )
        self.selected = max(0, min(self.selected, len(view.hand) - 1))
        status = ""
        if saving and self.session.last_saved:
            status = tr("saved", time=self.session.last_saved[11:16])
        if self.window_seconds():
            status = tr("window.left", s=self.window_seconds())
        self.query_one(HeaderLine).show(view, tr, status)
        self.query_one(Gauge).show(view, tr)
        self.query_one(PlayersPane).show(view, tr)
        self.query_one(EventsPane).show(view, tr)
        self.query_one(HandPane).show(view, tr, selected=self.selected)
        self.query_one(DeckPane).show(view, tr)
        self._fit_middle(view)
        self.query_one(LogPane).show(view, tr, extra=table_notices(self.session))
        if self.hinting:
            self._said_share = self.hinter.share
            self.query_one(KeyBar).show_text(Text(" " + self.hinter.thinking_words(), style="bold"))
            return
        todo = self.lessons.todo()
        if todo:  # a guided game: what the lesson expects, instead of every key
            self.query_one(KeyBar).show_text(Text(" " + todo, style="bold"))
            return
        if bot_plays_for_me(self.session) is not None:
            self.query_one(KeyBar).show_text(Text(" 🤖 " + tr("footer.bot_plays"), style="bold"))
            return
        keys = keymap.footer(self.keys_now(), tr)
        waiting = self._waiting_on(view)
        if waiting is not None:  # keys for one's own turn wait: say so, and for whom
            # (bots on every seat: nobody's turn comes, "wait for your turn" was wrong)
            watching = view.seat == SPECTATOR or (
                self.session.can.bots and not cast("BotsHere", self.session).humans
            )
            said = "footer.watch" if watching else "footer.wait"
            keys.insert(0, ("⏳", self.tr(said, name=view.players[waiting].name)))
        self.query_one(KeyBar).show_keys(keys)

    def _tell_cancelled(self, view) -> None:
        """A move of this seat's cancelled by another player is said at once: it was
        only in the log, whose few rows at 80×24 a play-test never saw it in."""
        log = view.log
        seen, self._log_seen = self._log_seen, len(log)
        if seen is None or len(log) <= seen:
            return  # (the screen's first look, or an undo: nothing new)
        for i in range(seen, len(log)):
            entry = log[i]
            if entry.kind != "cancelled" or entry.data.get("seat") != view.seat:
                continue
            said = next((e for e in reversed(log[:i]) if e.kind == "cancel"), None)
            if said is None or said.data.get("seat") == view.seat:
                continue
            line = log_line(self.tr, view, said)
            if line is not None:
                self.notify(
                    self.tr("cancelled.yours", line=line),
                    severity="warning",
                    timeout=8,
                    markup=False,
                )

    def _waiting_on(self, view) -> int | None:
        """The seat whose decision this terminal waits for, if it is said: a bot's here
        (a bot's reaction is never paced nor shown), anyone's but this seat's at a table
        (whose turn or choice it is is public; a reaction window names nobody)."""
        pending = view.pending
        if pending is None or pending.seat < 0 or view.outcome is not None:
            return None
        if self.session.can.bots:
            return pending.seat if self.bot_turn() else None
        if self.session.can.table:
            return pending.seat if pending.seat != view.seat else None
        return None

    def window_seconds(self) -> int:
        """Whole seconds left in the open reaction window (0: none), for everyone."""
        view = self.view()
        if not self.session.can.table or view.pending is None:
            return 0  # (a shared terminal's prompt shows its own time)
        if view.pending.kind not in ("react", "reactions"):
            return 0
        return math.ceil(self.session.window_left())

    def bot_turn(self) -> bool:
        """A bot of this terminal decides now (the screen paces it)."""
        return self.flow.bot_turn()

    def may_undo(self) -> bool:
        return may_undo(self.session)

    def may_hint(self) -> bool:
        return may_hint(self.session)

    def window_clock(self) -> str:
        return self.tr("window.clock", s=self.window_seconds())

    def _tick(self) -> None:
        """The reaction window's time, kept fresh in the header."""
        if self.is_current and self.window_seconds() != self._shown_seconds:
            self._shown_seconds = self.window_seconds()
            self.refresh_view()
        elif self.hinting and self.hinter.share != self._said_share:
            self.refresh_view()  # how far the hint asked is

    def on_resize(self) -> None:
        # The panes fit their text to their size (log lines, card names, footer words).
        self.call_after_refresh(self.refresh_view)

    def on_screen_resume(self) -> None:
        # Back from help, the log or a dialog: whatever happened meanwhile (a bot that
        # finished thinking) must carry on.
        if self.is_mounted:
            self.refresh_view()
            self.advance()

    # ------------------------------------------------------------ at a table server

    def on_table_event(self, event: TableEvent) -> None:
        """The table sent something: a new view, a notice, the link going or coming."""
        is_view = event.kind == "view"
        if event.kind in ("view", "notice", "link") and self.is_mounted:
            asking = self.shows.asking
            if is_view and asking is not None and self.view().legal != self.shows.asked_legal:
                # The table moved on (a reaction window's time is up, a bot took the
                # seat): the open question is gone, whatever it was.
                asking.answer(None)
                return
            self.refresh_view()
            if is_view:
                self.advance()
