"""`python -m weathering_tui.bench engine-vs CHECKOUT`: this tree's simulator against
another checkout's, in one run.

Each run is a fresh `weathering simulate --json` process of either tree, the two trees
taking turns (this one, the other, this one, ...), so that a machine that slows down
or speeds up meanwhile weighs on both alike. The figure is games per second as the
simulator itself times them (the rules are read before its clock starts, so start-up
is left out); the ratio is of the medians.

Each run is timed twice: by the simulator's own clock (wall time) and by the child
process's CPU time, which other processes on a shared machine disturb much less.

The other checkout runs with its own virtual environment (CHECKOUT/.venv) when it has
one, else with this Python and CHECKOUT on the path. When this tree has a current
compiled build (`bench native build`), its sources run too (WEATHERING_PURE=1) in the
same turns: three figures of one run, the build's, the sources' and the other tree's.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]


def _python(tree: Path) -> str:
    venv = tree / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


# Run in the measured tree: `weathering simulate --json` through its own command line,
# after one game that loads what the simulator loads (the rules, the modules), timed on
# the process's CPU clock as well as the wall clock (a CPU other processes share slows
# the wall clock of a run, much less its CPU time).
CHILD = """
import contextlib, io, json, sys, time
from weathering_tui.cli import main
games = int(sys.argv.pop())
def run(games):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["simulate", *sys.argv[1:], "--games", str(games), "--json"])
    return json.loads(out.getvalue())
run(1)
cpu = time.process_time()
summary = run(games)
summary["cpu_seconds"] = time.process_time() - cpu
print(json.dumps(summary))
"""


def games_per_second(
    tree: Path, configuration: str, bots: str, games: int, seed: int, pure: bool = False
) -> tuple[float, float]:
    """One simulator run of `tree` in a fresh process: its games per second by the
    simulator's own (wall) clock and by CPU time, and its results' digest."""
    command = [
        _python(tree),
        "-c",
        CHILD,
        "--config",
        configuration,
        "--bots",
        bots,
        "--seed",
        str(seed),
        str(games),
    ]
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("WEATHERING_PURE", None)
    if pure:  # this tree's sources beside its build (weathering_tui/compiled.py)
        env["WEATHERING_PURE"] = "1"
    done = subprocess.run(command, cwd=tree, env=env, check=True, capture_output=True, text=True)
    summary = json.loads(done.stdout)
    return summary["games"] / summary["seconds"], summary["games"] / summary["cpu_seconds"]


def engine_vs(
    other: Path,
    configuration: str = "3v2",
    bots: tuple[str, ...] = ("random", "heuristic"),
    games: int = 200,
    runs: int = 5,
    seed: int = 1,
) -> dict[str, dict]:
    """Games/s of this tree and of `other` for each bot kind, `runs` runs each, taking
    turns; prints two lines a kind (wall and CPU clocks) and returns the raw figures:
    kind -> {side: [(wall, cpu), ...]} (sides: this tree, compiled and its sources when it
    has a current build, then `other`), in games per second."""
    from .. import compiled

    other = other.resolve()
    sides = {"this": (HERE, False)}
    if compiled.built_modules() and compiled.why_stale() is None:
        sides = {"this, compiled": (HERE, False), "this, sources": (HERE, True)}
    sides[str(other)] = (other, False)
    figures = {}
    for kind in bots:
        runs_of: dict[str, list] = {name: [] for name in sides}
        for _ in range(runs):
            for name, (tree, pure) in sides.items():
                runs_of[name].append(games_per_second(tree, configuration, kind, games, seed, pure))
        figures[kind] = runs_of
        for clock, index in (("wall", 0), ("CPU", 1)):
            medians = {
                name: statistics.median(run[index] for run in got) for name, got in runs_of.items()
            }
            theirs = medians[str(other)]
            said = "; ".join(
                f"{name} {median:.1f} games/s "
                f"({', '.join(f'{run[index]:.1f}' for run in runs_of[name])})"
                + ("" if name == str(other) else f": {median / theirs:.2f}×")
                for name, median in medians.items()
            )
            head = f"simulate {configuration} {kind}, {games} games × {runs} runs"
            print(f"{head}, {clock} clock: {said}")
    return figures
