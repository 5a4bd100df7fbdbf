"""`python -m weathering_tui.bench native [build|clean|status]`: the compiled engine.

`build` compiles the modules a game's every step runs (MODULES) with mypyc, in place
beside their sources, then writes the hash of every source it read
(`weathering_tui/compiled.py` uses the build only while they are unchanged). It needs
mypy (a test dependency) and a C compiler. `clean` removes the build: the sources run.
`status` says which runs now. `WEATHERING_PURE=1` runs the sources beside a build, so
that both can be measured and tested on one machine (`bench engine-vs`, .ci/run).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import warnings
from pathlib import Path

from .. import compiled

# The hot modules, the engine's steps and the bots' decisions. Left out: modules that
# define attrs classes (mypyc would make them its own classes, without attrs' fields),
# and what a game step never runs (saves, the wire, undo).
MODULES = (
    "engine/announce.py",
    "engine/common.py",
    "engine/core.py",
    "engine/effects.py",
    "engine/flow.py",
    "engine/legal.py",
    "engine/loop.py",
    "engine/refusals.py",
    "engine/resolve.py",
    "engine/resolving.py",
    "engine/tables.py",
    "engine/window.py",
    "engine/view.py",
    "bots/heuristic.py",
    "bots/heuristic_answers.py",
    "bots/seat_view.py",
    "bots/random_bot.py",
)


def _extensions(root: Path) -> list[Path]:
    """The build beside the sources: its manifest first (without it, the guard uses none
    of the rest: a build half removed or half made is never run)."""
    found = [root / compiled.MANIFEST]
    for wing in (".", *compiled.COMPILED_DIRS):
        found += [p for p in (root / wing).iterdir() if p.name.endswith(compiled.SUFFIXES)]
    return [p for p in found if p.exists()]


def _remove(paths: list[Path]) -> str | None:
    """Remove `paths`, in order; what stopped it, or None."""
    for path in paths:
        try:
            path.unlink()
        except OSError as failed:
            return f"cannot remove {path}: {failed.strerror}"
    return None


def clean(root: Path = compiled.ROOT) -> int:
    gone = _extensions(root)
    refused = _remove(gone)
    if refused:
        print(f"{refused}; the sources run only once it is gone", file=sys.stderr)
        return 1
    print(f"removed {len(gone)} files: the sources run")
    return 0


def build(root: Path = compiled.ROOT) -> int:
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError:
        print("the build needs mypy and setuptools: pip install -e '.[test]'", file=sys.stderr)
        return 2
    # Where the build goes must be writable before half a minute of compiling.
    for folder in (root, *(root / wing for wing in compiled.COMPILED_DIRS)):
        if not os.access(folder, os.W_OK):
            print(f"cannot write in {folder}: nothing built, the sources run", file=sys.stderr)
            return 1
    refused = _remove(_extensions(root))
    if refused:
        print(f"{refused}: nothing built", file=sys.stderr)
        return 1
    hashes = compiled.source_hashes(root)
    with (
        tempfile.TemporaryDirectory() as tmp,
        contextlib.chdir(root.parent),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")  # setuptools' notices about the project's metadata
        paths = [f"{root.name}/{m}" for m in MODULES]
        try:
            modules = mypycify(
                paths, opt_level="3", group_name=f"{root.name}.compiled", target_dir=f"{tmp}/c"
            )
            setup(
                name="weathering-compiled",
                ext_modules=modules,
                script_args=[
                    *("-q", "build_ext", "--inplace"),
                    *("--build-temp", f"{tmp}/t", "--build-lib", f"{tmp}/l"),
                ],
            )
        # mypyc and setuptools say a failure by exiting (their messages are printed),
        # an internal error of mypyc by raising; Ctrl-C stops it too.
        except (SystemExit, KeyboardInterrupt, Exception) as failed:
            _remove(_extensions(root))  # no half build left beside the sources
            print(f"the build failed: {failed!r}; the sources run", file=sys.stderr)
            return 1
    if compiled.source_hashes(root) != hashes:
        print("a source changed during the build: build again", file=sys.stderr)
        return 1
    names = [f"{root.name}.{m[:-3].replace('/', '.')}" for m in MODULES]
    manifest = {"cache_tag": sys.implementation.cache_tag, "modules": names, "sources": hashes}
    (root / compiled.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"compiled {len(names)} modules; status: {status_line(root)}")
    return 0


def status_line(root: Path = compiled.ROOT) -> str:
    built = compiled.built_modules(root)
    if not built:
        return "the sources run (no build)"
    stale = compiled.why_stale(root, built)
    if stale:
        return f"the sources run: the build is not theirs ({stale})"
    if compiled.pure_asked():
        return f"the sources run (WEATHERING_PURE); a build of {len(built)} modules is current"
    return f"the compiled modules run ({len(built)})"


def main(argv: list[str]) -> int:
    commands = {"build": build, "clean": clean, "status": status}
    what = argv[0] if argv else "status"
    if what in commands and len(argv) <= 1:
        return commands[what]()
    print("usage: python -m weathering_tui.bench native [build|clean|status]", file=sys.stderr)
    return 2


def status() -> int:
    print(status_line())
    return 0
