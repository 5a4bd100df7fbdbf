"""The lobby's rules: who is at which table, creating one, taking a seat (join codes
included), watching, leaving, chat and notices, and what the lobby lists. A part of
the server (`Server` is a `Lobby`), kept apart so that these rules read in one place.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from typing import NoReturn

from ..engine import SPECTATOR
from . import protocol as pr
from .connection import Connection
from .table import Table
from .table_saves import backup_path

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
WRONG_CODES = 5  # wrong join codes an identity may try a minute at one table
TABLE_CODES = 20  # wrong join codes a table takes a minute, from everyone
LIST_EVERY = 0.5  # seconds between two lobby requests of one connection
BROADCAST_EVERY = 0.2  # seconds between two lobbies sent to everyone in it


class Lobby:
    """The lobby half of the server (its state lives in `Server.__init__`)."""

    def send_lobby(self, conn: Connection) -> None:
        """The lobby on request, at most once every LIST_EVERY (requests in between are
        answered together): its size grows with the tables, so asking costs the asker."""
        if conn.list_due:
            return
        wait = conn.last_list + LIST_EVERY - time.monotonic()
        if wait > 0:
            conn.list_due = True
            asyncio.get_running_loop().call_later(wait, self._lobby_due, conn)
            return
        conn.last_list = time.monotonic()
        conn.send(pr.server_line("tables", tables=self.lobby()))

    def _lobby_due(self, conn: Connection) -> None:
        conn.list_due = False
        if not conn.closed:
            self.send_lobby(conn)

    # Connections are indexed by table, so that an action costs the same whether the
    # server holds four tables or eighty.

    def at(self, name: str) -> list[Connection]:
        """The connections sitting at or watching table `name`."""
        return list(self.present.get(name, ()))

    def place(self, conn: Connection, name: str, seat: int) -> None:
        conn.tables[name] = seat
        conn.sent_views.pop(name, None)
        self.present.setdefault(name, set()).add(conn)

    def unplace(self, conn: Connection, name: str) -> None:
        conn.tables.pop(name, None)
        conn.sent_views.pop(name, None)
        here = self.present.get(name)
        if here is not None:
            here.discard(conn)
            if not here:
                del self.present[name]

    def forget(self, table: Table) -> None:
        """A table gone from the server: no connection keeps a seat or a view of it."""
        if self.tables.get(table.name.casefold()) is table:
            timer = self.expiry_timers.pop(table.name.casefold(), None)
            if timer is not None:
                timer.cancel()
        self.tables.pop(table.name.casefold(), None)
        for conn in self.at(table.name):
            self.unplace(conn, table.name)

    def seat_held(self, conn: Connection, table: Table) -> int | None:
        """The seat this connection plays at `table`: one its identity holds, or
        SPECTATOR, or None. Never a seat someone else holds now."""
        seat = conn.tables.get(table.name)
        if seat is None or seat == SPECTATOR:
            return seat
        if table.seat_of(conn.identity) != seat:
            self.unplace(conn, table.name)  # that seat is no longer theirs
            return None
        return seat

    def table(self, name: str) -> Table:
        table = self.tables.get(name.casefold())
        damaged = self.damaged.get(name.casefold())
        if table is None and damaged is not None:  # listed, and refused in one sentence
            reason = damaged["damaged"]
            detail = f"this table's save is damaged ({reason}): it cannot be played"
            raise pr.ProtocolError("damaged", detail, {"table": name, "reason": reason})
        if table is None:  # (named: a client knows which of its requests it answers)
            raise pr.ProtocolError("no_table", "there is no such table", {"table": name})
        return table

    def lobby(self) -> list[dict]:
        """Every table: this server's (those whose save is damaged too), and (sharing a
        store) every other server's."""
        here = [
            t.summary(sum(c.tables.get(t.name) == SPECTATOR for c in self.at(t.name)))
            for t in self.tables.values()
        ]
        here += [d for key, d in self.damaged.items() if key not in self.tables]
        return here + (self.cluster.remote_lobby() if self.cluster is not None else [])

    def create(self, conn: Connection, message: pr.CreateTable):
        name = pr.clean_name(message.name)
        if not re.search(r"\w", name):
            raise pr.ProtocolError("bad_name", "a table needs a name")
        old = self.tables.get(name.casefold())
        in_use = name.casefold() in self.damaged or (
            self.cluster is not None and self.cluster.taken(name)
        )
        if (old is not None and not old.over) or in_use:
            raise pr.ProtocolError("name_taken", "a table has that name already")
        unfinished = [t for t in self.tables.values() if not t.over]  # started ones too
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
        if old is not None:  # a finished table gives its name to a new one
            self.forget(old)
            if self.cluster is not None:
                self.cluster.forget(old)
        table = Table(
            name,
            message.configuration,
            message.open_seats,
            bots=message.bots,
            code=pr.clean(message.code, pr.CODE_MAX),
            creator=conn.identity,
            seed=message.seed,
            events=message.events,
            start_when_full=message.start_when_full,
            hints=message.hints,
        )
        stem = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "table"
        path = self.tables_dir / f"{stem}.toml"
        n = 1
        taken = self.cluster.registry if self.cluster is not None else set()  # (every server's)
        while (
            path.exists()
            or backup_path(path).exists()  # (a backup is only ever its own table's)
            or path.stem in taken
            or any(t.path == path for t in self.tables.values())
        ):
            n += 1
            path = self.tables_dir / f"{stem}-{n}.toml"
        table.origin = conn.origin  # (saved while unfinished: counted after a restart)
        table.keep_at(path, self.store)  # the server alone names files (and keys)
        self.tables[name.casefold()] = table
        self.expiry_timers[name.casefold()] = asyncio.get_running_loop().call_later(
            self.unstarted_expiry, self._expire_if_unjoined, table
        )
        if self.cluster is not None:  # made once its lease and record are in the store
            return self.cluster.claim(conn, table)
        conn.send(pr.server_line("created", table=name))
        self.broadcast_lobby()

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

    def _expire_if_unjoined(self, table: Table) -> None:
        """Its time is up: it goes unless it started or someone else joined it."""
        if self.tables.get(table.name.casefold()) is not table or self.stopping:
            return  # (gone already: `forget` cancels the timer, this is a safeguard)
        self.expiry_timers.pop(table.name.casefold(), None)
        if not table.started and not table.joined:
            self.expire(table)

    def expire(self, table: Table) -> None:
        """A table that waited too long goes: its creator (wherever they are) and who
        is at it are told, then the lobby (its save, if any, stays; none before a start)."""
        if not table.joined:
            line = pr.server_line(
                "notice",
                table=table.name,
                kind="expired",
                n=self.notice_clock.next(),
                name=next((s.name for s in table.seats if s.owner == table.creator), ""),
                text=str(math.ceil(self.unstarted_expiry)),  # how long it waited, in seconds
            )
            told = set(self.at(table.name))
            told |= {c for c in self.connections if c.identity == table.creator}
            for conn in told:
                if not conn.closed:
                    conn.send(line)
        self.forget(table)
        if self.cluster is not None:
            self.cluster.forget(table)  # nor does any server's lobby list it
        self.broadcast_lobby()

    def take(self, conn: Connection, message: pr.TakeSeat) -> None:
        table = self.table(message.table)
        if table.code and table.seat_of(conn.identity) is None:
            self.check_code(conn, table, message.code)
        holder = table.seats[message.seat].owner if 0 <= message.seat < len(table.seats) else None
        if holder is not None and holder != conn.identity:
            raise pr.ProtocolError("seat_taken", "that seat is not free")
        was_away = holder == conn.identity and table.seats[message.seat].away
        index = table.take(conn.identity, conn.name, message.seat, message.code)
        for other in self.at(table.name):  # one connection holds a seat: the newest one
            if other is not conn and other.identity == conn.identity:
                self.unplace(other, table.name)
                other.send(pr.server_line("taken_over", table=table.name))  # said aloud
        self.place(conn, table.name, index)
        timer = self.away_timers.pop((table.name, index), None)
        if timer is not None:
            timer.cancel()
        if was_away:
            if index in table.moved:  # (never gone: the table moved to this server)
                table.moved.discard(index)
            else:
                self.notice(table, "back", table.seats[index].name)
            if table.started:
                self.answer_at_once(table)  # a window waiting for them: its clock starts
        mine = table.creator == conn.identity
        conn.send(pr.server_line("seated", table=table.name, seat=index, creator=mine))
        if not table.started and table.start_when_full and table.full():
            self.begin(table)
        else:
            self.push(table)
            self.broadcast_lobby()
            self._wake(table.name)

    def check_code(self, conn: Connection, table: Table, code: str) -> None:
        """Wrong join codes are counted per identity and per table (all identities
        together: a new SSH key is a new identity). Past either limit every try is
        refused for a minute, the right code too: guessing gets nowhere."""
        now = time.monotonic()
        keys = (((conn.identity, table.name), WRONG_CODES), (table.name, TABLE_CODES))
        for key, most in keys:
            self.wrong_codes[key] = [t for t in self.wrong_codes.get(key, []) if now - t < 60]
            if len(self.wrong_codes[key]) >= most:
                raise pr.ProtocolError("bad_code", "too many wrong codes: wait a minute")
        if code != table.code:
            for key, _ in keys:
                self.wrong_codes[key].append(now)
            raise pr.ProtocolError("bad_code", "this table needs its join code")

    def spectate(self, conn: Connection, message: pr.Spectate) -> None:
        table = self.table(message.table)
        if table.code and table.seat_of(conn.identity) is None:
            self.check_code(conn, table, message.code)
        watching = sum(c.tables.get(table.name) == SPECTATOR for c in self.at(table.name))
        if watching >= self.max_spectators:
            raise pr.ProtocolError("full", "this table has as many spectators as it may")
        self.place(conn, table.name, SPECTATOR)
        conn.send(pr.server_line("watching", table=table.name))
        self.push(table)

    def leave(self, conn: Connection, name: str) -> None:
        table = self.table(name)
        seat = self.seat_held(conn, table)
        self.unplace(conn, table.name)
        if seat is None or seat == SPECTATOR:
            return  # a spectator (or a stale connection) leaves no seat behind
        if not table.started:
            table.release(conn.identity)
        else:
            self._away(table, seat, left=True)
        self.push(table)
        self.broadcast_lobby()

    def chat(self, conn: Connection, message: pr.Chat) -> None:
        table = self.table(message.table)
        if self.seat_held(conn, table) is None:
            raise pr.ProtocolError("not_at_table", "chat is for the table you are at")
        now = time.monotonic()
        if now - self.last_chat.get(conn.identity, 0.0) < CHAT_EVERY:
            raise pr.ProtocolError("rate_limited", "one chat line a second")
        self.last_chat[conn.identity] = now  # per identity: more sockets, no more lines
        text = pr.clean(message.text, pr.CHAT_MAX)
        if text:
            self.notice(table, "chat", conn.name, text)

    def notice(self, table: Table, kind: str, name: str, text: str = "", at=None) -> None:
        """A table event for everyone there (chat, a player leaving or coming back)."""
        line = pr.server_line(
            "notice",
            table=table.name,
            kind=kind,
            name=name,
            n=self.notice_clock.next(),
            text=text,
            at=at,
        )
        for conn in self.at(table.name):
            conn.send(line)

    def broadcast_lobby(self, publish: bool = True) -> None:
        """The lobby to everyone in it, at most once every BROADCAST_EVERY: changes in
        between go together (one player taking and leaving seats in a loop must not send
        every lobby client a whole lobby each time)."""
        if publish and self.cluster is not None:
            self.cluster.publish_summaries()  # the other servers' lobbies hear it too
        if self.lobby_due:
            return
        wait = self.last_broadcast + BROADCAST_EVERY - time.monotonic()
        if wait > 0:
            self.lobby_due = True
            asyncio.get_running_loop().call_later(wait, self._broadcast_due)
            return
        self.last_broadcast = time.monotonic()
        line = pr.server_line("tables", tables=self.lobby())
        for conn in list(self.connections):
            if conn.identity is not None and not conn.tables:
                conn.send(line)

    def _broadcast_due(self) -> None:
        self.lobby_due = False
        self.broadcast_lobby(publish=False)
