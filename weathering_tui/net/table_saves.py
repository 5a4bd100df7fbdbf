"""A table's saves (`table.saves`, an object each `Table` owns): its TOML save and
journal beside it, or in a store; what is new appended to the journal, compacted,
written when finished. What reopens a table after a restart or on another server is
net/table_open.py.

Durable before visible: `durable` counts the actions on disk (in the save or the
journal); `visible` says whether a view may show the game as it stands now."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..storage.atomicfile import atomic_copy, atomic_write
from ..storage.journal import COMPACT_EVERY, FileJournal
from ..storage.savefile import to_toml, write_save

if TYPE_CHECKING:
    from ..storage.redis_store import RedisJournal, RedisStore
    from .table import Table


class TableSaves:
    """Where one table's game is kept and how far each copy holds it. It reads the table
    it belongs to (its game, its seats, its name) and writes only its own fields."""

    def __init__(self, table: Table):
        self.table = table
        self.path: Path | None = None
        self.journal: FileJournal | RedisJournal | None = None
        self.store: RedisStore | None = None  # tables kept in Redis (`serve --store`)
        self.stored = False  # (in a store) its save is there: a takeover can rebuild it
        self.key = ""  # the table's name in the store
        self.compact_wanted = False  # save once the journal append under way is done
        self.paused = False  # its journal cannot be written: no move is taken meanwhile
        self.saved = 0  # actions in the save file (its next backup: `write_compacted`)
        self.backed = 0  # actions in its backup, NAME.toml.bak (the journal keeps the rest)
        self.durable = 0  # actions on disk (in the save or the journal): what may be shown
        # A move taken back: the save must hold only what stands before anyone sees it.
        self.rewound = False
        self.rewound_at = 0  # the actions that stand after it: once saved, it may show

    @property
    def kept(self) -> FileJournal | RedisJournal:
        """The journal, asked of a table kept somewhere only (`keep_at`)."""
        assert self.journal is not None, "a table's journal before it is kept"
        return self.journal

    @property
    def unjournaled(self) -> list:
        """Actions applied but not yet on disk: no view may show them yet."""
        return self.table.game.actions[self.durable :] if self.table.game is not None else []

    @property
    def visible(self) -> bool:
        """Every action the game holds is durable, and so is a move taken back (in a
        store: the table is kept there): its views may go out."""
        stored = self.store is None or self.stored
        return not self.unjournaled and not self.rewound and stored

    @property
    def journal_due(self) -> bool:
        """Something is to write: new actions, or a compaction asked for."""
        return bool(self.unjournaled) or (self.compact_wanted and self.path is not None)

    async def write_journal(self, run) -> None:
        """Append what is new to the journal, then compact when due, each write done by
        `run(function, *args)` (the server's writer: off the event loop). Raises OSError
        if a write fails (nothing of it counts as durable)."""
        if self.unjournaled:
            start, batch = self.durable, list(self.unjournaled)
            await run(self.kept.append, start, batch)
            self.durable = start + len(batch)
        due = self.table.over or self.kept.length >= COMPACT_EVERY or self.compact_wanted
        if due and not self.unjournaled and self.path:
            await self._compact(run)

    async def _compact(self, run) -> None:
        """The save made from the game as it is now (serialized here, on the loop, so
        that no action lands half-way), then written by `run`: off the loop, after the
        appends before it and before those after it."""
        self.compact_wanted = False
        count, text = self.snapshot()
        try:
            await run(self.write_compacted, text, count)
        except OSError:
            self.compact_wanted = True  # (a failed compaction is tried again)
            raise
        self.compacted(count)

    def lease(self, owner: str, token: str) -> None:
        """The store's lease this copy of the table writes under: its journal's writes
        are fenced by it (a server that lost it can never write again)."""
        self.kept.fence = (owner, token)

    def journal_failing(self, failing: bool) -> None:
        """A write of its journal failed (and is tried again), or the writes are done."""
        self.paused = failing

    def want_compact(self) -> None:
        """Compact at the next write of the journal (one is under way, or in a store)."""
        self.compact_wanted = True

    def save_now(self) -> None:
        """Compact into the save at once (on the caller's thread: the stop, or files);
        what the journal lacks is appended first. Raises OSError."""
        self.compact_wanted = False
        if self.unjournaled and self.journal is not None:
            self.journal.append(self.durable, list(self.unjournaled))
            self.durable = len(self.table.playing.actions)
        self.save()

    def table_meta(self) -> dict:
        return {
            "name": self.table.name,
            "code": self.table.code,
            "creator": self.table.creator or "",
            "bots": self.table.bot_kind,
            "owners": [s.owner or "" for s in self.table.seats],
            "names": [s.name for s in self.table.seats],
            "open": [s.open for s in self.table.seats],
            "botted": [s.botted for s in self.table.seats],
            "hints": self.table.hints,
            # where its creator came from, counted until it ends (a finished save keeps
            # no network)
            "origin": "" if self.table.over else (self.table.origin or ""),
        }

    def keep_at(self, path: Path, store=None) -> None:
        """The table's save (and its journal beside it): the server alone names files.
        With a store, the save and the journal are kept there under the file's stem,
        and the file is written once the game is over (for `check` and replays)."""
        self.path = path
        self.store, self.key = store, path.stem
        if store is None:
            self.journal = FileJournal.beside(path)
        else:  # a new table's stream is empty: no call to Redis on the event loop
            self.journal = store.journal(self.key, fresh=self.table.game is None)

    def save(self) -> None:
        """Compact: the whole game in its TOML save (durable), then an empty journal.
        Never while a journal append is under way (the server sees to it)."""
        if self.path is not None and self.table.game is not None:
            count, text = self.snapshot()
            self.write_compacted(text, count)
            self.compacted(count)

    def snapshot(self) -> tuple[int, bytes]:
        """The save's text now, and how many actions it holds (for a store)."""
        game = self.table.playing
        game.table = self.table_meta()
        return len(game.actions), to_toml(game).encode("utf-8")

    def write_compacted(self, text: bytes, count: int) -> None:
        """The save `text` (its first `count` actions), durable, and the journal cut
        (blocking: the server's writer calls it). In a store, one transaction fenced by
        the lease, and a finished table is also written as its TOML file. In files, the
        save it replaces is kept as NAME.toml.bak (a link renamed over it), the new save
        written, then the journal keeps the lines beyond the backup only: the backup with
        the journal is the game too, should the save be damaged. A crash between two steps
        leaves lines a save holds, which reading skips; a failure raises."""
        if self.store is not None:
            self.store.write_save(self.key, text, self.kept.fence)
            if self.table.over:
                self.write_file()
            return
        path = self.path
        assert path is not None, "a table's save before it is kept"
        backup = backup_path(path)
        if count >= self.saved:  # the save on disk begins this game: it is the backup
            if atomic_copy(path, backup):
                self.backed = self.saved
        elif self.backed > count:  # a move taken back past the backup: it begins no game
            backup.unlink(missing_ok=True)
            self.backed = count
        atomic_write(path, text, True)
        if isinstance(self.journal, FileJournal):  # (in files: always)
            self.journal.keep(self.backed, count)
        self.saved = count

    def compacted(self, count: int) -> None:
        """The save holds the first `count` actions, and the journal nothing beyond them."""
        self.durable = max(self.durable, count)
        self.kept.length = 0
        self.stored = True
        if count >= self.rewound_at:
            # What stands after a move taken back is in the save (a move made since, while
            # the save was being written, goes to the journal as any other).
            self.rewound = False

    def write_file(self) -> None:
        """The usual TOML save in the tables folder (a finished table kept in a store:
        `weathering check` and replays read it)."""
        write_save(self.path, self.table.playing, backup=False, durable=True)

    def waiting_record(self) -> dict:
        """What makes this table again before its game starts (kept in a store, so that
        another server can take over a table still waiting for its players)."""
        t = self.table
        return {
            **{"name": t.name, "configuration": t.configuration},
            "open": [i for i, seat in enumerate(t.seats) if seat.open],
            **{"bots": t.bot_kind, "code": t.code, "creator": t.creator or ""},
            **{"seed": t.seed, "events": t.events, "hints": t.hints},
            "start_when_full": t.start_when_full,
            "origin": t.origin or "",
        }


def backup_path(save: Path) -> Path:
    """Where a table's previous save is kept (as `write_save` keeps a game's)."""
    return save.with_name(save.name + ".bak")


def fresh_save_path(folder: Path, name: str, taken: set[str], tables: Iterable[Table]) -> Path:
    """Where a new table named `name` keeps its save: a file name made from its name,
    numbered past any save or backup in `folder`, any name `taken` in the store (every
    server's) and any table held here (the server alone names files, and keys)."""
    stem = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "table"
    path, n = folder / f"{stem}.toml", 1
    while (
        path.exists()
        or backup_path(path).exists()  # (a backup is only ever its own table's)
        or path.stem in taken
        or any(t.saves.path == path for t in tables)
    ):
        n += 1
        path = folder / f"{stem}-{n}.toml"
    return path
