"""Play many bot games headless and summarise them (`weathering simulate`)."""

from __future__ import annotations

import hashlib
import time
from collections import Counter

import attrs

from .bots import BOTS
from .engine import Setup, apply, new_game, view_for
from .engine.state import GameState


@attrs.frozen
class GameResult:
    seed: int
    hp: int
    band: str
    winner: str
    actions: int
    pile_empty_round: int


def play_game(
    setup: Setup, bot_kind: str = "random", content=None, stop_after: int | None = None
) -> tuple[GameState, list]:
    """Play a game with one bot per seat (to the end, or `stop_after` actions);
    return the state and the actions taken."""
    state = new_game(setup, content)
    bots = [BOTS[bot_kind](seed=setup.seed * 7919 + seat) for seat in range(len(setup.seats))]
    actions = []
    while not state.over and (stop_after is None or len(actions) < stop_after):
        seat = state.pending.seat
        view = view_for(state, seat, with_log=False)
        action = bots[seat].choose(view)
        apply(state, action, view)
        actions.append(action)
    return state, actions


def simulate(
    games: int, configuration: str, seed: int, bot_kind: str = "random", save_dir=None
) -> dict:
    results: list[GameResult] = []
    started = time.perf_counter()
    for i in range(games):
        setup = Setup.standard(configuration, seed=seed + i)
        state, actions = play_game(setup, bot_kind)
        if save_dir is not None:
            _save(save_dir, setup, actions, state)
        results.append(
            GameResult(
                seed=seed + i,
                hp=state.outcome.hp,
                band=state.outcome.band,
                winner=state.outcome.winner,
                actions=len(actions),
                pile_empty_round=state.pile_empty_round,
            )
        )
    seconds = time.perf_counter() - started
    return summarise(results, seconds, configuration, seed, bot_kind)


def summarise(results: list[GameResult], seconds: float, configuration, seed, bot_kind) -> dict:
    n = len(results) or 1
    digest = hashlib.sha256()
    for r in results:
        digest.update(f"{r.hp}:{r.actions};".encode())
    emptied = [r.pile_empty_round for r in results if r.pile_empty_round]
    return {
        "configuration": configuration,
        "seed": seed,
        "bots": bot_kind,
        "games": len(results),
        "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 1) if seconds else 0.0,
        "mean_actions_per_game": round(sum(r.actions for r in results) / n, 1),
        "outcomes": dict(sorted(Counter(r.band for r in results).items())),
        "ecologist_win_rate": round(sum(r.winner == "ecologists" for r in results) / n, 4),
        "mean_final_hp": round(sum(r.hp for r in results) / n, 2),
        "draw_pile_empty_rate": round(len(emptied) / n, 4),
        "draw_pile_empty_round": round(sum(emptied) / len(emptied), 2) if emptied else None,
        "results_digest": digest.hexdigest(),
    }


def format_summary(summary: dict) -> str:
    lines = [
        f"Weathering · {summary['configuration']} · {summary['games']} games · "
        f"bots {summary['bots']} · seed {summary['seed']}",
        f"  {summary['seconds']} s, {summary['games_per_second']} games/s, "
        f"{summary['mean_actions_per_game']} actions per game",
        f"  Écolo win rate {summary['ecologist_win_rate']:.1%}, "
        f"mean final PV {summary['mean_final_hp']}",
        f"  draw pile ran out in {summary['draw_pile_empty_rate']:.1%} of games"
        + (
            f" (mean round {summary['draw_pile_empty_round']})"
            if summary["draw_pile_empty_round"]
            else ""
        ),
        "  outcomes: "
        + ", ".join(f"{band} {count}" for band, count in summary["outcomes"].items()),
        f"  digest {summary['results_digest']}",
    ]
    return "\n".join(lines)


def _save(folder, setup, actions, state) -> None:
    from pathlib import Path

    from .savefile import SavedGame, timestamp, write_save

    stamp = timestamp()
    game = SavedGame(setup, list(actions), state, stamp, stamp)
    write_save(Path(folder) / f"sim-{setup.configuration}-{setup.seed}.toml", game)
