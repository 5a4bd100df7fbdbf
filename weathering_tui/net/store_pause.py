"""A store that refuses writes (a part of the server, `Server` is a `StorePause`).

Redis at its memory limit with `noeviction` refuses every write with an OOM error;
Redis gone refuses them all too. Neither is a lost lease: the lease is renewed first
(PEXPIRE is still allowed at the memory limit) and stays ours; only a lease another
server now holds is lost. Meanwhile each table this server owns is paused, its players
told the true reason once (nothing is shown before it is written, no move is taken:
`Driver.act` refuses it, saying nothing was played), they keep their seats and
connections, and the tables resume by themselves once a write goes through again.
"""

from __future__ import annotations

from .cluster_base import ALIVE_MS


def refused(exc: BaseException) -> bool:
    """A write Redis refused for want of memory (an OOM error, maybe from a script)."""
    from redis.exceptions import OutOfMemoryError

    return isinstance(exc, OutOfMemoryError) or "maxmemory" in str(exc)


class StorePause:
    """Mixed into `Server`: `store_refuses` is this server's last word on its store."""

    store_refuses = False  # the store refused the last write tried (or does not answer)

    def pause(self, table) -> None:
        """The table's players hear once that it is paused (whoever finds it first:
        a journal append that failed, or the store refusing the tick's write)."""
        if not table.pause_told:
            table.pause_told = True
            self.notice(table, "paused", "")

    def resume(self, table) -> None:
        """Once the store takes writes again and the table's journal is written."""
        if table.pause_told and not table.paused and not self.store_refuses:
            table.pause_told = False
            self.notice(table, "resumed", "")

    def writes_refused(self) -> None:
        """The store refuses writes: every table of ours in play pauses (acts refused)."""
        if not self.store_refuses:
            print("weathering serve: the store refuses writes: tables paused", flush=True)
        self.store_refuses = True
        for table in self._owned():
            self.pause(table)

    def writes_back(self) -> None:
        if not self.store_refuses:
            return
        print("weathering serve: the store takes writes again: tables resume", flush=True)
        self.store_refuses = False
        for table in self._owned():
            self.resume(table)
            self.commit(table)  # what waits for the journal is written (then shown)

    def _owned(self) -> list:
        leases = getattr(self, "leases", {})
        return [t for t in self.tables.values() if t.started and t.key in leases]

    async def probe_writes(self, alive: str) -> None:
        """The tick's one write (we are here, for our players' owners) tells whether
        the store takes writes. Refused: our alive mark is kept by PEXPIRE (allowed at
        the memory limit), so that no other server takes our players for gone."""
        try:
            await self.aredis.set(alive, "1", px=ALIVE_MS)
        except Exception as exc:
            if not refused(exc):
                raise  # Redis away: the tick loop says so
            await self.aredis.pexpire(alive, ALIVE_MS)
            self.writes_refused()
            return
        self.writes_back()
