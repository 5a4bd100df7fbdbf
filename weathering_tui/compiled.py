"""The compiled engine, optional: which copy of the hot modules runs.

`python -m weathering_tui.bench native build` compiles the engine's and the bots' hot
modules with mypyc (a C compiler needed) into extension modules beside their sources,
and writes `compiled.json`: a hash of every source they were built from. Python imports
an extension module before the source of the same name, so this guard, run before any
of them is imported (`weathering_tui/__init__.py`), decides:

- no extension module beside the sources: nothing to do, the sources run;
- every hashed source unchanged since the build: the compiled modules run;
- otherwise (a source edited after the build, a manifest missing), or with
  WEATHERING_PURE=1 set: a finder placed first serves those modules from their sources,
  and a stale build says so once on stderr. (Another Python's build has other file
  names: this one never sees it.)

The sources stay the rules' single home: the build is a cache of them, used only while
it is theirs, and the same games come out of both (tests/test_compiled.py; CI runs the
engine's tests on both). Standard library only: it runs before anything else.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).parent
MANIFEST = "compiled.json"  # beside the package's __init__.py
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)  # an extension module's file
# Where compiled modules may sit, and what they are built from: a compiled module reads
# the types and constants of the modules it imports, so all of these are hashed.
COMPILED_DIRS = ("engine", "bots")
HASHED_DIRS = ("engine", "bots", "content", "sim")


def built_modules(root: Path = ROOT) -> list[str]:
    """The modules that have an extension module beside their source."""
    names = []
    for wing in COMPILED_DIRS:
        try:
            files = sorted(os.listdir(root / wing))
        except OSError:
            continue
        for file in files:
            suffix = next((s for s in SUFFIXES if file.endswith(s)), None)
            if suffix is not None:
                names.append(f"{root.name}.{wing}.{file[: -len(suffix)]}")
    return names


def source_hashes(root: Path = ROOT) -> dict[str, str]:
    """The sha256 of every source a build reads, by path from the package."""
    out = {}
    for wing in HASHED_DIRS:
        for path in sorted((root / wing).glob("*.py")):
            out[f"{wing}/{path.name}"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def why_stale(root: Path = ROOT, built: list[str] | None = None) -> str | None:
    """Why the compiled modules beside the sources are not theirs, or None if they are."""
    built = built_modules(root) if built is None else built
    try:
        manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "no compiled.json beside them"
    if not isinstance(manifest, dict) or not isinstance(manifest.get("modules"), list):
        return "compiled.json is not a build's"
    if manifest.get("cache_tag") != sys.implementation.cache_tag:
        return f"built for {manifest.get('cache_tag')}, this is {sys.implementation.cache_tag}"
    if sorted(map(str, manifest["modules"])) != sorted(built):
        return "the compiled modules are not the build's"
    if manifest.get("sources") != source_hashes(root):
        return "a source changed since the build"
    return None


def pure_asked() -> bool:
    """WEATHERING_PURE set to anything but "" or "0"."""
    return os.environ.get("WEATHERING_PURE", "") not in ("", "0")


class _Sources:
    """A finder that serves `names` from their .py files, ahead of the extension modules."""

    def __init__(self, root: Path, names: list[str]):
        self.root = root
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname not in self.names:
            return None
        parts = fullname.split(".")[1:]
        source = self.root.joinpath(*parts[:-1], parts[-1] + ".py")
        return importlib.util.spec_from_file_location(fullname, source)


def install(root: Path = ROOT) -> str:
    """Choose the copy that runs: "compiled", or "pure" (the sources)."""
    built = built_modules(root)
    if not built:
        return "pure"
    stale = why_stale(root, built)
    if stale is None and not pure_asked():
        return "compiled"
    if stale is not None:
        print(
            f"weathering: the compiled engine is not used ({stale}): the sources run; "
            "python -m weathering_tui.bench native build (or clean)",
            file=sys.stderr,
        )
    sys.meta_path.insert(0, _Sources(root, built))
    return "pure"


RUNNING = install()
