"""Reading a save file's document and listing a saves folder: light imports only, so
that the title screen and `weathering list` start fast."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

FORMAT = "weathering-save"
FORMAT_VERSION = 2
# Format 1 recorded games under earlier rules (allies asked in reaction windows, the
# mulligan as one action): its actions do not replay under these rules.
OLDEST_READABLE = 2
MAX_BYTES = 4 * 1024 * 1024
TOP_KEYS = {"format", "format_version", "meta", "setup", "actions", "state"}


class SaveError(Exception):
    """A save file that cannot be used; the message names the file and the problem."""

    def __init__(self, path, problem: str):
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{path}: {problem}")


def _read_bytes(path: Path) -> bytes:
    try:
        info = path.lstat()
    except FileNotFoundError:
        raise SaveError(path, "no such file") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read it: {exc.strerror}") from None
    if stat.S_ISLNK(info.st_mode):
        raise SaveError(path, "is a symbolic link; load the file it points to instead")
    if stat.S_ISDIR(info.st_mode):
        raise SaveError(path, "is a folder, not a save file")
    if not stat.S_ISREG(info.st_mode):
        raise SaveError(path, "is not a regular file")
    if info.st_size == 0:
        raise SaveError(path, "is empty")
    if info.st_size > MAX_BYTES:
        raise SaveError(path, f"is {info.st_size} bytes, more than a save can be ({MAX_BYTES})")
    try:
        return path.read_bytes()
    except PermissionError:
        raise SaveError(path, "cannot be read: permission denied") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read it: {exc.strerror}") from None


def read_document(path) -> dict:
    """Parse the TOML and check its format name and version (no replay)."""
    path = Path(path)
    raw = _read_bytes(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(path, "is not a text file (not UTF-8): not a Weathering save") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SaveError(path, f"is not valid TOML ({exc}); the file may be truncated") from None
    if document.get("format") != FORMAT:
        raise SaveError(path, f"is not a Weathering save (format is {document.get('format')!r})")
    version = document.get("format_version")
    if not isinstance(version, int):
        raise SaveError(path, "format_version is missing or not a whole number")
    if version > FORMAT_VERSION:
        raise SaveError(
            path,
            f"was written by a newer Weathering (save format {version}); "
            f"this version reads format {FORMAT_VERSION} and older",
        )
    document = migrate(document, path)
    extra = set(document) - TOP_KEYS
    if extra:
        raise SaveError(path, f"unknown keys: {', '.join(sorted(extra))}")
    missing = TOP_KEYS - set(document)
    if missing:
        raise SaveError(path, f"missing: {', '.join(sorted(missing))}")
    return document


# Each entry turns a document of version N into version N + 1.
MIGRATIONS: dict[int, object] = {}


def migrate(document: dict, path: Path) -> dict:
    version = document["format_version"]
    if version < 1:
        raise SaveError(path, f"save format {version} does not exist")
    if version < OLDEST_READABLE:
        raise SaveError(
            path,
            f"was written by an older Weathering (save format {version}, earlier rules); "
            f"this version resumes format {OLDEST_READABLE} and newer",
        )
    while version < FORMAT_VERSION:
        document = MIGRATIONS[version](document)
        version = document["format_version"]
    return document


# ------------------------------------------------------------ folders and names


def saves_dir(option: str | None = None) -> Path:
    """--saves-dir, else $WEATHERING_SAVES, else ./saves."""
    chosen = option or os.environ.get("WEATHERING_SAVES") or "saves"
    return Path(chosen)


def resolve(name_or_path: str, folder: Path) -> Path:
    """A save named in the folder ("autosave-…", with or without .toml) or a path."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".toml" or os.sep in name_or_path or candidate.exists():
        return candidate
    return folder / f"{name_or_path}.toml"


def list_saves(folder: Path) -> list[tuple[Path, dict | None, str | None]]:
    """Every *.toml in the folder with its metadata, or the problem that stops reading it."""
    rows = []
    if not folder.is_dir():
        return rows
    for path in sorted(folder.glob("*.toml")):
        try:
            document = read_document(path)
            meta = document["meta"]
            rows.append((path, meta if isinstance(meta, dict) else {}, None))
        except SaveError as exc:
            rows.append((path, None, exc.problem))
    rows.sort(key=lambda row: (row[1] or {}).get("updated", ""), reverse=True)
    return rows
