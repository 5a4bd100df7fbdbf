"""What the cluster's parts share: its timings, its Lua scripts, its link to Redis (with
what waits to be added there), a remote player."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from typing import Any

from . import protocol as pr
from . import server_messages as msg

LEASE_MS = 3000  # a table whose owner stops renewing is taken over after this
ALIVE_MS = 10000  # a server not seen for this long: its players have left our tables
TICK = 1.0  # seconds between two looks at leases, owners and the lobby
FINISHED_KEPT_S = 7 * 24 * 3600  # a finished table's save and journal, kept for export
OUT_KEEP = 10000  # entries kept in a table's command stream

RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
TABLE_MESSAGES = (pr.TakeSeat, pr.Spectate, pr.Act, pr.Undo, pr.Chat, pr.Leave, pr.Start)


def server_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


def refused(exc: BaseException) -> bool:
    """A write Redis refused for want of memory (an OOM error, maybe from a script)."""
    from redis.exceptions import OutOfMemoryError

    return isinstance(exc, OutOfMemoryError) or "maxmemory" in str(exc)


class Link:
    """This server on Redis: its id, the store, the asyncio client (once started), and
    the outbox — (stream, fields) to add or (channel, line) to publish, in order, by the
    cluster's out loop, off the path of any message."""

    def __init__(self, store):
        self.store = store
        self.server_id = server_id()
        # The asyncio client (`redis.asyncio.Redis`), made as the cluster starts: only
        # the loops started after it use it. (Typed Any: redis-py types its commands'
        # results as `Awaitable | Any`, for its blocking and asyncio clients alike.)
        self.aredis: Any = None
        self.outbox: list[tuple[str, dict | bytes]] = []
        self.outbox_wake = asyncio.Event()
        self.closing = False  # the stop: every loop ends at its next turn

    def add(self, target: str, fields: dict | bytes) -> None:
        self.outbox.append((target, fields))
        self.outbox_wake.set()

    def token(self) -> str:
        """A lease's value: this server, and this taking of it (a lease lost and taken
        again is another token: what still holds the old one can write nothing)."""
        return f"{self.server_id}/{secrets.token_hex(6)}"


class RemoteConn:
    """A player connected to another server, as this server's tables see them."""

    uid = None  # (limits per uid are the player's own server's)

    def __init__(self, link: Link, sent, home: str, conn_id: str, identity: str, name: str):
        self.link = link
        self.sent = sent  # the server's hook for every line sent (tests)
        self.home = home
        self.conn_id = conn_id
        self.identity = identity
        self.name = name
        self.tables: dict[str, int] = {}
        self.sent_views: dict[str, tuple] = {}
        self.auto_pass = False
        self.closed = False

    @property
    def who(self) -> str:
        """Its identity, as `Connection.who` (its own server had its hello)."""
        return self.identity

    def send(self, line: bytes) -> None:
        if not self.closed:  # published on its server's channel (read by its relay)
            channel = self.link.store.key("server", self.home, "out")
            self.link.add(channel, self.conn_id.encode() + b" " + line)
            self.sent(self, line)

    def error(self, code: str, message: str = "", params: dict | None = None) -> None:
        fields = {"params": params} if params else {}
        self.send(msg.server_line("error", code=code, message=message, **fields))

    def close(self) -> None:
        self.closed = True
