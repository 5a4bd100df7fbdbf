"""The lobby: it holds the tables (each beside its driver, `driver.py`) and knows who
is at which; its rules are creating a table, taking a seat (join codes included),
watching, leaving, chat and notices, and what the lobby lists. The server routes a
player's messages here; the cluster (`cluster.py`), when there is one, lists and keeps
other servers' tables.
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any, Protocol

from ..engine import SPECTATOR
from . import protocol as pr
from . import server_messages as msg
from .connection import Connection
from .driver import Kit, StoreCluster, TableDriver
from .lobby_limits import Limits
from .notice_order import NoticeClock
from .table import Table
from .table_saves import fresh_save_path
from .table_summary import table_summary


class LobbyCluster(StoreCluster, Protocol):
    """What the lobby asks of the cluster (`cluster.py`, above it): the other servers'
    tables, a new table's lease and record, a gone table forgotten."""

    registry: set[str]
    store: Any

    def remote_lobby(self) -> list[dict]: ...

    def taken(self, name: str) -> bool: ...

    def forget(self, table: Table) -> None: ...

    async def claim(self, conn: Connection, table: Table) -> None: ...

    def publish_summaries(self) -> None: ...


LIST_EVERY = 0.5  # seconds between two lobby requests of one connection
BROADCAST_EVERY = 0.2  # seconds between two lobbies sent to everyone in it


