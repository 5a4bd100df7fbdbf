"""Reading a save file's document and listing a saves folder: light imports only, so
that the title screen and `weathering list` start fast."""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path

FORMAT = "weathering-save"
FORMAT_VERSION = 2
# Format 1 recorded games under earlier rules (allies asked in reaction windows, the
# mulligan as one action): its actions do not replay under these rules.
OLDEST_READABLE = 2
MAX_BYTES = 4 * 1024 * 1024
TOP_KEYS = {"format", "format_version", "meta", "setup", "actions", "state"}


class SaveError(Exception):
    """A save file that cannot be used: `code` names the problem and `params` its values;
    the words wing says it (`text(lang)`: the file and the problem; str(): English)."""

    def __init__(self, path, code: str, **params):
        self.path = Path(path)
        self.code = code
        self.params = params
        super().__init__(f"{path}: {self.problem_in('en')}")

    @property
    def problem(self) -> str:
        return self.problem_in("en")

    def text(self, lang: str = "en") -> str:
        from ..words import Tr

        return f"{self.path}{Tr(lang, screen=False).colon}{self.problem_in(lang)}"

    def problem_in(self, lang: str = "en") -> str:
        from ..words import save_problem

        return save_problem(lang, self.code, self.params)


def _read_bytes(path: Path) -> bytes:
    try:
        info = path.lstat()
    except FileNotFoundError:
        raise SaveError(path, "no_such_file") from None
    except OSError as exc:
        raise SaveError(path, "cannot_read_it", p0=exc.strerror) from None
    if stat.S_ISLNK(info.st_mode):
        raise SaveError(path, "is_a_symbolic_link_load")
    if stat.S_ISDIR(info.st_mode):
        raise SaveError(path, "is_a_folder_not_a")
    if not stat.S_ISREG(info.st_mode):
        raise SaveError(path, "is_not_a_regular_file")
    if info.st_size == 0:
        raise SaveError(path, "is_empty")
    if info.st_size > MAX_BYTES:
        raise SaveError(path, "is_bytes_more_than_a", p0=info.st_size, p1=MAX_BYTES)
    try:
        return path.read_bytes()
    except PermissionError:
        raise SaveError(path, "cannot_be_read_permission_denied") from None
    except OSError as exc:
        raise SaveError(path, "cannot_read_it", p0=exc.strerror) from None


def read_document(path, raw: bytes | None = None) -> dict:
    """Parse the TOML and check its format name and version (no replay). `raw`: the
    file's bytes when they come from elsewhere (a table kept in Redis); `path` then
    only names it in messages."""
    path = Path(path)
    raw = _read_bytes(path) if raw is None else raw
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(path, "is_not_a_text_file") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SaveError(path, "is_not_valid_toml_the", p0=exc) from None
    if document.get("format") != FORMAT:
        if "format" not in document:  # any other TOML file: no `format = "…"` line
            raise SaveError(path, "is_a_toml_file_but", p0=FORMAT)
        raise SaveError(path, "is_not_a_weathering_save", p0=repr(document.get("format")))
    version = document.get("format_version")
    if not isinstance(version, int):
        raise SaveError(path, "format_version_is_missing_or")
    if version > FORMAT_VERSION:
        raise SaveError(path, "was_written_by_a_newer", p0=version, p1=FORMAT_VERSION)
    document = migrate(document, path)
    extra = set(document) - TOP_KEYS
    if extra:
        raise SaveError(path, "unknown_keys", p0=", ".join(sorted(extra)))
    missing = TOP_KEYS - set(document)
    if missing:
        raise SaveError(path, "missing", p0=", ".join(sorted(missing)))
    return document


# Each entry turns a document of version N into version N + 1.
MIGRATIONS: dict[int, Callable[[dict], dict]] = {}


def migrate(document: dict, path: Path) -> dict:
    version = document["format_version"]
    if version < 1:
        raise SaveError(path, "save_format_does_not_exist", p0=version)
    if version < OLDEST_READABLE:
        raise SaveError(path, "was_written_by_an_older", p0=version, p1=OLDEST_READABLE)
    while version < FORMAT_VERSION:
        document = MIGRATIONS[version](document)
        version = document["format_version"]
    return document


# ------------------------------------------------------------ folders and names


def default_saves_dir() -> Path:
    """The user's own data folder (platformdirs: $XDG_DATA_HOME/weathering/saves on
    Linux, ~/.local/share/weathering/saves without it)."""
    import platformdirs

    return platformdirs.user_data_path("weathering", appauthor=False) / "saves"


def saves_dir(option: str | None = None) -> Path:
    """--saves-dir, else $WEATHERING_SAVES, else the user's data folder."""
    chosen = option or os.environ.get("WEATHERING_SAVES")
    return Path(chosen).expanduser() if chosen else default_saves_dir()


def program() -> list[str]:
    """How to run this very Weathering again from any folder: `weathering` when the
    shell finds this one under that name, else the full path (or `python -m`)."""
    import shutil
    import sys

    argv0 = sys.argv[0] if sys.argv else ""
    if not argv0 or Path(argv0).name in ("__main__.py", "cli.py"):
        return [sys.executable, "-m", "weathering_tui"]
    here = Path(argv0).resolve()
    found = shutil.which("weathering")
    if found and Path(found).resolve() == here:
        return ["weathering"]
    return [str(here)]


def resume_command(name: str, folder: Path, lang: str | None = None) -> str:
    """The command that resumes save `name` of `folder`, wherever it is typed (with
    `--lang lang` when given: the locale would choose another language)."""
    import shlex

    words = program() + ["load", name]
    if lang is not None:
        words += ["--lang", lang]
    if Path(folder).expanduser().resolve() != default_saves_dir().resolve():
        words += ["--saves-dir", str(Path(folder).expanduser().resolve())]
    return shlex.join(words)


def resolve(name_or_path: str, folder: Path) -> Path:
    """A save named in the folder ("autosave-…", with or without .toml) or a path."""
    candidate = Path(name_or_path)
    if name_or_path.endswith(".toml.bak") and os.sep not in name_or_path:
        return candidate if candidate.exists() else folder / name_or_path
    if candidate.suffix == ".toml" or os.sep in name_or_path or candidate.exists():
        return candidate
    return folder / f"{name_or_path}.toml"


def list_saves(folder: Path) -> list[tuple[Path, dict | None, SaveError | None]]:
    """Every *.toml in the folder with its metadata, or the problem that stops reading it."""
    rows: list[tuple[Path, dict | None, SaveError | None]] = []
    if not folder.is_dir():
        return rows
    for path in sorted(folder.glob("*.toml")):
        try:
            document = read_document(path)
            meta = document["meta"]
            rows.append((path, meta if isinstance(meta, dict) else {}, None))
        except SaveError as exc:
            rows.append((path, None, exc))
    rows.sort(key=lambda row: str((row[1] or {}).get("updated", "")), reverse=True)
    return rows
