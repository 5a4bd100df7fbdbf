"""A table's journal: every action appended, and on disk, before anyone sees its result.

The table server applies an action, appends it here (one JSON line, fsync'd), and only
then sends the views that show what it did. The TOML save is the journal compacted:
written now and then (start, end, every COMPACT_EVERY actions, stop), after which the
journal keeps only the lines beyond the save it replaced, kept as its backup (`keep`):
should the save be damaged, the backup with the journal is the game too. Reading a
table back is the save plus the journal's actions beyond it, so `kill -9` at any
instant loses no action that anyone saw.

`Journal` is what a table writes its actions to and reads them back from: `FileJournal`
keeps `NAME.journal` beside `NAME.toml`; `RedisJournal` (storage/redis_store.py) is a
Redis stream, emptied in the transaction that writes the save. Each line or entry is an
action and its index `n` (a file's line: `{"n": INDEX, "action": {…}}`): INDEX is the
action's place in the game, so a line already in the save is skipped and a gap is
refused. A last line cut by a crash was never synced, so never shown: it is
left out.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from pathlib import Path
from typing import Protocol

from ..engine import IllegalAction, why_illegal
from ..engine.wire import action_from_data, action_to_data
from .atomicfile import atomic_write, fsync_dir
from .savefile import SavedGame, SaveError, read_save

COMPACT_EVERY = 200  # journal lines before the save is written again


class Journal(Protocol):
    def append(self, start: int, actions: list) -> None:
        """Actions `start`, `start + 1`, … — durable when this returns (blocking: the
        server calls it off its event loop)."""

    def entries(self) -> list[tuple[int, dict]]:
        """Every (index, action data) kept, in order."""

    @property
    def length(self) -> int: ...


def lines(start: int, actions: list) -> bytes:
    return b"".join(
        json.dumps({"n": start + i, "action": action_to_data(a)}, separators=(",", ":")).encode()
        + b"\n"
        for i, a in enumerate(actions)
    )


class FileJournal:
    """`NAME.journal` beside the table's save: appended, fsync'd, and at each compaction
    cut to the lines beyond the save's backup (`keep`)."""

    fence: tuple[str, str] | None = None  # (never fenced: one server writes its files)

    def __init__(self, path: Path):
        self.path = Path(path)
        self._drop_torn_tail()
        self.length = len(self.entries()) if self.path.exists() else 0

    def _drop_torn_tail(self) -> None:
        """A crash mid-append leaves a last line without its end of line (never synced,
        never shown): cut it off, so that the next append starts a line of its own."""
        try:
            raw = self.path.read_bytes()
        except (FileNotFoundError, PermissionError):
            return
        if raw and not raw.endswith(b"\n"):
            with contextlib.suppress(OSError):
                os.truncate(self.path, raw.rfind(b"\n") + 1)

    @classmethod
    def beside(cls, save: Path) -> FileJournal:
        return cls(Path(save).with_suffix(".journal"))

    def append(self, start: int, actions: list) -> None:
        """Whole lines or nothing: a short write is carried on until every byte is
        written; a write or fsync that fails (ENOSPC, EFBIG, EIO) cuts the file back to
        its last whole line and raises, so the caller shows nothing and tries again
        later on a clean end."""
        data = lines(start, actions)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            end = os.fstat(fd).st_size
            try:
                written = 0
                while written < len(data):
                    done = os.write(fd, data[written:])
                    if done <= 0:
                        raise OSError(errno.ENOSPC, "the journal took no more bytes")
                    written += done
                os.fsync(fd)
            except OSError:
                _cut_back(fd, end)
                raise
        finally:
            os.close(fd)
        if end == 0:  # a file just made: its name too must outlive a power loss
            fsync_dir(self.path.parent)
        self.length += len(actions)

    def entries(self) -> list[tuple[int, dict]]:
        """The lines kept. A last line without its end of line was cut by a crash before
        it was synced, so never shown: it is left out. Any other line that does not
        read is damage, never silently dropped: a SaveError naming the file and line."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return []
        found = []
        parts = raw.split(b"\n")
        for number, line in enumerate(parts, 1):
            if not line:
                continue
            try:
                entry = json.loads(line)
                found.append((int(entry["n"]), entry["action"]))
            except (ValueError, KeyError, TypeError):
                if number == len(parts):  # no end of line after it: a write cut short
                    break
                raise SaveError(self.path, "journal_line_is_damaged", p0=number) from None
        return found

    def keep(self, start: int, end: int) -> None:
        """Only the lines of actions `start` to `end` - 1: the save now holds up to
        `end`, and its backup (NAME.toml.bak) up to `start`, so that the backup with
        this journal is still the game (a move taken back, from `end` on, goes). The
        file is written anew and renamed over (durable, atomic); a failure raises. A
        line that does not read is left out: the save holds it, and a backup that
        needed it is refused for the gap when read."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            raw = b""
        kept = b"".join(line + b"\n" for line in raw.split(b"\n") if start <= _index(line) < end)
        if kept != raw:
            atomic_write(self.path, kept, True)
        self.length = 0


def _index(line: bytes) -> int:
    """A journal line's action index; -1 for a line that does not read."""
    try:
        return int(json.loads(line)["n"])
    except (ValueError, KeyError, TypeError):
        return -1


def _cut_back(fd: int, end: int) -> None:
    """Truncate to `end` (the last whole line) after a failed append; if even that
    fails, the torn bytes are left for `entries` to refuse, never to skip silently."""
    try:
        os.ftruncate(fd, end)
        os.fsync(fd)
    except OSError:
        pass


def replay_journal(path: Path, game: SavedGame, journal: Journal) -> int:
    """Apply the journal's actions beyond the save to `game`; how many. A gap, or an
    action the game refuses, is a SaveError naming the journal line."""
    applied = 0
    for index, data in journal.entries():
        if index < len(game.actions):
            continue
        if index != len(game.actions):
            raise SaveError(
                path, "journal_action_follows_action", p0=index, p1=len(game.actions) - 1
            )
        try:
            action = action_from_data(data)
        except Exception:  # noqa: BLE001 - any shape error is the file's
            raise SaveError(path, "journal_action_is_unreadable", p0=index) from None
        refusal = why_illegal(game.state, action)
        if refusal is not None:
            raise SaveError(path, "journal_action_is_illegal", p0=index, p1=refusal)
        try:
            game.play(action)
        except IllegalAction as exc:
            raise SaveError(path, "journal_action", p0=index, p1=exc) from None
        applied += 1
    return applied


def read_table(path: Path, raw: bytes | None = None, journal: Journal | None = None):
    """A table's save with its journal beside it: the game as far as anyone saw it.
    (`raw` and `journal`: a table kept elsewhere, which `path` only names.)"""
    path = Path(path)
    game = read_save(path, raw=raw)
    replay_journal(path, game, journal if journal is not None else FileJournal.beside(path))
    return game
