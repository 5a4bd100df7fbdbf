"""Each table's driver: an action applied, the bots and automatic answers at their
pace (`bots.pacing`), the journal written, and only then the views sent (durable
before visible). A part of the server (`Server` is a `Driver`).
"""

from __future__ import annotations

import asyncio
import time

from ..bots import pacing
from ..engine import SPECTATOR, unable_seats, window_choices, window_seats
from ..storage.journal import COMPACT_EVERY
from . import protocol as pr
from .broadcast import Frame, seat_view
from .cluster_base import refused
from .connection import Connection
from .table import Table


class Driver:
    """The tables half of the server (its state lives in `Server.__init__`)."""

    def begin(self, table: Table) -> None:
        if table.started:
            return
        table.start()
        self._save(table)
        self.notice(table, "started", "")
        self.push(table)
        self.broadcast_lobby()
        self._drive(table.name.casefold())

    def act(self, conn: Connection, message: pr.Act) -> None:
        table = self.table(message.table)
        seat = self.seat_held(conn, table)
        if seat is None or seat == SPECTATOR:
            raise pr.ProtocolError("not_seated", "you hold no seat at this table")
        self._refuse_if_paused(table)
        table.act(conn.identity, message.version, message.action)
        self.answer_at_once(table)
        self.commit(table)
        self._wake(table.name)

    def undo(self, conn: Connection, message: pr.Undo) -> None:
        """A player takes their move back: the save is rewritten with what stands (the
        journal holds the moves taken back), and only then does anyone see it."""
        table = self.table(message.table)
        seat = self.seat_held(conn, table)
        if seat is None or seat == SPECTATOR:
            raise pr.ProtocolError("not_seated", "you hold no seat at this table")
        if table.name in self.flushing:  # an action is being written: its view is coming
            raise pr.ProtocolError("stale", "the table has moved on: act on the newest view")
        self._refuse_if_paused(table)
        before = (table.game.state, list(table.game.actions), table.durable, table.answers)
        table.undo(conn.identity, message.version)
        self._close_window(table)
        if table.store is not None:  # by the journal's writer, off the event loop
            self._save(table)
        else:
            try:
                table.save()
            except OSError as exc:  # nothing was shown: the move stands, said plainly
                game = table.game
                game.state, game.actions[:], table.durable, table.answers = before
                table.rewound, table.undone_by = False, ""
                print(f"weathering serve: table {table.name}: undo not saved: {exc}", flush=True)
                detail = "the table could not be saved: try again"
                raise pr.ProtocolError("storage", detail) from None
        self.push(table)

    def _refuse_if_paused(self, table: Table) -> None:
        """What it took last is not written yet, or the store refuses writes: no move."""
        refuses = self.cluster is not None and self.cluster.refuses
        if table.paused or (refuses and table.store is not None):
            raise pr.ProtocolError("paused", "the server cannot save right now: nothing was played")

    def commit(self, table: Table) -> None:
        """Show what the table did, once it is on disk: new actions go to the journal
        (fsync'd, off the event loop) and the views that show them are sent after."""
        if not table.unjournaled and not table.compact_wanted:
            self.push(table)
        elif table.name not in self.flushing:
            loop = asyncio.get_running_loop()
            self.flushing[table.name] = loop.create_task(self._flush(table))

    async def _flush(self, table: Table) -> None:
        """Append what is new, compact when due (in a store: off the event loop), then
        show it. While the disk or the store fails nothing is shown: the table is paused,
        its players are told, and it goes on by itself once the write succeeds."""
        failed = False
        try:
            while table.unjournaled or (table.compact_wanted and table.path is not None):
                try:
                    if table.unjournaled:
                        start, batch = table.durable, list(table.unjournaled)
                        await self.writer.run(table.journal.append, start, batch)
                        table.durable = start + len(batch)
                    if self._compact_due(table) and not table.unjournaled and table.path:
                        await self._compact(table)
                except OSError as exc:
                    print(f"weathering serve: table {table.name}: journal: {exc}", flush=True)
                    if self.cluster is not None and self.cluster.closing:
                        return  # the stop: its leases go, another server takes the table
                    if self.cluster is not None and refused(exc):
                        self.cluster.writes_refused()  # (Redis is full: every table waits)
                    if not failed:
                        failed = True
                        table.paused = True
                        self.paused(table)
                    await asyncio.sleep(1.0)  # nothing is shown until it is written
                    continue
        finally:
            self.flushing.pop(table.name, None)
            table.paused = False
        if failed:
            self._resume(table)  # (once the store takes writes again, if it refused them)
        if table.over and table.finished_at == float("inf"):
            table.finished_at = time.monotonic()
        self.push(table)
        if table.over or self._new_round(table):
            self.broadcast_lobby()  # the lobby lists each table's round (and its end)

    def paused(self, table: Table) -> None:
        """The table's players hear once that it is paused (whoever finds it first:
        a journal append that failed, or the store refusing the tick's write)."""
        if not table.pause_told:
            table.pause_told = True
            self.notice(table, "paused", "")

    def resumed(self, table: Table) -> None:
        """The store takes writes again: its players are told, what waits is written."""
        self._resume(table)
        self.commit(table)

    def _resume(self, table: Table) -> None:
        """Once the store takes writes again and the table's journal is written."""
        refuses = self.cluster is not None and self.cluster.refuses
        if table.pause_told and not table.paused and not refuses:
            table.pause_told = False
            self.notice(table, "resumed", "")

    def written(self, table: Table) -> bool:
        """Every action the table took is in its journal, and no write is under way."""
        return not table.unjournaled and table.name not in self.flushing

    def halt(self, table: Table) -> None:
        """Nothing of this table acts again here: its bots, its journal's writes, its
        window's clock and its seats' grace timers stop (a table another server took)."""
        for tasks, name in ((self.drivers, table.name.casefold()), (self.flushing, table.name)):
            task = tasks.pop(name, None)
            if task is not None:
                task.cancel()
        self._close_window(table)
        for seat in range(len(table.seats)):
            timer = self.away_timers.pop((table.name, seat), None)
            if timer is not None:
                timer.cancel()

    @staticmethod
    def _new_round(table: Table) -> bool:
        """The table reached a round the lobby has not listed yet."""
        state = table.game.state if table.game is not None else None
        where = (state.phase, state.round) if state is not None else None
        if where == table.listed_round:
            return False
        table.listed_round = where
        return True

    def _compact_due(self, table: Table) -> bool:
        return table.over or table.journal.length >= COMPACT_EVERY or table.compact_wanted

    async def _compact(self, table: Table) -> None:
        """The save made from the game as it is now (serialized here, on the loop, so
        that no action lands half-way), then written by the journal's writer: off the
        loop, after the appends before it and before those after it."""
        table.compact_wanted = False
        count, text = table.snapshot()
        try:
            await self.writer.run(table.write_compacted, text, count)
        except OSError:
            table.compact_wanted = True  # (a failed compaction is tried again)
            raise
        table.compacted(count)

    def _save(self, table: Table, at_stop: bool = False) -> None:
        """Compact the table into its save, now or once its journal append is done (in
        a store: always by the journal's writer, off the event loop, but at the stop)."""
        if table.store is not None and not at_stop:
            table.compact_wanted = True
            self.commit(table)
            return
        if table.name in self.flushing:
            table.compact_wanted = True
            return
        table.compact_wanted = False
        try:  # (a store that refuses: what was never shown is not kept, said here)
            if table.unjournaled and table.journal is not None:
                table.journal.append(table.durable, list(table.unjournaled))  # at stop only
                table.durable = len(table.game.actions)
            table.save()
        except OSError as exc:
            print(f"weathering serve: table {table.name} not saved: {exc}", flush=True)

    def answer_at_once(self, table: Table, expired: bool = False) -> None:
        """Settle what can be settled of a reaction window before anything else is read
        or sent. Its seats' answers apply in seat order: a bot's (or a player's own
        pass-by-myself) at once when its turn in that order comes — whether it is asked
        depends on what it holds, so nobody may catch the moment — and a player's once
        given. The window waits for the first player in that order who has not answered,
        until its time is up (`pacing.REACTION_SECONDS`, the same for every window):
        then whoever has not answered lets it happen."""
        while table.game is not None and not table.over:
            state = table.game.state
            pending = state.pending
            if pending is None or pending.kind != "react":
                self._close_window(table)
                return
            self._auto_passes(table)
            seat = table.bot_to_play()  # a bot decides, even once the time is up
            answer = table.answers.next(state, expired and seat is None)
            if answer is not None:
                table.game.play(answer)
                continue
            if seat is None:
                break
            table.play_bot(seat, table.bot_choice(seat))
        else:
            self._close_window(table)
            return
        frame = table.answers.frame
        if table.window is not None and table.window[0] is frame:
            return  # its clock runs
        self._close_window(table)
        if self._someone_away(table):
            return  # (reopened after a restart, say): the clock starts once they are back
        loop = asyncio.get_running_loop()
        handle = loop.call_later(pacing.REACTION_SECONDS, self._window_over, table, frame)
        table.window = (frame, loop.time() + pacing.REACTION_SECONDS, handle)

    def _someone_away(self, table: Table) -> bool:
        """Whether a player the open window waits for has lost their link (public)."""
        state = table.game.state
        answered = table.answers.answered(state)
        return any(
            table.seats[s].away and not table.seats[s].botted
            for s in window_seats(state)
            if s not in answered
        )

    def _close_window(self, table: Table) -> None:
        if table.window is not None:
            table.window[2].cancel()
            table.window = None

    def _window_over(self, table: Table, frame) -> None:
        """The window's time is up: those who have not answered let the action happen."""
        if self.stopping or table.window is None or table.window[0] is not frame:
            return
        table.window = None
        self.answer_at_once(table, expired=True)
        self.commit(table)
        self._wake(table.name)

    def window_left(self, table: Table) -> float:
        """Seconds left in the table's open reaction window (0: none open)."""
        if table.window is None:
            return 0.0
        return max(0.0, round(table.window[1] - asyncio.get_running_loop().time(), 1))

    def _away(self, table: Table, seat: int, left: bool = False) -> None:
        """The player's connection is gone: the seat waits `grace` seconds, then a bot
        plays it until they return. A player who `left` chose to go: a bot plays at once
        (nobody waits a minute on them), and their seat is still theirs to take back."""
        table.seats[seat].away = True
        key = (table.name, seat)
        if table.seats[seat].botted:
            return
        if left:
            timer = self.away_timers.pop(key, None)
            if timer is not None:
                timer.cancel()
            self._replace(table, seat, "left")
            return
        if key in self.away_timers:
            return
        self.notice(table, "away", table.seats[seat].name)
        loop = asyncio.get_running_loop()
        self.away_timers[key] = loop.call_later(self.grace, self._replace, table, seat)

    def _replace(self, table: Table, seat: int, notice: str = "bot") -> None:
        self.away_timers.pop((table.name, seat), None)
        if not table.seats[seat].away or table.over:
            return
        table.hand_to_bot(seat)
        self.answer_at_once(table)  # an open window no longer waits for them
        self._save(table)
        self.notice(table, notice, table.seats[seat].name)
        self.push(table)
        self.broadcast_lobby()
        self._wake(table.name)

    def push(self, table: Table) -> None:
        """Each connection at the table gets its view if it changed — once every action
        it shows is on disk (`commit` pushes again when the journal has them). A reaction that a
        bot (or a player's own auto-pass) answers at once is a passing moment shown to
        nobody: whether it happened depends on what that seat holds (fairness). Every
        human opponent is asked in every window, so waiting on one tells nothing."""
        if table.game is None:
            summary = table.summary()
            line = pr.server_line("table", table=table.name, summary=summary)
            for conn in self.at(table.name):
                if self.seat_held(conn, table) is not None:
                    conn.send(line)
            return
        if table.unjournaled or table.rewound or (table.store is not None and not table.stored):
            return  # durable before visible: the journal's writer pushes when it is done
        undone, table.undone_by = table.undone_by, ""
        if undone:  # a move taken back: the log is shorter, so every view goes again whole
            for conn in self.at(table.name):
                conn.sent_views.pop(table.name, None)
        state = table.game.state
        hide = table.bot_to_play() is not None or self._auto_pass(table) is not None
        clock = table.window[1] if table.window is not None else None  # a new clock is news
        frame = table.frame = Frame(state, table.frame)
        answered = table.answers.answered(state)
        head = None
        for conn in self.at(table.name):
            seat = self.seat_held(conn, table)
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
                head = pr.ViewHead(table.name, state.version, self.window_left(table), table.hints)
            conn.send(head.line(view, last.log if last is not None else 0, last is None))
        if undone:  # said after the shorter log: the client puts it in its place
            self.notice(table, "undo", undone, at=table.undone_at)

    def _wake(self, name: str) -> None:
        event = self.wake.get(name.casefold())
        if event is not None:
            event.set()

    def _drive(self, key: str) -> None:
        if key in self.drivers or key not in self.tables:
            return
        self.wake[key] = asyncio.Event()
        self.drivers[key] = asyncio.get_running_loop().create_task(self._bots(key))

    async def _bots(self, key: str) -> None:
        """Bots (and players who pass by themselves) answer, each at the table's pace; a
        reaction is answered at once, so its timing tells nothing."""
        table = self.tables[key]
        event = self.wake[key]
        self.answer_at_once(table)  # a table reopened in a window: its time starts again
        self.commit(table)
        while table.game is not None and not table.over:
            seat = table.bot_to_play()
            auto = self._auto_pass(table)
            if seat is None and auto is None:
                event.clear()
                await event.wait()
                continue
            pending = table.game.state.pending
            if auto is not None:
                table.game.play(auto)
            else:
                wait = pacing.wait_before(pending.kind, self.pace)
                if wait > 0:
                    await asyncio.sleep(wait)
                    if table.bot_to_play() != seat:
                        continue
                action = await self._think(table, seat, pending.kind)
                if action is None:
                    continue  # the table moved on meanwhile (a player came back)
                table.play_bot(seat, action)
            self.answer_at_once(table)
            self.commit(table)
            await asyncio.sleep(0)  # let the other tables play
        self.broadcast_lobby()
        self.drivers.pop(key, None)

    async def _think(self, table: Table, seat: int, kind: str):
        """A bot's decision off the event loop (the expert in a process of its own),
        taking the time the pacing rule gives it; None if the table moved on."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        version = table.game.state.version
        pending = table.game.state.pending  # (a window's answers leave the version alone)
        bot = table.bots[seat]
        view = table.view(seat, with_log=False)
        if bot.name == "expert":
            action = await self.pool.choose("expert", table.bot_seed(seat), view)
        else:
            action = await asyncio.to_thread(bot.choose, view)
        rest = start + pacing.thinking_time(bot, kind) - loop.time()
        if rest > 0:
            await asyncio.sleep(rest)
        state = table.game.state
        if state.version != version or state.pending is not pending or table.bot_to_play() != seat:
            return None
        return action

    def _auto_pass(self, table: Table):
        """A player who chose to pass by themselves, asked where they cannot cancel."""
        seat = table.deciding
        pending = table.game.state.pending if table.game else None
        if seat is None or pending.kind != "react" or not self._passes_by_itself(table, seat):
            return None
        legal = table.view(seat, with_log=False).legal
        return legal[0] if len(legal) == 1 else None

    def _auto_passes(self, table: Table) -> None:
        """In an open window, these have answered already and get no prompt: a seat that
        cannot cancel whatever it holds, as everyone can see (its PA, its power, an
        empty hand: `unable_seats`, the same in every world, so it tells nothing); and
        those who pass by themselves and cannot cancel (their choice: others may read
        it)."""
        state = table.game.state
        unable = unable_seats(state)
        for seat in window_seats(state):
            if seat in table.answers.answered(state):
                continue
            if seat in unable or self._passes_by_itself(table, seat):
                choices = window_choices(state, seat)
                if len(choices) == 1:
                    table.answers.give(state, choices[0])

    def _passes_by_itself(self, table: Table, seat: int) -> bool:
        holder = table.seats[seat].owner
        return any(
            conn.identity == holder and conn.auto_pass and conn.tables.get(table.name) == seat
            for conn in self.at(table.name)
        )
