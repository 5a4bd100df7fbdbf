"""Play many bot games headless and summarise them (`weathering simulate`, `weathering balance`)."""

from __future__ import annotations

import hashlib
import time
from collections import Counter, defaultdict

import attrs

from ..bots import BOTS, bot_seed
from ..engine import (
    LABELS,
    LeanView,
    Setup,
    apply_chosen,
    decision_for,
    headless,
    new_game,
    replay,
    with_difficulty,
)
from ..engine.actions import Action
from ..engine.state import GameState, SeatSetup
from .stats import wilson


@attrs.frozen
class GameResult:
    seed: int
    hp: int
    band: str
    winner: str
    actions: int
    pile_empty_round: int
    hp_by_round: tuple[int, ...]
    characters: tuple[tuple[str, str], ...]  # (side, character) per seat


def make_bots(setup: Setup, ecologists: str = "random", lobbyists: str | None = None) -> list:
    """One bot per seat, seeded from the game's seed and the seat."""
    kinds = {"ecologist": ecologists, "lobbyist": lobbyists or ecologists}
    return [
        BOTS[kinds[seat.side]](seed=bot_seed(setup.seed, i)) for i, seat in enumerate(setup.seats)
    ]


class Timer:
    """Seconds spent deciding, by bot kind."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.decisions: dict[str, int] = defaultdict(int)

    def per_decision(self) -> dict[str, float]:
        return {k: self.seconds[k] / self.decisions[k] for k in sorted(self.decisions)}


def play_game(
    setup: Setup,
    bot_kind: str = "random",
    content=None,
    stop_after: int | None = None,
    lobbyists: str | None = None,
    timer: Timer | None = None,
    keep_log: bool = True,
) -> tuple[GameState, list]:
    """Play a game with one bot per seat (`bot_kind` for the Écolos, `lobbyists` for the
    Lobbyistes, default the same), to the end or `stop_after` actions. Without
    `keep_log` the game plays headless from the first action on (`engine.headless`:
    no log, no history; nothing reads them)."""
    state = new_game(setup, content)
    if not keep_log:
        headless(state)
    bots = make_bots(setup, bot_kind, lobbyists)
    actions: list[Action] = []
    limit = float("inf") if stop_after is None else stop_after
    clock = time.perf_counter
    seconds = [0.0] * len(bots)  # each seat's time deciding, told to `timer` at the end
    while state.stage != "over" and len(actions) < limit:
        assert state.pending is not None, "a game not over waits for a decision"
        seat = state.pending.seat
        bot = bots[seat]
        # The lean path: a bot reads a LeanView (the same decisions as on a full view,
        # tests/test_lean.py; only what it reads is built) or, reading nothing but the
        # decision, a Decision.
        view = LeanView(state, seat) if bot.needs_view else decision_for(state, seat)
        started = clock()
        action = bot.choose(view)
        seconds[seat] += clock() - started
        apply_chosen(state, action, view)
        actions.append(action)
    if timer is not None:
        decided = Counter(action.seat for action in actions)  # an action's seat decided it
        for seat, count in decided.items():
            timer.seconds[bots[seat].name] += seconds[seat]
            timer.decisions[bots[seat].name] += count
    return state, actions


def setup_for(configuration: str, seed: int, lobbyist: str | None = None, events=True) -> Setup:
    """Standard seats; `lobbyist` fixes the first Lobbyiste's character (§6.7 partners),
    or is a difficulty label: the Lobbyistes are dealt as a new game deals them."""
    base = Setup.standard(configuration, seed=seed, events=events)
    if lobbyist is None:
        return base
    if lobbyist in LABELS:
        return with_difficulty(base, lobbyist)
    partner = "fossilise" if lobbyist == "au_bras_long" else "au_bras_long"
    chosen = [lobbyist, partner]
    seats = []
    for seat in base.seats:
        if seat.side == "lobbyist":
            seats.append(SeatSetup("lobbyist", chosen.pop(0)))
        else:
            seats.append(seat)
    return attrs.evolve(base, seats=tuple(seats))


def run_games(
    games: int,
    configuration: str,
    seed: int,
    ecologists: str = "random",
    lobbyists: str | None = None,
    lobbyist_character: str | None = None,
    save_dir=None,
    timer: Timer | None = None,
    progress=None,
) -> list[GameResult]:
    """`games` seeded games, one result each; `progress(done)` after each game."""
    results = []
    for i in range(games):
        setup = setup_for(configuration, seed + i, lobbyist_character)
        state, actions = play_game(
            setup, ecologists, lobbyists=lobbyists, timer=timer, keep_log=False
        )
        if save_dir is not None:
            _save(save_dir, setup, actions, state)
        assert state.outcome is not None, "each game is played to its end"
        results.append(
            GameResult(
                seed=seed + i,
                hp=state.outcome.hp,
                band=state.outcome.band,
                winner=state.outcome.winner,
                actions=len(actions),
                pile_empty_round=state.pile_empty_round,
                hp_by_round=tuple(state.hp_by_round),
                characters=tuple((p.side, p.character) for p in state.players),
            )
        )
        if progress is not None:
            progress(len(results))
    return results


# `run_games`'s arguments before `timer`: games, configuration, seed, the Écolos' bot,
# the Lobbyistes' bot, the Lobbyiste's character, the saves' folder.
GamesArgs = tuple[int, str, int, str, str | None, str | None, str | None]


def _games_chunk(args: GamesArgs) -> tuple[list[GameResult], dict, dict]:
    """One process's share of `simulate --jobs`: its games and its bots' timings."""
    timer = Timer()
    results = run_games(*args, timer=timer)
    return results, dict(timer.seconds), dict(timer.decisions)


def run_in_processes(
    jobs: int, games: int, configuration: str, seed: int, *rest, timer=None, progress=None
):
    """`run_games` spread over `jobs` processes: each chunk is a contiguous run of seeds,
    and the results come back in seed order, so the summary is the one a single process
    gives. Small chunks (eight a process) let `progress(done)` move as they finish."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    jobs = max(1, min(jobs, games))
    parts = max(1, min(games, jobs * 8))
    bounds = [games * k // parts for k in range(parts + 1)]
    chunks = [
        (bounds[k + 1] - bounds[k], configuration, seed + bounds[k], *rest) for k in range(parts)
    ]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: list[GameResult] = []
    with ProcessPoolExecutor(jobs, mp_context=context) as pool:
        for part, seconds, decisions in pool.map(_games_chunk, chunks):
            results.extend(part)
            if progress is not None:
                progress(len(results))
            if timer is not None:
                for kind, value in seconds.items():
                    timer.seconds[kind] += value
                    timer.decisions[kind] += decisions[kind]
    return results


def simulate(
    games: int,
    configuration: str,
    seed: int,
    bot_kind: str = "random",
    save_dir=None,
    lobbyists: str | None = None,
    lobbyist_character: str | None = None,
    jobs: int = 1,
    progress=None,
) -> dict:
    from ..content import default_content

    default_content()  # the rules are read before the clock starts
    timer = Timer()
    started = time.perf_counter()
    rest = (bot_kind, lobbyists, lobbyist_character, save_dir)
    if jobs > 1:
        results = run_in_processes(
            jobs, games, configuration, seed, *rest, timer=timer, progress=progress
        )
    else:
        results = run_games(games, configuration, seed, *rest, timer=timer, progress=progress)
    seconds = time.perf_counter() - started
    summary = summarise(results, seconds, configuration, seed, bot_kind)
    summary["lobbyists"] = lobbyists or bot_kind
    summary["seconds_per_decision"] = {k: round(v, 6) for k, v in timer.per_decision().items()}
    summary["jobs"] = jobs
    return summary


def summarise(results: list[GameResult], seconds: float, configuration, seed, bot_kind) -> dict:
    n = len(results) or 1
    digest = hashlib.sha256()
    for r in results:
        digest.update(f"{r.hp}:{r.actions};".encode())
    emptied = [r.pile_empty_round for r in results if r.pile_empty_round]
    wins = sum(r.winner == "ecologists" for r in results)
    hp_by_turn = []
    for index in range(10):
        values = [r.hp_by_round[index] for r in results if len(r.hp_by_round) > index]
        if values:
            hp_by_turn.append(round(sum(values) / len(values), 2))
    by_character: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        for side, character in r.characters:
            won = r.winner == ("ecologists" if side == "ecologist" else "lobbyists")
            by_character[character][0] += won
            by_character[character][1] += 1
    return {
        "configuration": configuration,
        "seed": seed,
        "bots": bot_kind,
        "games": len(results),
        "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 1) if seconds else 0.0,
        "mean_actions_per_game": round(sum(r.actions for r in results) / n, 1),
        "outcomes": dict(sorted(Counter(r.band for r in results).items())),
        "ecologist_win_rate": round(wins / n, 4),
        "ecologist_win_rate_ci95": [round(x, 4) for x in wilson(wins, len(results))],
        "mean_final_hp": round(sum(r.hp for r in results) / n, 2),
        "hp_by_turn": hp_by_turn,
        "draw_pile_empty_rate": round(len(emptied) / n, 4),
        "draw_pile_empty_turn": round(sum(emptied) / len(emptied), 2) if emptied else None,
        "character_win_rates": {
            c: round(w / total, 4) for c, (w, total) in sorted(by_character.items())
        },
        "results_digest": digest.hexdigest(),
    }


def format_summary(summary: dict) -> str:
    low, high = summary["ecologist_win_rate_ci95"]
    lines = [
        f"Weathering · {summary['configuration']} · {summary['games']} games · "
        f"Écolos {summary['bots']} vs Lobbyistes {summary.get('lobbyists', summary['bots'])} "
        f"· seed {summary['seed']}",
        f"  {summary['seconds']} s, {summary['games_per_second']} games/s, "
        f"{summary['mean_actions_per_game']} actions per game",
        f"  Écolo win rate {summary['ecologist_win_rate']:.1%} (95% {low:.1%}–{high:.1%}), "
        f"mean final PV {summary['mean_final_hp']}",
        "  PV by round: " + " ".join(str(round(v)) for v in summary["hp_by_turn"]),
        f"  draw pile ran out in {summary['draw_pile_empty_rate']:.1%} of games"
        + (
            f" (mean round {summary['draw_pile_empty_turn']})"
            if summary["draw_pile_empty_turn"]
            else ""
        ),
        "  outcomes: " + ", ".join(f"{band} {n}" for band, n in summary["outcomes"].items()),
        "  seconds per decision: "
        + ", ".join(
            f"{k} {v * 1000:.2f} ms" for k, v in summary.get("seconds_per_decision", {}).items()
        ),
        f"  digest {summary['results_digest']}",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------ balance

CONFIGURATIONS = ("1v1", "2v1", "3v1", "4v1", "2v2", "3v2")
LOBBYISTS = ("fossilise", "au_bras_long", "aux_poches_pleines", "insatiable")


def balance(games: int = 100, seed: int = 1, progress=None, games_done=None) -> list[dict]:
    """Heuristic against heuristic in every configuration: the default game (the fair
    difficulty a new game offers, Lobbyistes dealt as it deals them), then every Lobbyiste."""
    from ..content import default_content

    configurations = default_content().configurations
    rows: list[dict] = []
    for configuration in CONFIGURATIONS:
        fair = configurations[configuration].recommended_label
        for lobbyist in (fair, *LOBBYISTS):
            started = time.perf_counter()
            before = len(rows) * games

            def done(n: int, before=before) -> None:
                if games_done is not None:
                    games_done(before + n)

            results = run_games(
                games,
                configuration,
                seed,
                "heuristic",
                "heuristic",
                lobbyist_character=lobbyist,
                progress=done,
            )
            seconds = time.perf_counter() - started
            summary = summarise(results, seconds, configuration, seed, "heuristic")
            summary["lobbyist"] = lobbyist if lobbyist in LOBBYISTS else "default"
            summary["difficulty"] = fair
            rows.append(summary)
            if progress is not None:
                progress(summary)
    return rows


def balance_cells() -> int:
    """How many (configuration, Lobbyiste) cells `balance` plays."""
    return len(CONFIGURATIONS) * (1 + len(LOBBYISTS))


def balance_markdown(rows: list[dict], games: int, command: str) -> str:
    from ..content import default_content

    # Keyed by a character's label, which only a Lobbyiste has (an Écolo's is None).
    labels: dict[str | None, str] = {"balanced": "⚖️", "hard": "🔥", "deadly": "☠️"}
    chars = default_content().characters
    lines = [
        f"Made with `{command}` ({games} games per cell, heuristic bots on both sides).",
        "",
        "Écolo win rate (95% interval) · mean final PV · games where the draw pile ran out "
        "(mean round).",
        "",
        "| Config | Default game | "
        + " | ".join(f"{chars[c].name} {labels[chars[c].label]}" for c in LOBBYISTS)
        + " |",
        "|---|---|" + "---|" * len(LOBBYISTS),
    ]
    by_config: dict[str, dict[str, dict]] = defaultdict(dict)
    for summary in rows:
        by_config[summary["configuration"]][summary["lobbyist"]] = summary
    for configuration in CONFIGURATIONS:
        cells = []
        for lobbyist in ("default", *LOBBYISTS):
            row = by_config[configuration].get(lobbyist)
            if row is None:
                cells.append("—")
                continue
            low, high = row["ecologist_win_rate_ci95"]
            empty = row["draw_pile_empty_rate"]
            when = f" (r{row['draw_pile_empty_turn']:.0f})" if row["draw_pile_empty_turn"] else ""
            label = f"{labels[row['difficulty']]} " if lobbyist == "default" else ""
            cells.append(
                f"{label}{row['ecologist_win_rate']:.0%} ({low:.0%}–{high:.0%}) · "
                f"{row['mean_final_hp']:.1f} PV · pile {empty:.0%}{when}"
            )
        lines.append(f"| {configuration} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _save(folder, setup, actions, state) -> None:
    from pathlib import Path

    from ..storage.savefile import SavedGame, timestamp, write_save

    stamp = timestamp()  # (played headless, the state kept no history: saved as its replay)
    game = SavedGame(setup, replay(setup, actions, state.content), stamp, stamp)
    write_save(Path(folder) / f"sim-{setup.configuration}-{setup.seed}.toml", game)
