"""A table whose save does not read after a restart: told, never hidden.

The server's log names the file and the reason. The table comes back from its backup
(NAME.toml.bak, the save before the last compaction) and the journal beside the save,
which keeps every line beyond that backup (`TableSaves.write_compacted`), if those replay
and check; the damaged save is then kept as NAME.toml.damaged and the restored game
written over it. Otherwise the lobby lists the table as damaged, with the reason, and
refuses whoever would sit at it or watch it (`Lobby.table`).
"""

from __future__ import annotations

from pathlib import Path

from ..engine import sides_of
from ..storage.atomicfile import atomic_copy, atomic_write
from ..storage.journal import FileJournal, replay_journal
from ..storage.savefile import SaveError, read_save
from ..storage.savemeta import read_document
from . import protocol as pr
from . import table_open
from .table import Table
from .table_saves import backup_path

REASON_MAX = 200  # characters of a reason the lobby shows


def table_files(folder: Path) -> list[Path]:
    """The tables' saves in `folder`: each NAME.toml, and the NAME.toml of a backup left
    without its save (reopening it says so, and restores it from that backup)."""
    saves = set(folder.glob("*.toml"))
    saves |= {p.with_name(p.name.removesuffix(".bak")) for p in folder.glob("*.toml.bak")}
    return sorted(saves)


def log(line: str) -> None:
    """One line of the server's log."""
    print(f"weathering serve: {line}", flush=True)


def reopen_file(path: Path, store=None) -> tuple[Table | None, dict | None]:
    """The table saved at `path`, restored from its backup if its save does not read;
    else None and what the lobby lists of it, damaged. (Kept in a store: the table,
    or None, logged.)"""
    try:
        return table_open.reopen(path, store), None
    except SaveError as exc:
        problem = exc
    if store is not None:
        log(f"table not reopened: {problem}")
        return None, None
    log(f"table save damaged: {problem}")
    backup = backup_path(path)
    try:
        game = read_save(backup)
        backed = len(game.actions)
        replay_journal(backup, game, FileJournal.beside(path))
    except SaveError as exc:
        log(f"no backup to restore it from: {exc}")
        return None, damaged_summary(path, problem.problem)
    table = table_open.from_game(game, path)
    count, text = table.saves.snapshot()
    kept = path.with_name(path.name + ".damaged")
    try:
        copied = atomic_copy(path, kept)  # (the damaged save, to look into)
        atomic_write(path, text, True)  # the journal keeps what follows the backup
    except OSError as exc:
        log(f"restored from {backup.name} but not written: {exc}")
        return None, damaged_summary(path, f"{problem.problem} (restore not written: {exc})")
    table.saves.saved, table.saves.backed = count, backed
    journal = FileJournal.beside(path).path.name
    where = f"the damaged save is kept as {kept.name}" if copied else "it had no save"
    log(f"table {table.name} restored from {backup.name} and {journal} ({count} actions); {where}")
    return table, None


def damaged_summary(path: Path, reason: str) -> dict:
    """What the lobby shows of a damaged table, as a `Table.summary` with `stage`
    "damaged" and `damaged`: the reason (never the server's paths). Its name, seats and
    players come from the save's [meta], or its backup's, when either parses."""
    meta = _table_meta(path)
    found = meta.get("table")
    table = found if isinstance(found, dict) else {}
    configuration = meta.get("configuration")
    if not isinstance(configuration, str) or configuration not in pr.CONFIGURATIONS:
        configuration = "?"
    return {
        "name": pr.clean_name(_text(table.get("name")) or path.stem),
        "configuration": configuration,
        "code": bool(table.get("code")),
        "seats": _seats(configuration, table),
        "spectators": 0,
        "hints": False,
        "start_when_full": False,
        "stage": "damaged",
        "damaged": pr.clean(reason, REASON_MAX) or "?",
    }


def _table_meta(path: Path) -> dict:
    for where in (path, backup_path(path)):
        try:
            meta = read_document(where)["meta"]
        except SaveError:
            continue
        if isinstance(meta, dict):
            return meta
    return {}


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _seats(configuration: str, table: dict) -> list[dict]:
    """The seats as a lobby lists them: each held one under its player's name, away."""
    if configuration == "?":
        return []
    eco, lob = sides_of(configuration)
    sides = ["ecologist"] * eco + ["lobbyist"] * lob

    def item(key: str, index: int):
        values = table.get(key)
        return values[index] if isinstance(values, list) and index < len(values) else None

    seats = []
    for index, side in enumerate(sides):
        held = bool(_text(item("owners", index)))
        seats.append(
            {
                "side": side,
                "open": bool(item("open", index)),
                "player": pr.clean_name(_text(item("names", index))) if held else "",
                "bot": bool(item("botted", index)),
                "away": held,
            }
        )
    return seats
