"""One table's driver: it paces what nobody types — the bots, the players who pass by
themselves (`bots.pacing`), a reaction window's clock, a seat's grace once its player
is gone, a player's clock on their own decision (`decision_clock.py`) — and writes
the table's journal off the event loop, then sends the views that show it (durable
before visible). It acts only through the table's methods; the lobby (`lobby.py`)
holds it beside its table and tells it who is there.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

import attrs

from ..bots import pacing
from ..bots.pool import BotPool
from ..storage.writer import Writer
from . import protocol as pr
from . import server_messages as msg
from .broadcast import Frame, seat_view
from .cluster_base import refused
from .decision_clock import DECISION_TIME, DecisionClock
from .table import Table
from .table_summary import table_summary


class StoreCluster(Protocol):
    """What a table's driver asks of the cluster (`cluster.py`, above it): whether the
    store refuses writes, whether the server stops, and a refused write to note."""

    refuses: bool

    @property
    def closing(self) -> bool: ...

    def writes_refused(self) -> None: ...


@attrs.define
class Kit:
    """What every table's driver shares: the server's journal writer, its process for
    the bots that think, its pace and grace, and its cluster (None: files)."""

    writer: Writer
    pool: BotPool
    pace: float = 0.6  # the bots' pace (`bots.pacing`)
    grace: float = 60.0  # seconds a seat waits for its gone player before a bot plays it
    # seconds a player here may take over one decision of theirs (a reaction window has
    # its own clock) before a bot plays their seat until they act again; 0: no limit
    decision_time: float = DECISION_TIME
    cluster: StoreCluster | None = None


class TableDriver:
    def __init__(self, table: Table, lobby, kit: Kit):
        self.table = table
        self.lobby = lobby  # who is at the table: its views and notices go to them
        self.kit = kit
        self.bots: asyncio.Task | None = None  # bots and auto-passes, until the game ends
        self.woken = asyncio.Event()
        self.flushing: asyncio.Task | None = None  # the journal being written
        self.told_paused = False  # its players were told it is paused (not yet resumed)
        self.window: tuple | None = None  # (its frame, when its time is up, the timer)
        self.away_timers: dict[int, asyncio.TimerHandle] = {}  # seat -> a bot takes it
        # a player here deciding: a bot takes the seat if they take too long
        self.clock = DecisionClock(table, lobby, kit.decision_time, self._too_slow, self.paused)
        self.frame: Frame | None = None  # the public part of the views last sent
        self.stopped = False

    # ------------------------------------------------------------ a move, then its views

    def begin(self) -> None:
        table = self.table
        if table.started:
            return
        table.start()
        self.save()
        self.lobby.notice(table, "started", "")
        self.show()
        self.lobby.broadcast_lobby()
        self.drive()

    def paused(self) -> bool:
        """The table takes no move now: its journal, or the store, refuses writes."""
        cluster = self.kit.cluster
        return self.table.saves.paused or (cluster is not None and cluster.refuses)

    def refuse_if_paused(self) -> None:
        """What it took last is not written yet, or the store refuses writes: no move."""
        if self.paused():
            raise pr.ProtocolError("paused", "the server cannot save right now: nothing was played")

    def commit(self) -> None:
        """Show what the table did, once it is on disk: new actions go to the journal
        (fsync'd, off the event loop) and the views that show them are sent after."""
        if not self.table.saves.journal_due:
            self.show()
        elif self.flushing is None:
            self.flushing = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        """Append what is new, compact when due (off the event loop), then show it. While
        the disk or the store fails nothing is shown: the table is paused, its players
        are told, and it goes on by itself once the write succeeds."""
        table, cluster, failed = self.table, self.kit.cluster, False
        try:
            while table.saves.journal_due:
                try:
                    await table.saves.write_journal(self.kit.writer.run)
                except OSError as exc:
                    print(f"weathering serve: table {table.name}: journal: {exc}", flush=True)
                    if cluster is not None and cluster.closing:
                        return  # the stop: its leases go, another server takes the table
                    if cluster is not None and refused(exc):
                        cluster.writes_refused()  # (Redis is full: every table waits)
                    if not failed:
                        failed = True
                        table.saves.journal_failing(True)
                        self.tell_paused()
                    await asyncio.sleep(1.0)  # nothing is shown until it is written
        finally:
            self.flushing = None
            if failed:
                table.saves.journal_failing(False)
        if failed:
            self._tell_resumed()  # (once the store takes writes again, if it refused them)
        table.mark_finished(time.monotonic())
        self.show()
        if table.over or table.round_news():
            self.lobby.broadcast_lobby()  # the lobby lists each table's round (and its end)

    def written(self) -> bool:
        """Every action the table took is in its journal, and no write is under way."""
        return not self.table.saves.unjournaled and self.flushing is None

    def save(self, at_stop: bool = False) -> None:
        """Compact the table into its save, now or once its journal append is done (in
        a store: always by the journal's writer, off the event loop, but at the stop)."""
        table = self.table
        if table.saves.store is not None and not at_stop:
            table.saves.want_compact()
            self.commit()
        elif self.flushing is not None:
            table.saves.want_compact()
        else:
            try:  # (a store that refuses: what was never shown is not kept, said here)
                table.saves.save_now()
            except OSError as exc:
                print(f"weathering serve: table {table.name} not saved: {exc}", flush=True)

    def undo(self, identity: str, version: int) -> None:
        """A player takes their move back: the save is rewritten with what stands (the
        journal holds the moves taken back), and only then does anyone see it."""
        table = self.table
        if self.flushing is not None:  # an action is being written: its view is coming
            raise pr.ProtocolError("stale", "the table has moved on: act on the newest view")
        self.refuse_if_paused()
        table.undo(identity, version)
        self._close_window()
        if table.saves.store is not None:  # by the journal's writer, off the event loop
            self.save()
        else:
            try:
                table.saves.save()
            except OSError as exc:  # nothing was shown: the move stands, said plainly
                table.undo_unsaved()
                print(f"weathering serve: table {table.name}: undo not saved: {exc}", flush=True)
                detail = "the table could not be saved: try again"
                raise pr.ProtocolError("storage", detail) from None
        self.show()

    def show(self) -> None:
        """Each connection at the table gets its view if it changed — once every action
        it shows is on disk (`commit` shows again when the journal has them). A reaction
        that a bot (or a player's own auto-pass) answers at once is a passing moment
        shown to nobody: whether it happened depends on what that seat holds (fairness).
        Every human opponent is asked in every window, so waiting on one tells nothing."""
        table, lobby = self.table, self.lobby
        if table.game is None:
            line = msg.server_line("table", table=table.name, summary=table_summary(table))
            for conn in lobby.at(table.name):
                if lobby.seat_held(conn, table) is not None:
                    conn.send(line)
            return
        if not table.saves.visible:
            return  # durable before visible: the journal's writer shows it when done
        undone, undone_at = table.take_undone() if table.undone_by else ("", 0)
        if undone:  # a move taken back: the log is shorter, so every view goes again whole
            for conn in lobby.at(table.name):
                conn.sent_views.pop(table.name, None)
        state = table.game.state
        bot = table.bot_to_play()
        hide = bot is not None or table.auto_pass(self.passes_by_itself) is not None
        clock = self.window[1] if self.window is not None else None  # a new clock is news
        frame = self.frame = Frame(state, self.frame)
        answered = table.answers.answered(state)
        head = None
        for conn in lobby.at(table.name):
            seat = lobby.seat_held(conn, table)
            if seat is None:
                continue
            last = conn.sent_views.get(table.name)
            view, sent = seat_view(
                state, seat, answered, frame, last, table.log_json, clock, hide_reactions=hide
            )
            if view is None:
                continue
            conn.sent_views[table.name] = sent
            if head is None:  # what every seat's message says alike, checked once
                head = msg.ViewHead(table.name, state.version, self.window_left(), table.hints)
            conn.send(head.line(view, last.log if last is not None else 0, last is None))
        if undone:  # said after the shorter log: the client puts it in its place
            self.lobby.notice(table, "undo", undone, at=undone_at)
        self.clock.watch()

    # ------------------------------------------------------------ a paused table

    def tell_paused(self) -> None:
        """The table's players hear once that it is paused (whoever finds it first:
        a journal append that failed, or the store refusing the tick's write)."""
        if not self.told_paused:
            self.told_paused = True
            self.lobby.notice(self.table, "paused", "")

    def resume(self) -> None:
        """The store takes writes again: its players are told, what waits is written."""
        self._tell_resumed()
        self.commit()

    def _tell_resumed(self) -> None:
        cluster = self.kit.cluster
        paused = self.table.saves.paused or (cluster is not None and cluster.refuses)
        if self.told_paused and not paused:
            self.told_paused = False
            self.lobby.notice(self.table, "resumed", "")

    # ------------------------------------------------------------ a reaction window

    def settle(self, expired: bool = False) -> None:
        """What can be settled of a reaction window is, before anything else is read or
        sent (`Table.settle`); a window left waiting for a player gets its clock
        (`pacing.REACTION_SECONDS`, the same for every window)."""
        if self.window is None and not self.table.in_window():
            return  # no window: nothing to settle (most moves)
        frame = self.table.settle(self.passes_by_itself, expired)
        if frame is None:
            self._close_window()
            return
        if self.window is not None and self.window[0] is frame:
            return  # its clock runs
        self._close_window()
        if self.table.someone_away():
            return  # (reopened after a restart, say): the clock starts once they are back
        loop = asyncio.get_running_loop()
        handle = loop.call_later(pacing.REACTION_SECONDS, self._window_over, frame)
        self.window = (frame, loop.time() + pacing.REACTION_SECONDS, handle)

    def _close_window(self) -> None:
        if self.window is not None:
            self.window[2].cancel()
            self.window = None

    def _window_over(self, frame) -> None:
        """The window's time is up: those who have not answered let the action happen."""
        if self.stopped or self.window is None or self.window[0] is not frame:
            return
        self.window = None
        self.settle(expired=True)
        self.commit()
        self.wake()

    def window_left(self) -> float:
        """Seconds left in the table's open reaction window (0: none open)."""
        if self.window is None:
            return 0.0
        return max(0.0, round(self.window[1] - asyncio.get_running_loop().time(), 1))

    def passes_by_itself(self, seat: int) -> bool:
        """The seat's player is here and chose to pass by themselves where they cannot
        cancel."""
        table = self.table
        holder = table.seats[seat].owner
        return any(
            conn.identity == holder and conn.auto_pass and conn.tables.get(table.name) == seat
            for conn in self.lobby.at(table.name)
        )

    def _too_slow(self, seat: int) -> None:
        """The decision's time is up: a bot plays the seat until its player acts."""
        self.table.hand_to_bot(seat, slow=True)
        self._handed_over(seat, "slow")

    def acting_again(self, seat: int | None) -> None:
        """The player whose seat a bot took when their time was up acts: it is theirs
        again (the bot thinking for it, if any, finds the table moved on)."""
        table = self.table
        if seat is not None and table.take_back(seat):
            self.lobby.notice(table, "back", table.seats[seat].name)
            self.lobby.broadcast_lobby()
            self.clock.watch()  # (its clock, even if the move it came with is refused)

    # ------------------------------------------------------------ players gone and back

    def away(self, seat: int, left: bool = False) -> None:
        """The player's connection is gone: the seat waits `grace` seconds, then a bot
        plays it until they return. A player who `left` chose to go: a bot plays at once
        (nobody waits a minute on them), and their seat is still theirs to take back."""
        table = self.table
        table.player_away(seat)
        self.clock.watch()  # the grace below, not the decision's clock, runs for them
        if table.seats[seat].botted:
            return
        if left:
            timer = self.away_timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
            self._replace(seat, "left")
            return
        if seat in self.away_timers:
            return
        self.lobby.notice(table, "away", table.seats[seat].name)
        loop = asyncio.get_running_loop()
        self.away_timers[seat] = loop.call_later(self.kit.grace, self._replace, seat)

    def _replace(self, seat: int, notice: str = "bot") -> None:
        table = self.table
        self.away_timers.pop(seat, None)
        if not table.seats[seat].away or table.over:
            return
        table.hand_to_bot(seat)
        self._handed_over(seat, notice)

    def _handed_over(self, seat: int, notice: str) -> None:
        """A bot now plays `seat`: the table hears it, and the bots go on."""
        table = self.table
        self.settle()  # an open window no longer waits for them
        self.save()
        self.lobby.notice(table, notice, table.seats[seat].name)
        self.show()
        self.lobby.broadcast_lobby()
        self.wake()

    def back(self, seat: int) -> None:
        """The seat's player took it again: no bot takes it after all."""
        timer = self.away_timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    # ------------------------------------------------------------ the bots

    def wake(self) -> None:
        self.woken.set()

    def drive(self) -> None:
        """The bots' task, until the game ends (a table started, or back started)."""
        if self.bots is None and not self.stopped:
            self.bots = asyncio.get_running_loop().create_task(self._bots())

    async def _bots(self) -> None:
        """Bots (and players who pass by themselves) answer, each at the table's pace; a
        reaction is answered at once, so its timing tells nothing."""
        table = self.table
        self.settle()  # a table reopened in a window: its time starts again
        self.commit()
        while table.game is not None and not table.over:
            seat = table.bot_to_play()
            auto = table.auto_pass(self.passes_by_itself)
            if seat is None and auto is None:
                self.woken.clear()
                await self.woken.wait()
                continue
            pending = table.playing.state.pending
            if auto is not None:
                table.play_auto(auto)
            else:
                assert seat is not None and pending is not None, "a bot's turn, to play"
                wait = pacing.wait_before(pending.kind, self.kit.pace)
                if wait > 0:
                    await asyncio.sleep(wait)
                    if table.bot_to_play() != seat:
                        continue
                action = await self._think(seat, pending.kind)
                if action is None:
                    continue  # the table moved on meanwhile (a player came back)
                table.play_bot(seat, action)
            self.settle()
            self.commit()
            await asyncio.sleep(0)  # let the other tables play
        self.lobby.broadcast_lobby()
        self.bots = None

    async def _think(self, seat: int, kind: str):
        """A bot's decision off the event loop (the expert in a process of its own),
        taking the time the pacing rule gives it; None if the table moved on."""
        table = self.table
        loop = asyncio.get_running_loop()
        start = loop.time()
        version = table.playing.state.version
        pending = table.playing.state.pending  # (a window's answers leave the version alone)
        bot = table.bots[seat]
        view = table.view(seat, with_log=False)
        if bot.name == "expert":
            action = await self.kit.pool.choose("expert", table.bot_seed(seat), view)
        else:
            action = await asyncio.to_thread(bot.choose, view)
        rest = start + pacing.thinking_time(bot, kind) - loop.time()
        if rest > 0:
            await asyncio.sleep(rest)
        state = table.playing.state
        if state.version != version or state.pending is not pending or table.bot_to_play() != seat:
            return None
        return action

    def stop(self, writes: bool = True) -> None:
        """Nothing of this table acts again here: its bots, its window's clock and its
        seats' grace timers stop, and its journal's writes unless `writes` is False (the
        server stops: what is under way ends first). The table is gone from the lobby,
        or another server took it, or the server stops."""
        self.stopped = True
        for task in (self.bots, self.flushing if writes else None):
            if task is not None:
                task.cancel()
        self.bots = None
        if writes:
            self.flushing = None
        self._close_window()
        self.clock.stop()
        for timer in self.away_timers.values():
            timer.cancel()
        self.away_timers.clear()
