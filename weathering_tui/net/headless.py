"""`weathering join --bot KIND`: a bot plays one seat through the table server.

For tests, benchmarks and players who script a bot. It prints the outcome as one JSON
object when the game ends, and reconnects by itself like the app does.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from ..bots import BOTS
from . import protocol as pr
from . import server_messages as msg
from .client import TableClient

TABLE_WAIT = 30.0  # seconds a player waits for a table that is not made yet
GIVE_UP = 600.0  # seconds without a server before a headless player stops


class SeatPlayer:
    """A bot at one seat of one table, driven by the views the server sends."""

    def __init__(self, table, seat, bot, create=None, humans=1, code="", seed=None, latencies=None):
        self.table, self.seat, self.code = table, seat, code
        self.create, self.humans, self.seed = create, humans, seed
        self.player = BOTS[bot](seed=seat + 1)
        self.loop = asyncio.get_running_loop()
        self.started = time.monotonic()
        self.done = self.loop.create_future()
        self.acted_on = None
        self.latencies = latencies
        self.sent_at: dict[int, float] = {}
        self.client: TableClient | None = None

    def linked(self) -> TableClient:
        """The client this player reads and acts through (`play_seat` gives it first)."""
        assert self.client is not None, "a player is given its client before it runs"
        return self.client

    def on_event(self, message: msg.ServerMessage) -> None:
        client = self.linked()
        if isinstance(message, msg.Welcome):
            self.acted_on = None  # an action sent before a drop may never have arrived
            if self.create is not None:
                client.send(
                    pr.CreateTable(
                        self.table,
                        self.create,
                        tuple(range(self.humans)),
                        code=self.code,
                        seed=self.seed,
                        start_when_full=True,
                    )
                )
            client.take_seat(self.table, self.seat, self.code)
        elif isinstance(message, msg.ErrorMessage):
            self.on_error(message.code, message.message)
        elif isinstance(message, msg.Notice) and message.kind == "expired":
            if message.table == self.table:
                self.fail("the table closed: nobody joined it in time")
        elif isinstance(message, msg.Notice) and message.kind in ("moving", "resumed"):
            self.acted_on = None  # the table changed server: an action may not have arrived
            self.decide()
        elif isinstance(message, msg.ViewMessage) and message.table == self.table:
            self.decide()
        elif isinstance(message, msg.TakenOver) and message.table == self.table:
            self.fail("the seat is now played from another connection")

    def on_error(self, code: str | None, text: str) -> None:
        if code == "no_table" and self.create is None:
            # The table may not be made yet: look again for a while, then give up.
            if time.monotonic() - self.started < TABLE_WAIT:
                self.loop.call_later(0.3, self.linked().take_seat, self.table, self.seat, self.code)
            else:
                self.fail(text)
        elif code in ("seat_taken", "bad_code", "started", "full", "damaged", "storage"):
            self.fail(text)
        elif code in ("rate_limited", "stale", "illegal", "paused"):
            self.acted_on = None  # decide again on the newest view, a moment later
            self.loop.call_later(0.2, self.decide)

    def fail(self, text: str) -> None:
        if not self.done.done():
            self.done.set_exception(RuntimeError(f"{self.table}: {text}"))

    def decide(self) -> None:
        view = self.linked().views.get(self.table)
        if view is None or self.done.done():
            return
        if self.latencies is not None and view.version in self.sent_at:
            self.latencies.append(time.perf_counter() - self.sent_at.pop(view.version))
        if view.outcome is not None:
            self.done.set_result(outcome_of(self.table, self.seat, view))
        elif view.legal and self.acted_on != view:
            self.acted_on = view
            action = self.player.choose(view)
            self.sent_at[view.version + 1] = time.perf_counter()
            self.linked().act(self.table, view, action)


async def play_seat(
    table: str,
    seat: int,
    bot: str = "heuristic",
    socket_path=None,
    create: str | None = None,
    humans: int = 1,
    identity: str | None = None,
    name: str | None = None,
    code: str = "",
    seed: int | None = None,
    timeout: float | None = None,
    latencies: list | None = None,
) -> dict:
    """Play `seat` of `table` with a `bot` until the game ends; return the outcome."""
    me = SeatPlayer(table, seat, bot, create, humans, code, seed, latencies)
    me.client = TableClient(
        socket_path,
        identity=identity,
        name=name,
        client="headless",
        on_event=me.on_event,
        with_log=False,
    )
    runner = asyncio.get_running_loop().create_task(me.client.run(give_up=GIVE_UP))

    def ended(task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            me.fail(str(task.exception()))

    runner.add_done_callback(ended)
    try:
        return await asyncio.wait_for(me.done, timeout)
    finally:
        me.client.close()
        runner.cancel()


def outcome_of(table: str, seat: int, view) -> dict:
    outcome = view.outcome
    return {
        "table": table,
        "seat": seat,
        "hp": outcome.hp,
        "band": outcome.band,
        "winner": outcome.winner,
        "side": view.me.side,
        "won": outcome.winner.startswith(view.me.side),
    }


def main(args) -> int:
    try:
        result = asyncio.run(
            play_seat(
                args.table,
                args.seat,
                args.bot,
                args.socket,
                create=args.create,
                humans=args.humans,
                identity=args.identity,
                name=args.name,
                code=args.code or "",
                seed=args.seed,
            )
        )
    except KeyboardInterrupt:
        return 130
    except RuntimeError as exc:
        print(f"weathering join: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0
