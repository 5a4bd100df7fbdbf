"""The compiled engine (weathering_tui/compiled.py): a build runs only while it is its
sources', and the same games come out of it as of the sources.

CI runs the engine's tests twice: on the sources, then on a build with
WEATHERING_EXPECT_COMPILED=1 (.ci/run), where the last test holds that the build is what
ran. The guard's own tests build nothing: they lay out a package of their own.
"""

import importlib.machinery
import json
import os
import subprocess
import sys

from weathering_tui import compiled
from weathering_tui.engine import core
from weathering_tui.sim.simulate import simulate

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _package(tmp_path):
    """A package laid out as weathering_tui is: sources, one "compiled" module, a manifest."""
    root = tmp_path / "pkg"
    for wing in compiled.HASHED_DIRS:
        (root / wing).mkdir(parents=True)
    (root / "engine" / "core.py").write_text("WHO = 'source'\n")
    (root / "engine" / f"core{SUFFIX}").write_bytes(b"not really a build")
    (root / "content" / "cards.py").write_text("CARDS = 1\n")
    manifest = {
        "cache_tag": sys.implementation.cache_tag,
        "modules": ["pkg.engine.core"],
        "sources": compiled.source_hashes(root),
    }
    (root / "compiled.json").write_text(json.dumps(manifest))
    return root


def test_a_build_is_used_only_while_every_source_is_the_one_it_was_built_from(tmp_path):
    root = _package(tmp_path)
    assert compiled.built_modules(root) == ["pkg.engine.core"]
    assert compiled.why_stale(root) is None
    # A module it imports changed (a constant mypyc may have copied in): stale too.
    (root / "content" / "cards.py").write_text("CARDS = 2\n")
    assert compiled.why_stale(root) == "a source changed since the build"


def test_a_build_without_its_manifest_or_for_another_python_is_not_used(tmp_path):
    root = _package(tmp_path)
    manifest = json.loads((root / "compiled.json").read_text())
    (root / "compiled.json").write_text(json.dumps({**manifest, "cache_tag": "cpython-39"}))
    assert "built for cpython-39" in compiled.why_stale(root)
    # A manifest that is JSON but not a build's: said, never a traceback at import.
    for broken in ({**manifest, "modules": 5}, {**manifest, "modules": None}, [1, 2]):
        (root / "compiled.json").write_text(json.dumps(broken))
        assert compiled.why_stale(root) == "compiled.json is not a build's"
    (root / "compiled.json").write_text("{not json")
    assert compiled.why_stale(root) == "no compiled.json beside them"
    (root / "compiled.json").unlink()
    assert compiled.why_stale(root) == "no compiled.json beside them"


def test_a_stale_build_gives_way_to_the_sources_and_says_so(tmp_path, monkeypatch, capsys):
    root = _package(tmp_path)
    (root / "engine" / "core.py").write_text("WHO = 'edited source'\n")
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    assert compiled.install(root) == "pure"
    assert "a source changed since the build" in capsys.readouterr().err
    spec = sys.meta_path[0].find_spec("pkg.engine.core")
    assert spec.origin == str(root / "engine" / "core.py")
    assert sys.meta_path[0].find_spec("pkg.engine.other") is None


def test_weathering_pure_runs_the_sources_beside_a_current_build(tmp_path, monkeypatch, capsys):
    root = _package(tmp_path)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.delenv("WEATHERING_PURE", raising=False)
    assert compiled.install(root) == "compiled"
    assert len(sys.meta_path) == len(list(sys.meta_path))
    monkeypatch.setenv("WEATHERING_PURE", "1")
    assert compiled.install(root) == "pure"
    assert capsys.readouterr().err == ""  # asked for, not a fault


def test_what_runs_is_what_the_guard_chose():
    extension = core.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert extension == (compiled.RUNNING == "compiled")
    if os.environ.get("WEATHERING_EXPECT_COMPILED"):
        assert compiled.RUNNING == "compiled", "CI's second run is on a build"


def test_the_sources_play_the_same_games_as_this_process():
    """In CI's second run this process is compiled and the child runs the sources."""
    here = simulate(60, "2v1", seed=11, bot_kind="heuristic")["results_digest"]
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            "from weathering_tui.sim.simulate import simulate; "
            "print(simulate(60, '2v1', seed=11, bot_kind='heuristic')['results_digest'])",
        ],
        env={**os.environ, "WEATHERING_PURE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.strip() == here


def test_the_build_command_refuses_what_it_cannot_do_with_a_message(monkeypatch, capsys):
    from pathlib import Path

    from weathering_tui.bench import native

    assert native.main(["build", "extra"]) == 2
    assert native.main(["frobnicate"]) == 2
    assert "usage: python -m weathering_tui.bench native" in capsys.readouterr().err
    # A folder it may not write in: said before any compiling, nothing removed.
    monkeypatch.setattr(native.os, "access", lambda path, mode: False)
    assert native.build() == 1
    assert "cannot write in" in capsys.readouterr().err
    # A build it may not remove: said, no traceback.
    monkeypatch.setattr(native, "_extensions", lambda root: [Path("/nowhere/x.so")])

    def refuse(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "unlink", refuse)
    assert native.clean() == 1
    assert "cannot remove /nowhere/x.so: Permission denied" in capsys.readouterr().err


def test_weathering_pure_at_zero_is_not_asked(monkeypatch):
    for value, asked in (("", False), ("0", False), ("1", True), ("yes", True)):
        monkeypatch.setenv("WEATHERING_PURE", value)
        assert compiled.pure_asked() is asked
