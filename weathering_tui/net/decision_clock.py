"""A player's clock on their own decision at a table server.

A player who is here and decides outside a reaction window (their turn, a choice inside
an effect, a trade's answer, the mulligan) has `limit` seconds for that decision, from
the moment it is shown; the table hears when `WARN_BEFORE` are left, then a bot plays
the seat until they act again (the driver, `driver.py`, hands it over and back). One
player who never acts would otherwise stall everyone's game for good. The clock reads
only whose decision it is, which every seat sees: it tells nothing of anyone's cards.
A reaction window has a clock of its own (`bots.pacing.REACTION_SECONDS`); a player
whose link dropped has the driver's grace instead; while the table is paused (it cannot
save: nobody's move is taken) a time that runs out starts again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

DECISION_TIME = 180.0  # (`serve --decision-time`)
WARN_BEFORE = 30.0  # the table hears this long before a player's decision time is up


class DecisionClock:
    def __init__(
        self,
        table,
        lobby,
        limit: float,
        on_over: Callable[[int], None],
        paused: Callable[[], bool] = lambda: False,
    ):
        self.table = table
        self.lobby = lobby  # the table's notices go through it
        self.limit = limit  # seconds a decision; 0: no limit
        self.on_over = on_over  # called with the seat whose time ran out
        self.paused = paused  # the table takes no move now (a player could not act)
        # the decision timed (its seat and the game's version) and its timers
        self.running: tuple[tuple[int, int], list[asyncio.TimerHandle]] | None = None
        # when each decision of the deciding seat's run of them is up (an undo comes back
        # to one of them)
        self.deadlines: dict[tuple[int, int], float] = {}
        self.stopped = False

    def watch(self) -> None:
        """The table changed: time the decision now shown, if it is a player's here
        (a decision already timed runs on; any other clock stops). A decision the
        player comes back to by an undo has the time it had left, not a new one: an
        act and an undo, again and again, would otherwise stall the table too."""
        key = self._shown()
        if self.running is not None and self.running[0] == key:
            return
        self._cancel()
        if key is None or self.stopped:
            self.deadlines.clear()
            return
        loop = asyncio.get_running_loop()
        if any(seat != key[0] for seat, _ in self.deadlines):
            self.deadlines.clear()  # another seat's decisions: theirs are over
        deadline = self.deadlines.setdefault(key, loop.time() + self.limit)
        left = max(0.0, deadline - loop.time())
        timers = [loop.call_later(left, self._over, key)]
        if self.limit > 2 * WARN_BEFORE and left > WARN_BEFORE:
            timers.append(loop.call_later(left - WARN_BEFORE, self._soon, key))
        self.running = (key, timers)

    def _shown(self) -> tuple[int, int] | None:
        """The decision now shown, as (seat, version), if it is to be timed."""
        table = self.table
        state = table.game.state if table.game is not None and not table.over else None
        pending = state.pending if state is not None else None
        if self.limit <= 0 or state is None or pending is None or pending.kind == "react":
            return None
        seat = table.seats[pending.seat]
        if seat.owner is None or seat.botted or seat.away:
            return None
        return (pending.seat, state.version)

    def stop(self) -> None:
        """The table stops here: no clock runs again."""
        self.stopped = True
        self._cancel()

    def _cancel(self) -> None:
        if self.running is not None:
            for timer in self.running[1]:
                timer.cancel()
            self.running = None

    def _timing(self, key: tuple[int, int]) -> bool:
        return self.running is not None and self.running[0] == key and not self.stopped

    def _soon(self, key: tuple[int, int]) -> None:
        if self._timing(key):
            name = self.table.seats[key[0]].name
            self.lobby.notice(self.table, "decide_soon", name, text=str(round(WARN_BEFORE)))

    def _over(self, key: tuple[int, int]) -> None:
        if not self._timing(key):
            return
        self.running = None
        if self._shown() != key:
            return  # the player acted as the time ran out: its view comes (then a clock)
        if self.paused():  # the player could not have acted: their time starts again
            self.deadlines.pop(key, None)
            self.watch()
            return
        self.on_over(key[0])
