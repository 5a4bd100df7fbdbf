"""Hints on the game screen (`h`): the expert's best moves for this seat, computed off the
event loop from the seat's view alone, in a process of its own at the lowest share of
the processor (bots/hint_child.py); choosing one plays it. A part the screen holds
(`screen.hinter`).

**Thought ahead.** A hint takes 1.5–3 s of CPU (bots/hints.py: its accuracy is bought
with rollouts). Once a player has asked for one in a game, each later decision of theirs
starts its hint at once, in the background, while they read the position: `h` then shows
it as soon as it is asked, or sooner than a hint started then. Asked again on the same
moment (after Escape on its dialog), it is shown again without being thought again.
Only at this terminal's own games: at a table, the `join` may run on the server (the SSH
door), whose processor is every player's, so there a hint is thought only when asked.

A hint is never left thinking for nothing: the moment gone (a move, an undo, another
seat's decision), its process is killed; Escape while it thinks stops it, and it is not
thought again for that moment. One hint thinks at a time."""

from __future__ import annotations

from textual.worker import Worker, WorkerState

from ...engine import View
from ...words.describe import decision_title, hint_notes, move_label, move_with_cost
from .choice import ChoiceModal
from .part import ScreenPart

# Hints kept with their moment: an undo back two or three decisions (a discard, then the
# turn) shows theirs again at once (a play-test's undo to the discard thought again).
KEPT = 8


