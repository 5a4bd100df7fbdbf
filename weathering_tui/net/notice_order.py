"""Table notices in order (README § Protocol, `notice`'s `n`).

With tables on Redis a player's notices about one table come from two servers: the
table's owner (relayed through Redis, queued while Redis is away) and the player's own
server (the table paused while Redis is away, moving while its owner is gone, resumed).
A notice queued at the owner during an outage could arrive after the player's server
had said "resumed": a stale "paused" over a running table. So each notice carries an
order number `n`, and a client applies only a notice newer than the last it applied for
that table.

The number is a hybrid clock: the wall clock in microseconds, moved past every number
this server made or relayed, so that it grows strictly on one server and a server's
word said after another's relayed one comes after it; a takeover's new owner (seconds
later, its lease run out) numbers after the old one. The servers of one store share a
clock within milliseconds (NTP), which is all the order needs.
"""

from __future__ import annotations

import time

from .server_messages import Notice


class NoticeClock:
    """A server's notice numbers: strictly increasing, after every number relayed."""

    def __init__(self, now=time.time_ns):
        self.now = now
        self.last = 0

    def next(self) -> int:
        self.last = max(self.last + 1, self.now() // 1000)
        return self.last

    def seen(self, number) -> None:
        """A number another server gave a notice this one relays: ours come after it."""
        if type(number) is int and number > self.last:
            self.last = number


class NoticeOrder:
    """A client's guard: per table, the number of the last notice it applied."""

    def __init__(self):
        self.last: dict[str, int] = {}

    def fresh(self, notice: Notice) -> bool:
        """Whether a (checked) notice is newer than the last applied for its table, in
        which case it is the last applied now. A stale one is to be dropped unseen."""
        table, number = notice.table, notice.n
        if number <= self.last.get(table, -1):
            return False
        self.last[table] = number
        return True

    def clear(self) -> None:
        """A new connection: its server numbers from its own clock again."""
        self.last.clear()
