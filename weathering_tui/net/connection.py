"""One client of the table server: its socket, its buffers, its rate and its limits.

Limits are counted from `accept`, before any hello: a peer (a uid) that opens sockets
and never speaks holds at most PER_UID of them, and each must say hello within
HELLO_WITHIN, so one local user cannot fill the server for everyone else.
"""

from __future__ import annotations

import contextlib
import pwd
import socket
import struct
import time

from . import server_messages as msg

MAX_BUFFER = 1024 * 1024  # a client that reads slower than this is dropped
RATE = 50.0  # messages a second, on average (a scripted bot included)
BURST = 100  # messages in a burst
MAX_ERRORS = 30  # refused messages before the connection is closed
HELLO_WITHIN = 3.0  # seconds to say hello, from accept
ERROR_FADE = 10.0  # seconds for one refusal to be forgiven
PER_UID = 16  # connections of one local user at once, hello or not (the server's own
# user — the SSH door's join processes, the operator — is limited per identity instead)


def peer_uid(sock: socket.socket | None) -> int | None:
    if sock is None or not hasattr(socket, "SO_PEERCRED"):
        return None
    try:
        data = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except OSError:
        return None
    return struct.unpack("3i", data)[1]


def user_name(uid: int | None) -> str:
    if uid is None:
        return "?"
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid{uid}"


# Whom a connection comes from: a uid on the socket (None: unknown), an address at the
# SSH door.
Peer = int | str | None


class Admission:
    """Who may open one more connection now, counted from accept: per peer (a uid on
    the socket, an address at the SSH door) and in all; `own_uid`'s peer is counted
    in the total only."""

    def __init__(self, max_connections: int, own_uid, per_uid: int = PER_UID):
        self.max_connections = max_connections
        self.own_uid = own_uid
        self.per_uid = per_uid
        self.open: dict[Peer, int] = {}  # peer -> connections open now
        self.total = 0

    def admit(self, uid: Peer) -> str | None:
        """None when the connection may stay (it is counted), else why not."""
        if self.total >= self.max_connections:
            return "too many connections"
        if uid != self.own_uid and self.open.get(uid, 0) >= self.per_uid:
            return "too many connections of yours"
        self.open[uid] = self.open.get(uid, 0) + 1
        self.total += 1
        return None

    def release(self, uid: Peer) -> None:
        self.total -= 1
        self.open[uid] -= 1
        if not self.open[uid]:
            del self.open[uid]


class Connection:
    def __init__(self, server, reader, writer):
        self.server = server
        self.reader = reader
        self.writer = writer
        self.uid = peer_uid(writer.get_extra_info("socket"))
        self.identity: str | None = None
        self.name = ""
        self.origin: str | None = None  # where tables are counted (see Hello.origin)
        self.tables: dict[str, int] = {}  # table name -> seat (SPECTATOR to watch)
        # table -> (view without log, log entries sent, window clock, the view's data)
        self.sent_views: dict[str, tuple] = {}
        self.auto_pass = False
        self.tokens = float(BURST)
        self.stamp = time.monotonic()
        self.errors = 0.0
        self.error_stamp = time.monotonic()
        self.last_list = 0.0
        self.list_due = False  # a lobby answer is on its way (requests come together)
        self.closed = False

    @property
    def who(self) -> str:
        """The identity of a connection past its hello: every message but the first
        comes after a hello that named it (the server closes one that did not)."""
        assert self.identity is not None, "a message before a hello"
        return self.identity

    def send(self, line: bytes) -> None:
        if self.closed:
            return
        transport = self.writer.transport
        if transport.is_closing():
            self.closed = True
            return
        if transport.get_write_buffer_size() > MAX_BUFFER:
            self.close()  # a client that does not read is not allowed to grow our memory
            return
        self.writer.write(line)
        self.server.sent(self, line)

    def error(self, code: str, message: str = "", params: dict | None = None) -> None:
        fields = {"params": params} if params else {}
        self.send(msg.server_line("error", code=code, message=message, **fields))
        self.count_error()

    def count_error(self) -> None:
        """Refusals add up, and fade a refusal every ERROR_FADE seconds: a long game's
        few stale answers never add up to abuse (those of another server's tables too)."""
        now = time.monotonic()
        self.errors = max(0.0, self.errors - (now - self.error_stamp) / ERROR_FADE) + 1
        self.error_stamp = now
        if self.errors > MAX_ERRORS:
            self.close()

    def allow(self) -> bool:
        """Token bucket: RATE messages a second, bursts of BURST."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def close(self) -> None:
        """Close at once: a client that does not read would hold a flush forever."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                self.writer.transport.abort()
            self.server.connections.discard(self)
