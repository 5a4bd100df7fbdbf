"""A table's saves (`Table`'s base): its TOML save and journal beside it, or in a store;
what is new appended to the journal, compacted, written when finished, and what reopens
it after a restart or on another server (`Table.reopen`, `Table.from_waiting`).

Durable before visible: `durable` counts the actions on disk (in the save or the
journal); `visible` says whether a view may show the game as it stands now."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from ..engine import SPECTATOR, view_for
from ..storage.atomicfile import atomic_copy, atomic_write
from ..storage.journal import COMPACT_EVERY, FileJournal, read_table, replay_journal
from ..storage.savefile import SaveError, read_save, to_toml, write_save
from .protocol import clean_name

if TYPE_CHECKING:
    from ..storage.redis_store import RedisJournal, RedisStore
    from ..storage.savefile import SavedGame
    from .table import Seat


class TableSaves:
    """`Table`'s base: its state lives in `Table.__init__`; what of it the saves read
    and write is declared here."""

    # The table's, kept in its save (`table_meta`, `waiting_record`).
    name: str
    configuration: str
    seats: list[Seat]
    bot_kind: str
    code: str
    creator: str | None
    origin: str | None
    seed: int
    events: bool
    hints: bool
    start_when_full: bool
    game: SavedGame | None
    finished_at: float
    # Its saves: where, and how far each holds the game.
    path: Path | None
    journal: FileJournal | RedisJournal | None
    store: RedisStore | None
    key: str
    stored: bool
    compact_wanted: bool
    paused: bool
    saved: int
    backed: int
    durable: int
    rewound: bool
    rewound_at: int

    if TYPE_CHECKING:  # (`Table`'s own)

        def __init__(self, name: str, configuration: str, open_seats: Iterable[int], **kw: Any):
            pass

        @property
        def over(self) -> bool:
            raise NotImplementedError

        def _make_bots(self) -> None:
            pass

    @property
    def playing(self) -> SavedGame:
        """The game, asked of a table started only."""
        assert self.game is not None, "a table's game before it started"
        return self.game

    @property
    def kept(self) -> FileJournal | RedisJournal:
        """The journal, asked of a table kept somewhere only (`keep_at`)."""
        assert self.journal is not None, "a table's journal before it is kept"
        return self.journal

    @property
    def unjournaled(self) -> list:
        """Actions applied but not yet on disk: no view may show them yet."""
        return self.game.actions[self.durable :] if self.game is not None else []

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
        due = self.over or self.kept.length >= COMPACT_EVERY or self.compact_wanted
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

    def mark_finished(self, now: float) -> None:
        """The game's end is durable (or read back) at `now`: the lobby keeps it a while."""
        if self.over and self.finished_at == float("inf"):
            self.finished_at = now

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
            self.durable = len(self.playing.actions)
        self.save()

    def table_meta(self) -> dict:
        return {
            "name": self.name,
            "code": self.code,
            "creator": self.creator or "",
            "bots": self.bot_kind,
            "owners": [s.owner or "" for s in self.seats],
            "names": [s.name for s in self.seats],
            "open": [s.open for s in self.seats],
            "botted": [s.botted for s in self.seats],
            "hints": self.hints,
            # where its creator came from, counted until it ends (a finished save keeps
            # no network)
            "origin": "" if self.over else (self.origin or ""),
        }

    def summary(self, spectators: int = 0) -> dict:
        """What the lobby shows of the table (all public)."""
        where: dict[str, Any] = {"stage": "waiting"}
        if self.game is not None:
            public = view_for(self.game.state, SPECTATOR, with_log=False)
            where = {
                "stage": public.stage,
                "phase": public.phase,
                "round": public.round_in_phase,
                "rounds": public.rounds_per_phase,
                "hp": public.hp,
            }
            if public.outcome is not None:
                where["outcome"] = public.outcome.band
        return {
            "name": self.name,
            "configuration": self.configuration,
            "code": bool(self.code),
            "seats": [
                {
                    "side": s.side,
                    "open": s.open,
                    "player": s.name if s.owner else "",
                    "bot": s.botted,
                    "away": s.away,
                }
                for s in self.seats
            ],
            "spectators": spectators,
            "hints": self.hints,
            "start_when_full": self.start_when_full,
            **where,
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
            self.journal = store.journal(self.key, fresh=self.game is None)

    def save(self) -> None:
        """Compact: the whole game in its TOML save (durable), then an empty journal.
        Never while a journal append is under way (the server sees to it)."""
        if self.path is not None and self.game is not None:
            count, text = self.snapshot()
            self.write_compacted(text, count)
            self.compacted(count)

    def snapshot(self) -> tuple[int, bytes]:
        """The save's text now, and how many actions it holds (for a store)."""
        game = self.playing
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
            if self.over:
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
        write_save(self.path, self.playing, backup=False, durable=True)

    def waiting_record(self) -> dict:
        """What makes this table again before its game starts (kept in a store, so that
        another server can take over a table still waiting for its players)."""
        open_seats = [i for i, seat in enumerate(self.seats) if seat.open]
        return {
            **{"name": self.name, "configuration": self.configuration, "open": open_seats},
            **{"bots": self.bot_kind, "code": self.code, "creator": self.creator or ""},
            **{"seed": self.seed, "events": self.events, "hints": self.hints},
            "start_when_full": self.start_when_full,
            "origin": self.origin or "",
        }

    @classmethod
    def from_waiting(cls, record: dict, path: Path, store) -> Self:
        table = cls(
            clean_name(record["name"]),
            record["configuration"],
            record["open"],
            bots=record["bots"],
            code=record["code"],
            creator=record["creator"] or None,
            seed=record["seed"],
            events=record["events"],
            start_when_full=record["start_when_full"],
            hints=record["hints"],
        )
        table.origin = _origin(record.get("origin"))
        table.keep_at(path, store)
        return table

    @classmethod
    def reopen(cls, path: Path, store=None) -> Self:
        """A table back from its autosave, every player away until they return. With a
        store, from the save and journal kept there under the file's stem."""
        saved = 0
        if store is None:  # the save and the journal's actions beyond it
            game = read_save(path)
            saved = len(game.actions)
            replay_journal(path, game, FileJournal.beside(path))
        else:
            raw = store.read_save(path.stem)
            if raw is None:
                record = store.read_waiting(path.stem)  # a table not started yet
                if record is None:
                    raise SaveError(path, "not_in_the_store")
                return cls.from_waiting(record, path, store)
            game = read_table(path, raw=raw, journal=store.journal(path.stem))
        table = cls.from_game(game, path, store)
        table.saved = saved
        table.stored = store is not None  # (in a store: its save is there)
        return table

    @classmethod
    def from_game(cls, game, path: Path, store=None) -> Self:
        """The table a game read back makes, every player away until they return."""
        meta = game.table
        setup = game.setup
        open_seats = [i for i, o in enumerate(meta.get("open", [])) if o]
        table = cls(
            clean_name(meta.get("name", path.stem)),
            setup.configuration,
            open_seats,
            bots=meta.get("bots", "heuristic"),
            code=meta.get("code", ""),
            creator=meta.get("creator") or None,
            seed=setup.seed,
            events=setup.events,
            hints=bool(meta.get("hints", False)),
        )
        table.game = game
        table.origin = _origin(meta.get("origin"))  # (none in an older save: by creator)
        table.keep_at(path, store)
        table.durable = len(game.actions)
        owners, names = meta.get("owners", []), meta.get("names", [])
        botted = meta.get("botted", [])
        for i, seat in enumerate(table.seats):
            seat.owner = owners[i] if i < len(owners) and owners[i] else None
            seat.name = names[i] if i < len(names) else ""
            seat.botted = bool(botted[i]) if i < len(botted) else seat.owner is None
            seat.away = seat.owner is not None
        table._make_bots()
        return table


def backup_path(save: Path) -> Path:
    """Where a table's previous save is kept (as `write_save` keeps a game's)."""
    return save.with_name(save.name + ".bak")


def _origin(value) -> str | None:
    """A table's origin as kept: a network or a user, or None."""
    return value if isinstance(value, str) and value else None
