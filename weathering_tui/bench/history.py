"""`python -m weathering_tui.bench history`: what the engine's history API costs.

clone against copy.deepcopy of the same mid-game 3v2 state; the expert's decisions per
second sampling each candidate's world anew against once and cloned (the same
decisions); a replay's jumps in a long game; an undo; a hint. Figures are printed,
never asserted: machines here are noisy.
"""

from __future__ import annotations

import copy
import random
import statistics
import time


def _timed(function, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return times


def _turn_views(count: int):
    from ..engine import Setup, apply, legal_actions, view_for
    from ..sim.simulate import play_game

    views = []
    for seed in range(count):
        state, _ = play_game(
            Setup.standard("3v2", seed=seed), "heuristic", stop_after=30 + 9 * seed
        )
        while not state.over and state.pending.kind != "turn":
            apply(state, legal_actions(state, state.pending.seat)[0])
        if not state.over:
            views.append(view_for(state, state.pending.seat, with_log=False))
    return views


def _long_game(at_least: int):
    """A whole 3v2 game of at least `at_least` actions: random players who end their
    turn only when nothing else is left, or one time in ten."""
    from ..engine import Setup, apply, legal_actions, new_game
    from ..engine import actions as act

    for seed in range(100):
        setup = Setup.standard("3v2", seed=seed)
        state, actions, rng = new_game(setup), [], random.Random(seed)
        while not state.over:
            legal = legal_actions(state, state.pending.seat)
            busy = [a for a in legal if not isinstance(a, act.EndTurn)]
            action = rng.choice(busy if busy and rng.random() > 0.1 else legal)
            apply(state, action)
            actions.append(action)
        if len(actions) >= at_least:
            return setup, state, actions
    raise RuntimeError("no game long enough")


def bench_history() -> None:
    from ..bots import ExpertBot
    from ..bots.hints import hints
    from ..engine import Setup, can_undo, clone, undo
    from ..play.replay import Timeline
    from ..sim.simulate import play_game
    from ..storage.savefile import SavedGame

    setup = Setup.standard("3v2", seed=3)
    state, _ = play_game(setup, "heuristic", stop_after=150)
    deep = statistics.median(_timed(lambda: copy.deepcopy(state), 30))
    cheap = statistics.median(_timed(lambda: clone(state), 300))
    print(
        f"clone of a mid-game 3v2 state ({len(state.log)} log entries): {cheap * 1e3:.3f} ms; "
        f"copy.deepcopy: {deep * 1e3:.2f} ms; ratio {cheap / deep:.3f}"
    )

    views = _turn_views(6)
    old_bot = ExpertBot(seed=1, clone_worlds=False)
    new_bot = ExpertBot(seed=1)
    started = time.perf_counter()
    old = [old_bot.choose(v) for v in views]
    old_seconds = time.perf_counter() - started
    started = time.perf_counter()
    new = [new_bot.choose(v) for v in views]
    new_seconds = time.perf_counter() - started
    print(
        f"expert decisions/s on {len(views)} 3v2 turns: {len(views) / old_seconds:.2f} "
        f"sampling each candidate's world anew, {len(views) / new_seconds:.2f} sampling once "
        f"and cloning ({old_seconds / new_seconds:.2f}x; same decisions: {old == new})"
    )

    hint_times = _timed(lambda: [hints(v) for v in views[:3]], 1)[0] / 3
    print(f"a hint (the expert's 3 best moves, from a seat's view): {hint_times * 1e3:.0f} ms")

    long_setup, final, actions = _long_game(300)
    timeline = Timeline(SavedGame(long_setup, final, "t", "t"))
    rng = random.Random(1)
    spots = [rng.randrange(timeline.length + 1) for _ in range(200)]
    jumps = []
    for n in spots:
        started = time.perf_counter()
        timeline.view_at(n, 0)
        jumps.append(time.perf_counter() - started)
    print(
        f"replay of a {timeline.length}-action game: a jump anywhere and its view "
        f"{statistics.median(jumps) * 1e3:.2f} ms median, {max(jumps) * 1e3:.2f} ms at most"
    )

    from ..engine import apply, legal_actions

    for stop in range(140, 260, 7):
        late, late_actions = play_game(setup, "heuristic", stop_after=stop)
        if late.over or late.pending.kind != "turn":
            continue
        seat = late.pending.seat
        for option in legal_actions(late, seat):
            trial = clone(late)
            apply(trial, option)
            if can_undo(trial, seat):
                took = statistics.median(_timed(lambda t=trial, s=seat: undo(t, s), 10))
                print(
                    f"an undo after {len(late_actions) + 1} actions (the game replayed "
                    f"without the last): {took * 1e3:.1f} ms"
                )
                return