class Hinter(ScreenPart):
    """The hint asked, being thought (asked or ahead), or thought already."""

    def __init__(self, screen) -> None:
        super().__init__(screen)
        self.asked: set[int] = set()  # seats that asked for a hint in this game
        self.worker: Worker | None = None  # the hint thinking now
        self.thinking: View | None = None  # the view it thinks of
        self.thought: list[tuple[View, object]] = []  # the last hints thought, with their views
        self.declined: View | None = None  # Escape on this view's hint: not thought again
        self.share: float | None = None  # of the hint thinking now, done (its thread writes)

    # ------------------------------------------------------------ asked

    def ask(self) -> None:
        """`h`: the hint of this moment, at once if it is thought already, else as soon
        as it is (the footer says it thinks, and how to stop it)."""
        screen = self.screen
        if not screen.may_hint():
            if screen.lessons.todo():  # a lesson leads: `h` says why it gives nothing
                screen.notify(self.tr("hint.in_lesson"), markup=False)
            return
        view = self.session.hint_view()
        self.asked.add(view.seat)
        self.declined = None
        screen.hinting = True
        self.flow.hold()
        found = self.ready(view)
        if found is not None:
            self.show(view, found)
            return
        if not self._thinking_of(view):
            self._think(view)
        screen.refresh_view()

    def cancel(self) -> None:
        """Escape while the expert thinks: no dialog after all, and no more thinking."""
        screen = self.screen
        if not screen.hinting:
            return
        self.declined = self.thinking
        self._stop()
        screen.hinting = False
        self.flow.closed()
        screen.refresh_view()  # the turn's keys again
        self.back_to_decision()

    def ready(self, view: View):
        """The hint thought already for this very view, if it is one of the last kept."""
        return next((found for seen, found in reversed(self.thought) if seen == view), None)

    # ------------------------------------------------------------ ahead

    def keep_up(self) -> None:
        """The screen shows a moment (a move, an undo, a seat taken…): a hint thinking of
        another one stops; a player who asked before gets this one's thought ahead."""
        if self.screen.hinting:
            return  # asked: shown when thought (`show` says if the game moved on meanwhile)
        view = self.view()
        moment = (view.seat, view.version)
        if self.thinking is not None and (self.thinking.seat, self.thinking.version) != moment:
            self._stop()
        if not self._ahead_wanted(view):
            return
        hint_view = self.session.hint_view()
        if hint_view == self.declined or self._thinking_of(hint_view):
            return
        if self.ready(hint_view) is not None:
            return
        self._think(hint_view)

    def _ahead_wanted(self, view: View) -> bool:
        return not self.session.can.table and view.seat in self.asked and self.screen.may_hint()

    # ------------------------------------------------------------ the thinking

    def _thinking_of(self, view: View) -> bool:
        worker = self.worker
        return (
            worker is not None
            and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
            and self.thinking == view
        )

    def _think(self, view: View) -> None:
        from textual.worker import get_current_worker

        from ...bots.hint_child import hints_apart
        from ...bots.hints import HintSlot, Stopped, background_priority

        def progress(share: float) -> None:  # (in the worker's thread: one attribute)
            if self.thinking is view:
                self.share = share

        def think():
            worker = get_current_worker()
            stop = lambda: worker.is_cancelled  # noqa: E731
            background_priority()  # nice 10: the table server and screens go first
            try:
                with HintSlot(stop):  # a bound on hints at once, machine-wide
                    return view, hints_apart(view, should_stop=stop, progress=progress)
            except Stopped:
                return None  # stopped: nobody waits for it

        self.thinking, self.share = view, None
        self.worker = self.screen.run_worker(
            think, thread=True, name="hint", group="hint", exclusive=True
        )

    def _stop(self) -> None:
        """The hint thinking now stops (its process is killed: bots/hint_child.py)."""
        self.screen.workers.cancel_group(self.screen, "hint")
        self.worker = None
        self.thinking = None

    def finished(self, worker: Worker, state: WorkerState) -> None:
        """A hint's worker ended: kept for its moment, and shown if the player waits."""
        if worker is not self.worker:
            return  # stopped before it ended: its moment is gone
        view, self.worker, self.thinking = self.thinking, None, None
        if state == WorkerState.SUCCESS and worker.result is not None:
            self.thought = [*self.thought, worker.result][-KEPT:]
            if self.screen.hinting:
                self.show(*worker.result)
            return
        self.declined = view  # (an error is not thought again and again for this moment)
        if self.screen.hinting:
            self.screen.hinting = False
            self.flow.closed()
            self.screen.refresh_view()

    # ------------------------------------------------------------ shown

    def thinking_words(self) -> str:
        """The footer while a hint asked thinks: how far it is, once the child says."""
        share = self.share
        if share is None:
            return self.tr("hint.thinking_keys")
        return self.tr("hint.thinking_share", share=min(99, round(100 * share)))

    def show(self, view: View, found) -> None:
        screen = self.screen
        wanted, screen.hinting = screen.hinting, False
        screen.refresh_view()
        if not wanted:
            return  # the player went back (Escape) meanwhile
        if view.version != self.view().version or not screen.may_hint():
            self.flow.closed()  # the game moved on while the expert thought
            self.back_to_decision()
            return
        options = []
        most = max((h.rollouts for h in found), default=0)
        turn = view.pending is not None and view.pending.kind == "turn"
        for h in found:
            label = (move_with_cost if turn else move_label)(self.tr, view, h.action)
            if h.win is not None and h.rollouts * 2 < most:
                # Dropped by the search after a few deals: its share is noise, not shown.
                key = "hint.option_dropped_one" if h.rollouts == 1 else "hint.option_dropped"
                label = self.tr(key, action=label, n=h.rollouts)
            elif h.win is not None:
                label = self.tr(
                    "hint.option",
                    action=label,
                    win=round(100 * h.win),
                    low=round(100 * h.low),
                    high=round(100 * h.high),
                )
            options.append((label, h.action))
        body = self.tr("hint.body")
        if not turn:  # a card named alone could read as "play it": say what is asked
            body = f"{decision_title(self.tr, view)}\n{body}"
        body = " ".join([body, *hint_notes(self.tr, view, found)])
        self.app.push_screen(
            ChoiceModal(
                self.tr("hint.title"),
                options,
                body=body,
                keys=self.tr("back"),
                can_back=True,
            ),
            self.chosen,
        )

    def chosen(self, action) -> None:
        """A hint's dialog closed: its move played, or (Escape) the decision again."""
        pending = self.view().pending
        if action is None and pending is not None and pending.kind != "turn":
            self.flow.closed()
            self.back_to_decision()
        else:
            self.screen.shows.decided(action)

    def back_to_decision(self) -> None:
        """After a hint asked from a decision's dialog (a cancel or not, a discard…),
        that very dialog again — not the way to it (at one terminal, a reaction's way
        is the shared prompt, whose time runs out: the reaction was lost); on the
        player's turn the screen itself is the prompt."""
        view = self.view()
        pending = view.pending
        if pending is None or pending.kind == "turn":
            return
        if pending.seat == view.seat and view.legal:
            self.screen.shows.ask_decision(can_back=self.screen.shows.asked_can_back)
        else:
            self.screen.advance()
