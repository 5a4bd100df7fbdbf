"""The player's side of the cluster: this server's players at tables another server
owns. Their table messages go to the owner's command stream; what the owner sends them
comes back on this server's channel, `server:ID:out` (net/cluster.py says why pub/sub),
and is written to them; when an owner changes (or Redis was away) they ask for their
seats again and are told, once, that the table is moving, paused or back."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import weakref

import attrs

from . import protocol as pr
from . import server_messages as msg
from .cluster_base import TABLE_MESSAGES, TICK, Link
from .connection import Connection


@attrs.define(eq=False)
class Forwarded:
    """What the relay keeps of one of our players at remote tables."""

    token: str  # its name on Redis, never reused (an id() is, once freed)
    asked: dict = attrs.Factory(dict)  # remote table (cf) -> the seat it asked there
    tables: set = attrs.Factory(set)  # every remote table it spoke to


class Relay:
    def __init__(self, link: Link, lobby, dispatch):
        self.link = link
        self.lobby = lobby  # the tables of this server (a table here is not forwarded)
        self.dispatch = dispatch  # the server's: a table that became ours seats them here
        self.remote: dict[str, dict] = {}  # table name (casefold) -> {key, owner, summary}
        self.forwarded: dict[str, set] = {}  # remote table name (cf) -> local conns there
        self.seated_with: dict[str, str] = {}  # remote table -> the owner our seats went to
        self.local_by_id: dict[str, Connection] = {}  # our players at remote tables, by token
        self.players: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.conn_count = 0
        self.moving: set[str] = set()  # remote tables whose owner is gone (being taken over)
        # The last pause/resume/move each of our players was told, by (table, player).
        self.told: dict[tuple[str, str], str] = {}
        self.told_n: dict[tuple[str, str], int] = {}  # and the newest notice's number
        self.reconnected = Reconnected(self.ask_again)

    # ------------------------------------------------------------ to the owners

    def forward(self, conn, message) -> bool:
        """A table message for a table another server owns: sent there. False when the
        table is this server's (or unknown): handle it here."""
        if not isinstance(message, TABLE_MESSAGES):
            return False
        name = message.table.casefold()
        if name in self.lobby.tables or name not in self.remote:
            return False
        remote = self.remote[name]
        self.forwarded.setdefault(name, set()).add(conn)  # (its answers come back to it)
        player = self.player(conn)
        self.local_by_id[player.token] = conn
        player.tables.add(name)
        if isinstance(message, pr.TakeSeat | pr.Spectate):
            player.asked[name] = message
            self.seated_with[name] = remote["owner"]
        elif isinstance(message, pr.Leave):
            player.asked.pop(name, None)
            self.forwarded.get(name, set()).discard(conn)
            conn.tables.pop(remote["summary"]["name"], None)
        self.command(remote["key"], conn, "msg", pr.client_line(message))
        return True

    def command(self, key: str, conn, kind: str, line: bytes = b"") -> None:
        player = self.player(conn)
        fields = {
            "from": self.link.server_id,
            "conn": player.token,
            "identity": conn.identity or "",
            "name": conn.name,
            "auto_pass": "1" if conn.auto_pass else "",
            "kind": kind,
            "line": line,
            # the seat this player asked for there: a new owner seats them first
            "asked": self._asked_line(player, key),
        }
        self.link.add(self.link.store.key("table", key, "commands"), fields)

    def _asked_line(self, player: Forwarded, key: str) -> bytes:
        for name, asked in player.asked.items():
            remote = self.remote.get(name)
            if remote is not None and remote["key"] == key:
                return pr.client_line(asked)
        return b""

    def ask(self, conn, name: str, message) -> None:
        """Our player at a table we lost: the seat it asks its new owner for."""
        self.player(conn).asked[name] = message
        self.forwarded.setdefault(name, set()).add(conn)

    def gone(self, conn) -> None:
        """A local player's connection closed: the owners of its remote tables hear it."""
        player = self.players.pop(conn, None)
        if player is None:
            return
        self.local_by_id.pop(player.token, None)
        for said in [said for said in self.told_n if said[1] == player.token]:
            self.told.pop(said, None)
            del self.told_n[said]
        for name in player.tables:  # every table it spoke to
            self.forwarded.get(name, set()).discard(conn)
            remote = self.remote.get(name)
            if remote is not None:
                self.command(remote["key"], conn, "gone")

    def player(self, conn) -> Forwarded:
        player = self.players.get(conn)
        if player is None:
            self.conn_count += 1
            player = self.players[conn] = Forwarded(f"{self.conn_count}-{secrets.token_hex(4)}")
        return player

    def token(self, conn) -> str:
        """A connection's name on Redis, never reused (an id() is, once freed)."""
        return self.player(conn).token

    # ------------------------------------------------------------ from the owners

    def deliver(self, conn_id: str, line: bytes) -> None:
        """A line the owner of a remote table sent one of our players."""
        conn = self.local_by_id.get(conn_id)
        if conn is None or conn.closed:
            return
        if line.startswith(b'{"view":'):  # (a view: nothing to note, the bulk of them)
            conn.send(line)
            return
        message = json.loads(line)
        table = message.get("table")
        if message.get("type") == "notice":  # its number kept: ours come after it
            said, number = (str(table).casefold(), conn_id), message.get("n")
            self.lobby.notice_clock.seen(number)
            if type(number) is not int or number <= self.told_n.get(said, -1):
                return  # older than what this server said since (queued while Redis was away)
            self.told_n[said] = number
        if message.get("type") == "notice" and message.get("kind") in ("paused", "resumed"):
            name = str(table).casefold()
            if self.told.get((name, conn_id)) == message["kind"]:
                return  # (said already, by this server: Redis was away for it too)
            self.told[(name, conn_id)] = message["kind"]
        if message.get("type") in ("seated", "watching"):
            seat = message.get("seat", -1)
            conn.tables[table] = seat if seat is not None else -1
        elif message.get("type") == "taken_over":
            conn.tables.pop(table, None)
        conn.send(line)
        if message.get("type") == "error":
            conn.count_error()  # refusals add up here as on this server's own tables

    async def subscribe(self):
        """Our channel, subscribed (its confirmation read: nothing published after this
        returns is missed), and watched for the Redis client subscribing again."""
        pubsub = self.link.aredis.pubsub()
        try:
            await pubsub.subscribe(self.link.store.key("server", self.link.server_id, "out"))
            while (await pubsub.get_message(timeout=5.0) or {}).get("type") != "subscribe":
                pass
            pubsub.connection.register_connect_callback(self.reconnected.connected)
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        return pubsub

    async def loop(self, pubsub=None) -> None:
        """What the owners of remote tables send this server's players (our channel;
        first subscribed as the server starts). Subscribed again after a dropped link
        (the Redis client does it by itself, or this loop), our players at remote tables
        ask for their seats again: what was published meanwhile is gone, and whole
        views replace it."""
        while not self.link.closing:
            try:
                if pubsub is None:
                    pubsub = await self.subscribe()
                    self.ask_again()
                while not self.link.closing:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
                    if message is not None and message.get("type") == "message":
                        conn_id, _, line = message["data"].partition(b" ")
                        self.deliver(conn_id.decode(), line)
            except Exception:  # noqa: BLE001 - Redis away: subscribe again in a moment
                await asyncio.sleep(TICK)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                pubsub = None

    # ------------------------------------------------------------ owners changing

    def ask_again(self) -> None:
        """Every seat our players hold at remote tables, asked of its owner again."""
        for name in list(self.forwarded):
            entry = self.remote.get(name)
            if entry is not None and entry["owner"]:
                self.owner_changed(name, entry)

    def seen(self, remote: dict) -> None:
        """The tables of the other servers as the tick read them: our players at one
        whose owner is gone are told it moves; at one with a new owner, they ask it."""
        for name, entry in remote.items():  # an owner gone: our players are told
            before = self.remote.get(name)
            if not entry["owner"] and before and before["owner"] and self.forwarded.get(name):
                self.tell(name, entry["summary"]["name"], "moving")
                self.seated_with.pop(name, None)
        self.remote = remote

    def new_owners(self) -> None:
        for name, entry in self.remote.items():
            if (
                entry["owner"]
                and self.forwarded.get(name)
                and self.seated_with.get(name) != entry["owner"]
            ):
                self.owner_changed(name, entry)  # a new owner: our players' seats again

    async def owners_gone(self) -> None:
        """Owners of our players' tables whose every link to Redis is closed (a killed
        server: its kernel closed them at once): their players are told the table is
        moving now, not when its lease runs out. An owner back without losing its lease
        (a dropped link): they are told it resumes."""
        watched = {n: e for n, e in self.remote.items() if e["owner"] and self.forwarded.get(n)}
        if not watched:
            return
        live = {str(client.get("name", "")) for client in await self.link.aredis.client_list()}
        for name, entry in watched.items():
            if entry["owner"] not in live and name not in self.moving:
                self.tell(name, entry["summary"]["name"], "moving")
            elif name in self.moving and self.seated_with.get(name) == entry["owner"] in live:
                self.tell(name, entry["summary"]["name"], "resumed")

    def owner_changed(self, name: str, entry: dict | None) -> None:
        """Our players at a table whose owner changed ask for their seats again (the
        new owner sends them a whole view), as a client does after a restart."""
        for conn in list(self.forwarded.get(name, ())):
            asked = self.player(conn).asked.get(name)
            if asked is None:
                continue
            if entry is None:  # the table is ours now: its seat is asked here
                self.forwarded[name].discard(conn)
                conn.tables.pop(asked.table, None)
                try:
                    self.dispatch(conn, asked)
                except pr.ProtocolError as exc:
                    conn.error(exc.code, exc.detail, exc.params)
            else:
                self.command(entry["key"], conn, "msg", pr.client_line(asked))
        if entry is not None:
            if name in self.moving:
                self.tell(name, entry["summary"]["name"], "resumed")
            self.seated_with[name] = entry["owner"]

    def tell_all(self, kind: str) -> None:
        for name in list(self.forwarded):
            entry = self.remote.get(name)
            if entry is not None and self.forwarded.get(name):
                self.tell(name, entry["summary"]["name"], kind)

    def tell(self, name: str, shown: str, kind: str) -> None:
        """A notice of our own to our players at a remote table (its owner changing,
        Redis away): once, whoever says it first (the owner's own word comes after)."""
        if kind == "moving":
            self.moving.add(name)
        elif kind == "resumed":
            self.moving.discard(name)
        number = self.lobby.notice_clock.next()
        line = msg.server_line("notice", table=shown, kind=kind, name="", n=number)
        for conn in self.forwarded.get(name, ()):
            said = (name, self.token(conn))
            if self.told.get(said) != kind:  # once, whoever says it first
                self.told[said], self.told_n[said] = kind, number
                conn.send(line)


class Reconnected:
    """Told by the Redis client each time the subscription's connection is made again
    (the client keeps callbacks as weak references to methods: hence an object)."""

    def __init__(self, then):
        self.then = then

    def connected(self, _connection) -> None:
        self.then()
