"""What the cluster's parts share: its timings, its Lua scripts, a remote player."""

from __future__ import annotations

import os
import secrets
import socket

from . import protocol as pr

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


class RemoteConn:
    """A player connected to another server, as this server's tables see them."""

    uid = None  # (limits per uid are the player's own server's)

    def __init__(self, cluster, home: str, conn_id: str, identity: str, name: str):
        self.cluster = cluster
        self.home = home
        self.conn_id = conn_id
        self.identity = identity
        self.name = name
        self.tables: dict[str, int] = {}
        self.sent_views: dict[str, tuple] = {}
        self.auto_pass = False
        self.closed = False

    def send(self, line: bytes) -> None:
        if not self.closed:
            self.cluster.relay(self.home, self.conn_id, line)
            self.cluster.sent(self, line)

    def error(self, code: str, message: str = "", params: dict | None = None) -> None:
        fields = {"params": params} if params else {}
        self.send(pr.server_line("error", code=code, message=message, **fields))

    def close(self) -> None:
        self.closed = True
