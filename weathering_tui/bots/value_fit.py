"""`python -m weathering_tui.bots.value_fit [GAMES]`: fit bots/value.py's weights.

Heuristic bots play GAMES games of each configuration against themselves (seeds from
1,000,000 on, never a test's); the table is read at the start of every round, and the
final gauge is fitted on it by ridge least squares, one set of weights per
configuration and round. It prints, on as many other games (seeds from 2,000,000 on),
how well the model's win chances match what happened (Brier score against the base
rate's, observed against predicted by tenth), then writes bots/value_weights.py.
"""

from __future__ import annotations

import math
import multiprocessing
import sys
from pathlib import Path

CONFIGURATIONS = ("1v1", "2v1", "3v1", "4v1", "2v2", "3v2")
RIDGE = 1.0


def play(job: tuple[str, int]) -> list[tuple[int, list[float], int]]:
    """One heuristic game: (round, features at its start, final gauge) per round."""
    import random

    from ..content import default_content
    from ..engine import LeanView, Setup, apply_chosen, new_game
    from .heuristic import HeuristicBot
    from .value import features

    configuration, seed = job
    content = default_content()
    state = new_game(Setup.standard(configuration, seed=seed), content)
    state.keep_log = False
    rng = random.Random(seed)
    bots = [HeuristicBot(rng.randrange(1 << 30), content) for _ in state.players]
    seen = state.round
    rows = []
    while not state.over:
        if state.round > seen:
            seen = state.round
            rows.append((state.round, features(state)))
        assert state.pending is not None, "a game not over waits for a decision"
        seat = state.pending.seat
        view = LeanView(state, seat)
        apply_chosen(state, bots[seat].choose(view), view)
    assert state.outcome is not None, "the game is over"
    return [(r, x, state.outcome.hp) for r, x in rows]


def solve(rows: list[tuple[list[float], int]]) -> tuple[list[float], float]:
    """Ridge least squares (the bias is not shrunk) and the residuals' spread."""
    n = len(rows[0][0])
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for x, y in rows:
        for i in range(n):
            xi = x[i]
            if xi == 0.0:
                continue
            b[i] += xi * y
            row = a[i]
            for j in range(n):
                row[j] += xi * x[j]
    for i in range(1, n):
        a[i][i] += RIDGE
    weights = _gauss(a, b)
    residuals = [y - sum(w * v for w, v in zip(weights, x, strict=True)) for x, y in rows]
    spread = math.sqrt(sum(r * r for r in residuals) / max(1, len(rows) - n))
    return weights, max(spread, 0.5)


def _gauss(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [u - f * v for u, v in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def games(seed0: int, count: int, workers: int) -> dict:
    jobs = [(c, seed0 + k) for c in CONFIGURATIONS for k in range(count)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = pool.map(play, jobs, chunksize=16)
    data: dict = {}
    for (configuration, _), rows in zip(jobs, results, strict=True):
        for r, x, hp in rows:
            data.setdefault((configuration, r), []).append((x, hp))
    return data


def fit(data: dict) -> dict:
    return {key: solve(rows) for key, rows in sorted(data.items()) if len(rows) >= 50}


def judge(model: dict, data: dict, threshold: int) -> None:
    pairs = []
    for key, rows in data.items():
        if key not in model:
            continue
        weights, spread = model[key]
        for x, hp in rows:
            mu = min(30.0, max(0.0, sum(w * v for w, v in zip(weights, x, strict=True))))
            p = 0.5 * (1 + math.erf((mu - (threshold - 0.5)) / (spread * math.sqrt(2))))
            pairs.append((p, 1.0 if hp >= threshold else 0.0))
    base = sum(y for _, y in pairs) / len(pairs)
    brier = sum((p - y) ** 2 for p, y in pairs) / len(pairs)
    brier_base = sum((base - y) ** 2 for _, y in pairs) / len(pairs)
    print(f"held-out round starts: {len(pairs)}; Brier {brier:.4f} (base rate's {brier_base:.4f})")
    for d in range(10):
        inside = [(p, y) for p, y in pairs if d / 10 <= p < (d + 1) / 10 or (d == 9 and p == 1)]
        if inside:
            predicted = sum(p for p, _ in inside) / len(inside)
            observed = sum(y for _, y in inside) / len(inside)
            print(
                f"  decile {d}: {len(inside):5d} samples, predicted {predicted:5.1%}, "
                f"won {observed:5.1%}"
            )


def write(model: dict, path: Path) -> None:
    from .value_weights import CHARACTERS, EVENTS, THRESHOLD

    lines = [
        '"""Weights of bots/value.py, written by `python -m weathering_tui.bots.value_fit`."""',
        "",
        "# fmt: off",
        f"THRESHOLD = {THRESHOLD}",
        f"CHARACTERS = {CHARACTERS!r}",
        f"EVENTS = {EVENTS!r}",
        "MODEL: dict[tuple[str, int], tuple[tuple[float, ...], float]] = {",
    ]
    for (configuration, r), (weights, spread) in model.items():
        values = ", ".join(f"{w:.4f}" for w in weights)
        lines.append(f"    ({configuration!r}, {r}): (({values}), {spread:.4f}),")
    lines += ["}", "# fmt: on", ""]
    path.write_text("\n".join(lines))


def main(argv: list[str]) -> None:
    from ..argline import Parser, count
    from .value_weights import THRESHOLD

    parser = Parser(
        prog="python -m weathering_tui.bots.value_fit",
        description="Fit bots/value.py's weights on heuristic games and write them.",
    )
    parser.add_argument(
        "games", nargs="?", type=count, default=1000, help="games per configuration (1000)"
    )
    per_configuration = max(60, parser.parse_args(argv).games)
    workers = max(1, (multiprocessing.cpu_count() or 1))
    train = games(1_000_000, per_configuration, workers)
    model = fit(train)
    for key, (_, spread) in model.items():
        print(f"{key[0]} round {key[1]:2d}: {len(train[key])} games, spread {spread:.2f} PV")
    judge(model, games(2_000_000, max(100, per_configuration // 2), workers), THRESHOLD)
    write(model, Path(__file__).with_name("value_weights.py"))


if __name__ == "__main__":
    main(sys.argv[1:])
