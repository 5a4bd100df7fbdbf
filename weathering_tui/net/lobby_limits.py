"""The lobby's limits: how many tables one server, one player and one network may
hold, how long a table waits for its start, how many spectators a table takes, wrong
join codes and chat lines — counted here, so that the lobby's rules read without them.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, NoReturn

from . import protocol as pr

if TYPE_CHECKING:
    from .connection import Connection
    from .table import Table

TABLES_PER_CREATOR = 3  # unfinished tables one identity may have
TABLES_PER_ORIGIN = 6  # and one origin (an SSH player's network, a local user)
# Nor may one origin hold more than this share of --max-tables (1/4), yet never fewer
# than one identity may: the smaller of the two caps applies.
ORIGIN_SHARE = 4
UNSTARTED_EXPIRES = 300.0  # seconds a table nobody else joined waits for its start
WAITING_EXPIRES = 3600.0  # seconds a table someone else joined waits for its start
# Why a create is refused (`full`, params["reason"]): the server's words for old clients.
FULL = {
    "server": "the server holds as many tables as it may",
    "creator": "you have as many unfinished tables as one player may",
    "origin": "your network has as many tables as it may",
    "share": "your network has its whole share of the server's tables",
}
CHAT_EVERY = 1.0  # seconds between two chat lines of one identity
# seconds between two seats taken back by one identity (each one is a notice to the
# table, as its leaving was: a leave and take loop sent 50 of each a second)
BACK_EVERY = 1.0
# moves taken back by one identity in UNDO_SPAN seconds: each tells the table and resends
# every view whole (an act and undo loop sent 20 notices and 0.8 MB a second a player)
UNDOS, UNDO_SPAN = 3, 3.0
WRONG_CODES = 5  # wrong join codes an identity may try a minute at one table
TABLE_CODES = 20  # and an origin (fresh SSH keys from one network together)
# and everyone together: past it, the table takes no code for a minute, the right one
# neither. From everyone, 20 let one player with 4 keys keep the invited players out
# (a hostile review); now that takes 5 origins.
ALL_CODES = 100


class Limits:
    def __init__(
        self,
        own_uid: int,
        max_tables: int = 50,
        max_spectators: int = 20,
        unstarted_expiry: float = UNSTARTED_EXPIRES,
    ):
        self.own_uid = own_uid  # the server's own user (tests, the SSH door)
        self.max_tables = max_tables
        self.max_spectators = max_spectators
        # a table nobody but its creator joined goes after this many seconds unstarted
        self.unstarted_expiry = unstarted_expiry
        self.wrong_codes: dict[tuple | str, list[float]] = {}
        self.last_chat: dict[str, float] = {}  # identity -> when it last chatted
        self.last_back: dict[str, float] = {}  # identity -> when it last took a seat back
        self.undos: dict[str, list[float]] = {}  # identity -> its last undos' times

    def check_create(self, conn, message: pr.CreateTable, name: str, tables) -> None:
        """A table this connection may make (its name is free), or the refusal."""
        unfinished = [t for t in tables if not t.over]  # started ones too
        if len(unfinished) >= self.max_tables:
            self._full("server", self.max_tables, unfinished, name)
        mine = [t for t in unfinished if t.creator == conn.identity]
        if len(mine) >= TABLES_PER_CREATOR:
            self._full("creator", TABLES_PER_CREATOR, mine, name)
        # Every identity of one origin together: fresh SSH keys from one network are one
        # party, and one party never holds more than its share of the server's tables.
        near = [t for t in unfinished if t.origin == conn.origin]
        most, reason = self.origin_most()
        if len(near) >= most:
            self._full(reason, most, near, name)
        if not message.open_seats and conn.uid != self.own_uid:
            # A table of bots alone only costs the server: players make tables to play.
            raise pr.ProtocolError("bad_seat", "keep at least one seat for a player")
        if message.seed is not None and conn.uid != self.own_uid:
            # A chosen seed lets its chooser foresee every hand: tests and benchmarks only.
            raise pr.ProtocolError("seed", "only the server's own user may choose a seed")

    def origin_most(self) -> tuple[int, str]:
        """The unfinished tables one origin may hold, and which cap that is: its own, or
        its share of --max-tables (the smaller; a share is never below one identity's)."""
        share = max(TABLES_PER_CREATOR, self.max_tables // ORIGIN_SHARE)
        return (share, "share") if share < TABLES_PER_ORIGIN else (TABLES_PER_ORIGIN, "origin")

    def _full(self, reason: str, most: int, tables: list[Table], name: str) -> NoReturn:
        """A create refused: which limit (`reason`), its number, and (when one of the
        tables counted is still waiting) in how many seconds the first of them goes."""
        params = {"reason": reason, "most": most, "max": self.max_tables, "table": name}
        wait = self.frees_in(tables)
        if wait is not None:
            params["wait"] = wait
        raise pr.ProtocolError("full", FULL[reason], params)

    def frees_in(self, tables: list[Table]) -> int | None:
        """Seconds until the first of these tables still waiting goes by itself (unless
        its players come), or None: every one has started."""
        ends = [t.made_at + self.waiting_life(t) for t in tables if not t.started]
        return max(1, math.ceil(min(ends) - time.monotonic())) if ends else None

    def waiting_life(self, table: Table) -> float:
        """How long a table may wait for its start: short when nobody else joined it."""
        return WAITING_EXPIRES if table.joined else self.unstarted_expiry

    def check_code(self, conn: Connection, table: Table, code: str) -> None:
        """Wrong join codes are counted per identity, per origin (a new SSH key is a new
        identity, not a new network) and from everyone, at each table. Past a limit,
        every try it counts is refused for a minute, the right code too: guessing gets
        nowhere, and one player's guesses keep out only their own identity or origin."""
        now = time.monotonic()
        keys = (
            ((conn.identity, table.name), WRONG_CODES),
            (("origin", conn.origin, table.name), TABLE_CODES),
            (table.name, ALL_CODES),
        )
        for key, most in keys:
            self.wrong_codes[key] = [t for t in self.wrong_codes.get(key, []) if now - t < 60]
            if len(self.wrong_codes[key]) >= most:
                raise pr.ProtocolError("bad_code", "too many wrong codes: wait a minute")
        if code != table.code:
            for key, _ in keys:
                self.wrong_codes[key].append(now)
            raise pr.ProtocolError("bad_code", "this table needs its join code")

    def check_chat(self, conn) -> None:
        # per identity: more sockets, no more lines
        self._once_every(self.last_chat, conn, CHAT_EVERY, "one chat line a second")

    def check_back(self, conn) -> None:
        """A seat taken back (after its player left or dropped): one a second per identity,
        as chat lines are: each tells the table, as the leaving did."""
        self._once_every(self.last_back, conn, BACK_EVERY, "one seat taken back a second")

    @staticmethod
    def _once_every(last: dict[str, float], conn, every: float, refusal: str) -> None:
        """One of these per `every` seconds per identity (`last`: when each last did)."""
        now = time.monotonic()
        if now - last.get(conn.identity, -every) < every:
            raise pr.ProtocolError("rate_limited", refusal)
        last[conn.identity] = now

    def check_undo(self, conn) -> None:
        """Moves taken back: UNDOS in UNDO_SPAN seconds per identity (a few in a row,
        as a player undoes a turn; not a loop)."""
        now = time.monotonic()
        recent = [t for t in self.undos.get(conn.identity, []) if now - t < UNDO_SPAN]
        if len(recent) >= UNDOS:
            raise pr.ProtocolError("rate_limited", "too many moves taken back: wait a moment")
        self.undos[conn.identity] = [*recent, now]

    def forget_codes(self, now: float) -> None:
        """Wrong-code counts older than a minute go."""
        self.wrong_codes = {k: v for k, v in self.wrong_codes.items() if v and now - v[-1] < 60}
