"""The benches that run in this process: the simulator, save and load, the app's start-up
and key repaint, the expert against the heuristic bot, rollouts; and the command line of
`python -m weathering_tui.bench` (the list: this package's docstring)."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE_APP = """
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static("hello")
    def on_mount(self):
        self.call_after_refresh(self.exit)
Bare().run(headless=True, size=(80, 24))
"""

TITLE_APP = """
from weathering_tui.tui.app import WeatheringApp
class First(WeatheringApp):
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(self.exit)
First(lang="fr", saves_dir=None).run(headless=True, size=(80, 24))
"""


def _median_run(code: str, runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_engine() -> None:
    from ..engine import Setup
    from ..sim.simulate import play_game, simulate
    from ..storage.savefile import SavedGame, read_save, write_save

    summary = simulate(200, "3v2", 1)
    print(
        f"simulate 3v2 random: {summary['games_per_second']} games/s, "
        f"{summary['mean_actions_per_game']} actions/game"
    )
    state, actions = play_game(Setup.standard("3v2", seed=3))
    game = SavedGame(Setup.standard("3v2", seed=3), state, "t", "t")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.toml"
        write_save(path, game)  # warm the converter
        saves, loads = [], []
        for _ in range(20):
            started = time.perf_counter()
            write_save(path, game)
            saves.append(time.perf_counter() - started)
            path.with_name("game.toml.bak").unlink(missing_ok=True)
            started = time.perf_counter()
            read_save(path)
            loads.append(time.perf_counter() - started)
        size = path.stat().st_size
    print(
        f"finished 3v2 game ({len(actions)} actions): "
        f"save {statistics.median(saves) * 1000:.1f} ms, "
        f"load {statistics.median(loads) * 1000:.1f} ms, file {size / 1024:.1f} KB"
    )


def bench_tui() -> None:
    bare = _median_run(BARE_APP)
    title = _median_run(TITLE_APP)
    print(
        f"start-up to first frame: bare Textual app {bare * 1000:.0f} ms, "
        f"title screen {title * 1000:.0f} ms ({title / bare:.2f}×)"
    )
    asyncio.run(_keys())


async def _keys() -> None:
    from ..bots import RandomBot
    from ..engine import view_for
    from ..engine.state import SeatSetup, Setup
    from ..storage.savefile import SavedGame
    from ..tui.app import WeatheringApp
    from ..tui.screens.game import GameScreen

    setup = Setup(
        "3v2",
        (SeatSetup("ecologist", human=True),)
        + tuple(SeatSetup(side) for side in ("ecologist", "ecologist", "lobbyist", "lobbyist")),
        seed=5,
    )
    game = SavedGame.start(setup)
    bots = [RandomBot(i) for i in range(5)]
    while not (
        game.state.pending.kind == "turn" and game.state.pending.seat == 0 and game.state.round >= 3
    ):
        seat = game.state.pending.seat
        view = view_for(game.state, seat, with_log=False)
        game.play_chosen(bots[seat].choose(view), view)
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        repaint, presses = [], []
        for _ in range(60):
            started = time.perf_counter()
            screen.refresh_view()
            repaint.append(time.perf_counter() - started)
            started = time.perf_counter()
            await pilot.press("down")
            presses.append(time.perf_counter() - started)
    print(
        f"game screen 120×40, one key (select next card): panes rebuilt in "
        f"{statistics.median(repaint) * 1000:.1f} ms median; "
        f"pilot.press round trip {statistics.median(presses) * 1000:.1f} ms median"
    )


def bench_rollouts(positions: int = 24) -> None:
    """Rollouts per second on the View path and the lean path, side by side in one run:
    the same sampled worlds, the same moves, and (checked) the same results."""
    import random

    from ..bots.expert import rollout
    from ..content import default_content
    from ..engine import Setup, apply, clone, determinize, legal_actions, view_for
    from ..sim.simulate import play_game

    content = default_content()
    cases = []
    for k in range(positions):
        config = ("1v1", "2v1", "3v2")[k % 3]
        state, _ = play_game(
            Setup.standard(config, seed=900 + k), "heuristic", stop_after=20 + 7 * k
        )
        while not state.over and state.pending.kind != "turn":
            apply(state, legal_actions(state, state.pending.seat)[0])
        if not state.over:
            cases.append(view_for(state, state.pending.seat, with_log=False))
    seconds = {False: 0.0, True: 0.0}
    count = 0
    for n, view in enumerate(cases):
        world = random.Random(n)
        sample = determinize(view, content, world)
        sample.keep_log = False
        after = world.getstate()
        results = {}
        for lean in (n % 2 == 0, n % 2 == 1):  # alternate which path goes first
            for repeat in range(3):
                world.setstate(after)
                state = clone(sample)
                started = time.perf_counter()
                results[lean, repeat] = rollout(
                    view, state, view.legal[0], world, content, lean=lean
                )
                seconds[lean] += time.perf_counter() - started
        if len({results[lean, r] for lean in (False, True) for r in range(3)}) != 1:
            raise SystemExit("bench rollouts: the lean path gave another result")
        count += 3
    view_rate, lean_rate = count / seconds[False], count / seconds[True]
    print(
        f"rollouts ({count} on each path, {len(cases)} positions of 1v1, 2v1, 3v2, the same "
        f"results): View path {view_rate:.1f}/s, lean path {lean_rate:.1f}/s, "
        f"lean {lean_rate / view_rate:.2f}×"
    )


def main(argv: list[str]) -> int:
    from ..argline import Parser, count

    if argv[:1] == ["engine-vs"]:
        return _engine_vs(argv[1:])
    if argv[:1] == ["native"]:
        from .native import main as native_main

        return native_main(argv[1:])
    if argv[:1] == ["net"]:
        from .server import main as net_main

        return net_main(argv[1:])
    parser = Parser(
        prog="python -m weathering_tui.bench",
        description="Benchmarks that print figures (machines here are noisy: compare runs "
        "made side by side). engine-vs CHECKOUT: this tree's simulator against another "
        "(engine-vs --help); net …: the table server (net --help); native build|clean|status: "
        "the compiled engine (mypyc).",
    )
    parser.add_argument(
        "which",
        nargs="?",
        default="all",
        choices=(
            "all",
            "engine",
            "tui",
            "history",
            "rollouts",
            "hints",
            "hint-budgets",
            "hint-wait",
        ),
        help="engine: simulator, save/load; tui: start-up, key repaint; history: clone, "
        "the expert, replay, undo, hints; hint-wait: from h to the hints' dialog on the game "
        "screen (default: engine and tui; bots against bots: `weathering duel`)",
    )
    parser.add_argument(
        "positions",
        nargs="?",
        type=count,
        default=None,
        help="hints: positions (24); hint-budgets: positions (40); hint-wait: positions (6)",
    )
    parser.add_argument(
        "--deep",
        type=count,
        default=0,
        help="hints: a reference of that many hints' rollouts, asked once "
        "(default: 48 + 192 worlds, asked twice)",
    )
    args = parser.parse_args(argv)
    if args.which == "history":
        from .history import bench_history

        bench_history()
        return 0
    if args.which == "rollouts":
        bench_rollouts()
        return 0
    if args.which == "hint-budgets":
        from .hints import bench_budgets

        bench_budgets(args.positions or 40)
        return 0
    if args.which == "hint-wait":
        from .hint_wait import bench_hint_wait

        bench_hint_wait(args.positions or 6)
        return 0
    if args.which == "hints":
        from . import hints
        from .hints import bench_hints

        hints.DEPTH = args.deep

        bench_hints(args.positions or 24)
        return 0
    if args.which in ("all", "engine"):
        bench_engine()
    if args.which in ("all", "tui"):
        bench_tui()
    return 0


def _engine_vs(argv: list[str]) -> int:
    from pathlib import Path

    from ..argline import Parser, count
    from .vs import engine_vs

    parser = Parser(
        prog="python -m weathering_tui.bench engine-vs",
        description="weathering simulate's games/s, this tree against another checkout, "
        "runs taking turns; the ratio of the medians",
    )
    parser.add_argument("checkout", type=Path, help="the other tree (its .venv if it has one)")
    parser.add_argument("--config", default="3v2", help="configuration (3v2)")
    parser.add_argument(
        "--bots", default="random,heuristic", help="bot kinds, comma-separated (random,heuristic)"
    )
    parser.add_argument("--games", type=count, default=200, help="games a run (200)")
    parser.add_argument("--runs", type=count, default=5, help="runs of each tree a kind (5)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (1)")
    args = parser.parse_args(argv)
    if not (args.checkout / "weathering_tui").is_dir():
        parser.error(f"{args.checkout} is not a checkout of this project")
    kinds = tuple(k for k in args.bots.split(",") if k)
    engine_vs(args.checkout, args.config, kinds, args.games, args.runs, args.seed)
    return 0