class Lobby:
    def __init__(self, tables_dir, kit: Kit, limits: Limits, connections: set):
        self.tables_dir = tables_dir
        self.kit = kit  # what each table's driver is given
        self.limits = limits  # how many tables, spectators, wrong codes, chat lines
        self.connections = connections  # the server's: the lobby goes to those in it
        self.cluster: LobbyCluster | None = None  # (a store: `Server` sets it)
        self.tables: dict[str, Table] = {}  # name (casefold) -> table
        self.drivers: dict[str, TableDriver] = {}  # name (casefold) -> its driver
        self.damaged: dict[str, dict] = {}  # tables whose save did not read: their listing
        self.present: dict[str, set[Connection]] = {}  # table name -> connections there
        self.expiry_timers: dict[str, asyncio.TimerHandle] = {}  # table name -> its end
        self.notice_clock = NoticeClock()  # each notice's order number (`n`)
        self.last_broadcast = -1e9  # when the lobby last went to everyone in it
        self.lobby_due = False  # a lobby broadcast waits for its turn
        self.stopped = False

    # ------------------------------------------------------------ tables held

    def add(self, table: Table) -> TableDriver:
        """A table joins the lobby, with its driver."""
        key = table.name.casefold()
        self.tables[key] = table
        driver = self.drivers[key] = TableDriver(table, self, self.kit)
        return driver

    def driver(self, name: str) -> TableDriver:
        return self.drivers[name.casefold()]

    def adopt(self, table: Table, moved: bool = False) -> None:
        """A table back from its save (here, after a restart; or `moved` from a server
        that died): every player away until they return."""
        driver = self.add(table)
        for index in table.players_away(moved):
            driver.away(index)
        if moved and table.game is not None:
            driver.drive()

    def seated(self, conn: Connection, name: str) -> tuple[Table, TableDriver]:
        """The table `name` and its driver, where this connection holds a seat."""
        table = self.table(name)
        seat = self.seat_held(conn, table)
        if seat is None or seat == SPECTATOR:
            raise pr.ProtocolError("not_seated", "you hold no seat at this table")
        return table, self.drivers[table.name.casefold()]

    def start(self, conn: Connection, name: str) -> None:
        table = self.table(name)
        if table.creator != conn.identity:
            raise pr.ProtocolError("not_creator", "only the table's creator starts it")
        self.driver(table.name).begin()

    def gone(self, conn: Connection) -> None:
        """A connection closed: its seats wait for it (or, before a start, are free)."""
        for name, seat in list(conn.tables.items()):
            self.unplace(conn, name)
            table = self.tables.get(name.casefold())
            if table is None or seat == SPECTATOR:
                continue
            if any(c.tables.get(name) == seat for c in self.at(name)):
                continue
            driver = self.driver(name)
            if table.started:
                driver.away(seat)
            else:
                table.release(conn.who)
            driver.show()
        self.broadcast_lobby()

    def stop(self) -> None:
        """The server stops: no timer of the lobby or of a table acts again."""
        self.stopped = True
        for timer in self.expiry_timers.values():
            timer.cancel()
        self.expiry_timers.clear()
        for driver in self.drivers.values():
            driver.stop(writes=False)

    # ------------------------------------------------------------ the lobby listed

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
        conn.send(msg.server_line("tables", tables=self.listing()))

    def _lobby_due(self, conn: Connection) -> None:
        conn.list_due = False
        if not conn.closed:
            self.send_lobby(conn)

    # Connections are indexed by table, so that an action costs the same whether the
    # server holds four tables or eighty.

    def at(self, name: str) -> list[Connection]:
        """The connections sitting at or watching table `name`."""
        return list(self.present.get(name, ()))

    def spectators(self, name: str) -> int:
        """How many connections watch table `name`."""
        return sum(c.tables.get(name) == SPECTATOR for c in self.at(name))

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
        key = table.name.casefold()
        if self.tables.get(key) is table:
            timer = self.expiry_timers.pop(key, None)
            if timer is not None:
                timer.cancel()
            self.drivers.pop(key).stop()
            del self.tables[key]
        for conn in self.at(table.name):
            self.unplace(conn, table.name)

    def seat_held(self, conn: Connection, table: Table) -> int | None:
        """The seat this connection plays at `table`: one its identity holds, or
        SPECTATOR, or None. Never a seat someone else holds now."""
        seat = conn.tables.get(table.name)
        if seat is None or seat == SPECTATOR:
            return seat
        if table.seat_of(conn.who) != seat:
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

    def listing(self) -> list[dict]:
        """Every table: this server's (those whose save is damaged too), and (sharing a
        store) every other server's."""
        here = [table_summary(t, self.spectators(t.name)) for t in self.tables.values()]
        here += [d for key, d in self.damaged.items() if key not in self.tables]
        return here + (self.cluster.remote_lobby() if self.cluster is not None else [])

    def create(self, conn: Connection, message: pr.CreateTable):
        problem = pr.table_name_problem(message.name)
        if problem is not None:  # refused, not cleaned: the creator sees what others will
            raise pr.ProtocolError(
                "bad_name",
                f"a table's name is 1 to {pr.NAME_MAX} letters, digits, spaces or punctuation",
                {"reason": problem},
            )
        name = message.name
        old = self.tables.get(name.casefold())
        in_use = name.casefold() in self.damaged or (
            self.cluster is not None and self.cluster.taken(name)
        )
        if (old is not None and not old.over) or in_use:
            raise pr.ProtocolError("name_taken", "a table has that name already")
        self.limits.check_create(conn, message, name, self.tables.values())
        if old is not None:  # a finished table gives its name to a new one
            self.forget(old)
            if self.cluster is not None:
                self.cluster.forget(old)
        table = Table(
            name,
            message.configuration,
            message.open_seats,
            bot_kind=message.bots,
            code=pr.clean(message.code, pr.CODE_MAX),
            creator=conn.identity,
            seed=message.seed,
            events=message.events,
            start_when_full=message.start_when_full,
            hints=message.hints,
            origin=conn.origin,  # (saved while unfinished: counted after a restart)
        )
        taken = self.cluster.registry if self.cluster is not None else set()  # every server's
        path = fresh_save_path(self.tables_dir, name, taken, self.tables.values())
        store = self.cluster.store if self.cluster is not None else None
        table.saves.keep_at(path, store)  # the server alone names files (and keys)
        self.add(table)
        self.expiry_timers[name.casefold()] = asyncio.get_running_loop().call_later(
            self.limits.unstarted_expiry, self._expire_if_unjoined, table
        )
        if self.cluster is not None:  # made once its lease and record are in the store
            return self.cluster.claim(conn, table)
        conn.send(msg.server_line("created", table=name))
        self.broadcast_lobby()

    def _expire_if_unjoined(self, table: Table) -> None:
        """Its time is up: it goes unless it started or someone else joined it."""
        if self.tables.get(table.name.casefold()) is not table or self.stopped:
            return  # (gone already: `forget` cancels the timer, this is a safeguard)
        self.expiry_timers.pop(table.name.casefold(), None)
        if not table.started and not table.joined:
            self.expire(table)

    def expire(self, table: Table) -> None:
        """A table that waited too long goes: its creator (wherever they are) and who
        is at it are told, then the lobby (its save, if any, stays; none before a start)."""
        if not table.joined:
            line = msg.server_line(
                "notice",
                table=table.name,
                kind="expired",
                n=self.notice_clock.next(),
                name=next((s.name for s in table.seats if s.owner == table.creator), ""),
                text=str(math.ceil(self.limits.unstarted_expiry)),  # how long it waited, in seconds
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
        code = pr.clean(message.code, pr.CODE_MAX)  # as the table's was, when it was made
        if table.code and table.seat_of(conn.who) is None:
            self.limits.check_code(conn, table, code)
        holder = table.seats[message.seat].owner if 0 <= message.seat < len(table.seats) else None
        if holder is not None and holder != conn.identity:
            raise pr.ProtocolError("seat_taken", "that seat is not free")
        was_away = holder == conn.identity and table.seats[message.seat].away
        if was_away:
            self.limits.check_back(conn)
        # a bot's since their decision's time ran out (Table.take gives it back)
        was_slow = holder == conn.identity and table.seats[message.seat].slow and not table.over
        index = table.take(conn.who, conn.name, message.seat, code)
        for other in self.at(table.name):  # one connection holds a seat: the newest one
            if other is not conn and other.identity == conn.identity:
                self.unplace(other, table.name)
                other.send(msg.server_line("taken_over", table=table.name))  # said aloud
        self.place(conn, table.name, index)
        driver = self.driver(table.name)
        driver.back(index)
        if was_away or was_slow:
            if not table.moved_back(index):  # (never gone: the table moved to this server)
                self.notice(table, "back", table.seats[index].name)
            if table.started:
                driver.settle()  # a window waiting for them: its clock starts
        mine = table.creator == conn.identity
        conn.send(msg.server_line("seated", table=table.name, seat=index, creator=mine))
        if not table.started and table.start_when_full and table.full():
            driver.begin()
        else:
            driver.show()
            self.broadcast_lobby()
            driver.wake()

    def spectate(self, conn: Connection, message: pr.Spectate) -> None:
        table = self.table(message.table)
        held = conn.tables.get(table.name)
        if held is not None and held != SPECTATOR:
            # Watching would take the place of the seat on this connection: gone, the
            # seat was never marked away, and the table waited on it forever (a
            # hostile review).
            raise pr.ProtocolError("seated", "you sit at this table: leave it to watch it")
        if table.code and table.seat_of(conn.who) is None:
            self.limits.check_code(conn, table, pr.clean(message.code, pr.CODE_MAX))
        if self.spectators(table.name) >= self.limits.max_spectators:
            raise pr.ProtocolError("full", "this table has as many spectators as it may")
        self.place(conn, table.name, SPECTATOR)
        conn.send(msg.server_line("watching", table=table.name))
        self.driver(table.name).show()

    def leave(self, conn: Connection, name: str) -> None:
        table = self.table(name)
        seat = self.seat_held(conn, table)
        self.unplace(conn, table.name)
        if seat is None or seat == SPECTATOR:
            return  # a spectator (or a stale connection) leaves no seat behind
        if not table.started:
            table.release(conn.who)
        else:
            self.driver(table.name).away(seat, left=True)
        self.driver(table.name).show()
        self.broadcast_lobby()

    def chat(self, conn: Connection, message: pr.Chat) -> None:
        table = self.table(message.table)
        if self.seat_held(conn, table) is None:
            raise pr.ProtocolError("not_at_table", "chat is for the table you are at")
        self.limits.check_chat(conn)
        text = pr.clean(message.text, pr.CHAT_MAX)
        if text:
            self.notice(table, "chat", conn.name, text)

    def notice(self, table: Table, kind: str, name: str, text: str = "", at=None) -> None:
        """A table event for everyone there (chat, a player leaving or coming back)."""
        line = msg.server_line(
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
        line = msg.server_line("tables", tables=self.listing())
        for conn in list(self.connections):
            if conn.identity is not None and not conn.tables:
                conn.send(line)

    def _broadcast_due(self) -> None:
        self.lobby_due = False
        self.broadcast_lobby(publish=False)
