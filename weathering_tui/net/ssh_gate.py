"""Who may hold a connection at the SSH door, counted from the TCP accept to the close.

Every connection counts, logged in or not: at most PER_NETWORK from one network and
CONNECTIONS in all (a logged-in connection that opens no session was once unlimited,
and a stranger with one key held a thousand and ran the server out of descriptors).
Those not logged in yet count again, at most PRE_LOGIN per network and PRE_LOGIN_TOTAL
in all, each for LOGIN_WITHIN seconds at most; past PRE_LOGIN_EARLY of them, a new
connection is dropped at random, more often as they fill (as OpenSSH's MaxStartups),
so that a few networks reopening silent sockets cannot lock every player out for sure.
A logged-in connection holding no session is closed after SESSION_WITHIN seconds.

A network is what one party has many of for little: an IPv4 /24, an IPv6 /56 (what a
provider commonly gives one customer: a /64 each was sixteen networks for anyone with an
ordinary block). Every loopback address (127.0.0.0/8, ::1, and v4 on a v6 socket) is one
network, "this machine": any local user can pick among 16 million 127.x addresses, and
one each let a single user fill the door (1 login in 10 got in). Sessions (each a
`join` process) start at SESSION_STARTS a second per network on average, SESSION_BURST
at once.
"""

from __future__ import annotations

import asyncio
import ipaddress
import random

import asyncssh

from .connection import Admission

CONNECTIONS = 256  # TCP connections held at once, logged in or not
PER_NETWORK = 16  # from one network (sessions: see Door.max_per_address)
PRE_LOGIN = 8  # not logged in yet, from one network
PRE_LOGIN_TOTAL = 128  # and from everywhere
PRE_LOGIN_EARLY = 32  # past this many waiting, a new connection may be dropped
LOGIN_WITHIN = 10  # seconds from TCP connect to login
SESSION_WITHIN = 10.0  # seconds a logged-in connection may hold no session
# Session channels open at once on one connection, whether they ask for anything or not
# (a connection opened 29,000 that never did: 190 MB, and everyone slowed; OpenSSH's
# MaxSessions is 10). A player needs one.
CHANNELS_PER_CONNECTION = 4
SESSION_STARTS = 0.5  # sessions started a second per network, on average
SESSION_BURST = 8  # and at once (a game night's players arriving together)


def network(address: str) -> str:
    """The network an address counts in (see the module's note)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    prefix = 24 if ip.version == 4 else 56
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


class Gate:
    """The door's counts. `arrive` on accept (False: abort it), `logged_in` once, then
    `leave` on close; `may_start` before each session."""

    def __init__(self, rng: random.Random | None = None):
        self.connected = Admission(CONNECTIONS, own_uid=None, per_uid=PER_NETWORK)
        self.waiting = Admission(PRE_LOGIN_TOTAL, own_uid=None, per_uid=PRE_LOGIN)
        self.rng = rng or random.Random()
        self.starts: dict[str, tuple[float, float]] = {}  # network -> (tokens, when)

    def arrive(self, net: str) -> bool:
        if self._early_drop():
            return False
        if self.connected.admit(net) is not None:
            return False
        if self.waiting.admit(net) is not None:
            self.connected.release(net)
            return False
        return True

    def _early_drop(self) -> bool:
        waiting = self.waiting.total
        if waiting < PRE_LOGIN_EARLY:
            return False
        span = PRE_LOGIN_TOTAL - PRE_LOGIN_EARLY + 1
        return self.rng.random() < (waiting - PRE_LOGIN_EARLY + 1) / span

    def logged_in(self, net: str) -> None:
        self.waiting.release(net)

    def leave(self, net: str, waiting: bool) -> None:
        if waiting:
            self.waiting.release(net)
        self.connected.release(net)

    def may_start(self, net: str, now: float) -> bool:
        """A session (a `join` process) may start for `net` now: a token bucket, so that
        opening and closing sessions in a loop cannot spawn processes without end (one
        address made 1,195 in 25 s; a player's first screen took 2.6 s instead of 0.8)."""
        tokens, when = self.starts.get(net, (float(SESSION_BURST), now))
        tokens = min(float(SESSION_BURST), tokens + (now - when) * SESSION_STARTS)
        if tokens < 1.0:
            self.starts[net] = (tokens, now)
            return False
        self.starts[net] = (tokens - 1.0, now)
        if len(self.starts) > 4096:  # (forget networks whose bucket is full again)
            full = [
                n
                for n, (t, w) in self.starts.items()
                if t + (now - w) * SESSION_STARTS >= SESSION_BURST
            ]
            for n in full:
                del self.starts[n]
        return True


def fingerprint(key) -> str:
    return key.get_fingerprint("sha256")


class Login(asyncssh.SSHServer):
    """One SSH connection: counted at the door from accept (ssh_gate), any public key
    (unless the authorized ones are listed), never a password."""

    def __init__(self, door):
        self.door = door
        self.channels = 0  # session channels open on this connection
        self.sessions = 0  # and of those, the ones running a join (Door.session counts)

    def connection_made(self, conn):
        self.conn = conn
        self.net = network(conn.get_extra_info("peername", ("", 0))[0])
        # Counted from accept (ssh_gate): one refused is closed before any work.
        self.counted = self.waiting = self.door.gate.arrive(self.net)
        self.watch = None
        if not self.counted:
            conn.abort()

    def connection_lost(self, exc):
        if self.watch is not None:
            self.watch.cancel()
        if self.counted:
            self.door.gate.leave(self.net, self.waiting)
            self.counted = self.waiting = False

    def auth_completed(self) -> None:
        if self.waiting:  # logged in: no longer waiting at the door
            self.door.gate.logged_in(self.net)
            self.waiting = False
        self._check_later()

    def _check_later(self) -> None:
        loop = asyncio.get_running_loop()
        self.watch = loop.call_later(SESSION_WITHIN, self._holds_a_session)

    def _holds_a_session(self) -> None:
        """A connection with no session holds a slot for nothing: closed."""
        if not self.sessions:
            self.watch = None
            self.conn.close()
        else:
            self._check_later()

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key) -> bool:
        if self.door.authorized is not None:
            address = self.conn.get_extra_info("peername", ("", 0))[0]
            if self.door.authorized.validate(key, "", address) is None:
                return False  # not listed (a listed key without options gives {})
        self.conn.set_extra_info(weathering_key=fingerprint(key))
        return True

    def session_requested(self):
        if self.channels >= CHANNELS_PER_CONNECTION:
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "too many sessions on one connection"
            )
        self.channels += 1
        return Channel(self, self.door.session)


class Channel(asyncssh.SSHServerProcess):
    """A session channel of a `Login`: the door's process, counted while it is open."""

    def __init__(self, login: Login, process_factory):
        super().__init__(process_factory, None, 0, False)  # no sftp, no scp
        self.login = login

    def connection_lost(self, exc) -> None:
        self.login.channels -= 1
        super().connection_lost(exc)
