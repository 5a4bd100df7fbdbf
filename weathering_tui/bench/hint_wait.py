"""`python -m weathering_tui.bench hint-wait [POSITIONS]`: how long a player waits for a
hint on the game screen as it runs (the hint in its own process at the lowest share,
tui/screens/game_hints.py), from `h` to the hints' dialog:

- the first hint of a game (nothing thought ahead), asked at once;
- a later one, thought ahead since the decision came up, asked after reading the
  position for 0, 1, 2 or 4 seconds;

beside pimc's hint on the same view (5 candidates × 12 rollouts, computed in this
process: the hint of before, the yardstick of "hint time"). Positions are turn decisions
of seeded games (1v1, 2v1, 3v2 in turn), seat 0 at the keyboard. Wall-clock times on
this machine: run it on an idle one, and compare ratios from one run.
"""

from __future__ import annotations

import asyncio
import statistics
import time

READING = (0.0, 1.0, 2.0, 4.0)


def games(count: int) -> list:
    from ..bots import HeuristicBot
    from ..engine import sides_of, view_for
    from ..engine.state import SeatSetup, Setup
    from ..storage.savefile import SavedGame

    found = []
    seed = 6100
    while len(found) < count:
        config = ("1v1", "2v1", "3v2")[len(found) % 3]
        eco, lob = sides_of(config)
        seats = tuple(
            SeatSetup(side, human=i == 0)
            for i, side in enumerate(["ecologist"] * eco + ["lobbyist"] * lob)
        )
        game = SavedGame.start(Setup(config, seats, seed=seed))
        bots = [HeuristicBot(seed * 10 + i) for i in range(len(seats))]
        steps = 15 + seed % 40
        seed += 1
        while not game.state.over:
            pending = game.state.pending
            seat = pending.seat
            view = view_for(game.state, seat, with_log=False)
            if steps <= 0 and pending.kind == "turn" and seat == 0 and len(view.legal) > 2:
                found.append(game)
                break
            game.play_chosen(bots[seat].choose(view), view)
            steps -= 1
    return found


async def _wait(game, reading: float | None) -> float:
    """Seconds from `h` to the hints' dialog; `reading` None: the game's first hint,
    asked at once; else a player who asked before, reading for that long first."""
    from ..tui.app import WeatheringApp
    from ..tui.screens.choice import ChoiceModal

    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        if reading is not None:
            screen.hinter.asked.add(0)  # (as after an earlier `h` in this game)
            screen.hinter.keep_up()
            await asyncio.sleep(reading)
        started = time.perf_counter()
        await pilot.press("h")
        while not isinstance(app.screen, ChoiceModal):
            await asyncio.sleep(0.01)
        return time.perf_counter() - started


def _pimc_seconds(game) -> float:
    from ..bots.expert import ExpertBot
    from ..bots.hints import hint_seed
    from ..content import default_content
    from ..engine import view_for

    view = view_for(game.state, 0, with_log=False)
    seed = hint_seed(view)
    started = time.perf_counter()
    ExpertBot(seed, default_content(), rollouts=12, candidates=5).rank(view)
    return time.perf_counter() - started


def bench_hint_wait(count: int = 6) -> None:
    from ..tui.app import WeatheringApp  # noqa: F401 - (imported before any timing)

    found = games(count)
    pimc = [_pimc_seconds(game) for game in found]
    first = [asyncio.run(_wait(game, None)) for game in found]
    ahead = {r: [asyncio.run(_wait(game, r)) for game in found] for r in READING}
    yardstick = statistics.median(pimc)
    print(
        f"a hint on {len(found)} turns (1v1, 2v1, 3v2), from h to its dialog, median "
        f"wall-clock seconds; pimc's hint on the same views: {yardstick:.2f} s"
    )
    rows = [("the game's first hint", first)]
    rows += [(f"thought ahead, asked after {r:.0f} s of reading", ahead[r]) for r in READING]
    for label, waits in rows:
        wait = statistics.median(waits)
        print(f"  {label}: {wait:.2f} s ({wait / yardstick:.2f}× pimc's; max {max(waits):.2f})")
