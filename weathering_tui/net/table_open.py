"""A table made again from what was kept of it: after a restart, or on another server
that takes it over (its save and journal in files, or in a store), or one still
waiting for its players (its record in a store). Every player is away until they
return."""

from __future__ import annotations

from pathlib import Path

from ..storage.journal import FileJournal, read_table, replay_journal
from ..storage.savefile import SaveError, read_save
from .protocol import clean_name
from .table import Table


def from_waiting(record: dict, path: Path, store) -> Table:
    """A table still waiting for its players, from its record in a store."""
    table = Table(
        clean_name(record["name"]),
        record["configuration"],
        record["open"],
        bot_kind=record["bots"],
        code=record["code"],
        creator=record["creator"] or None,
        seed=record["seed"],
        events=record["events"],
        start_when_full=record["start_when_full"],
        hints=record["hints"],
    )
    table.origin = _origin(record.get("origin"))
    table.saves.keep_at(path, store)
    return table


def reopen(path: Path, store=None) -> Table:
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
            return from_waiting(record, path, store)
        game = read_table(path, raw=raw, journal=store.journal(path.stem))
    table = from_game(game, path, store)
    table.saves.saved = saved
    table.saves.stored = store is not None  # (in a store: its save is there)
    return table


def from_game(game, path: Path, store=None) -> Table:
    """The table a game read back makes, every player away until they return."""
    meta = game.table
    setup = game.setup
    open_seats = [i for i, o in enumerate(meta.get("open", [])) if o]
    table = Table(
        clean_name(meta.get("name", path.stem)),
        setup.configuration,
        open_seats,
        bot_kind=meta.get("bots", "heuristic"),
        code=meta.get("code", ""),
        creator=meta.get("creator") or None,
        seed=setup.seed,
        events=setup.events,
        hints=bool(meta.get("hints", False)),
    )
    table.game = game
    table.origin = _origin(meta.get("origin"))  # (none in an older save: by creator)
    table.saves.keep_at(path, store)
    table.saves.durable = len(game.actions)
    owners, names = meta.get("owners", []), meta.get("names", [])
    botted = meta.get("botted", [])
    for i, seat in enumerate(table.seats):
        seat.owner = owners[i] if i < len(owners) and owners[i] else None
        seat.name = names[i] if i < len(names) else ""
        seat.botted = bool(botted[i]) if i < len(botted) else seat.owner is None
        seat.away = seat.owner is not None
    table._make_bots()
    return table


def _origin(value) -> str | None:
    """A table's origin as kept: a network or a user, or None."""
    return value if isinstance(value, str) and value else None
