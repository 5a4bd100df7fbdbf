"""What the expert's rollouts believe, made a chance one can read as one.

The expert's rollouts play heuristic bots on every seat, and a decision's few rollouts
give a noisy share of wins. Against a real opponent that share misjudges the game, and
not alike everywhere: in duels against `pimc` (deals of their own, seeds from 5001) the
expert's Écolos in 3v2 won all their games while their rollouts believed 68 %, its
Lobbyistes in 3v2 won 39 % of the time believing 51 %, its 1v1 Écolos 56 % believing 62 %.

`calibrated(share, configuration, side)` reads the share as a logistic model fitted on
what happened (Platt scaling): logit(chance) = slope × logit(share) + the shift of its
configuration and side, the shifts held towards 0 (a ridge) so that a side that won
every game of the fit is not believed certain. `python -m weathering_tui.bots.belief_fit`
plays those duels again and writes bots/belief_weights.py. Only the chance told changes:
the expert's decisions do not read it.
"""

from __future__ import annotations

import math

from . import belief_weights

# slope, and the shift of each "configuration side" ("3v2 lobbyist"); RAW: the shares
# told as they are (the fit sets it so while it plays the duels it learns from)
SLOPE: float = belief_weights.SLOPE
SHIFTS: dict[str, float] = belief_weights.SHIFTS
RAW = False
EDGE = 0.01  # a share of 0 or 1 is read as 1 % or 99 % (one more rollout could differ)


def logit(share: float) -> float:
    p = min(1 - EDGE, max(EDGE, share))
    return math.log(p / (1 - p))


def calibrated(share: float, configuration: str, side: str) -> float:
    """The chance of winning that a rollout share of `share` stood for in duels, for a
    seat of `side` in `configuration` (no shift where the fit saw none of them)."""
    if RAW:
        return share
    z = SLOPE * logit(share) + SHIFTS.get(f"{configuration} {side}", 0.0)
    return 1 / (1 + math.exp(-z))


def fit(
    rows: list[tuple[float, str, int]], ridge: float = 4.0, steps: int = 50
) -> tuple[float, dict[str, float]]:
    """Slope and shifts fitted on (share, group, won) rows by Newton's method on the
    log-likelihood, with `ridge` × shift² subtracted (the slope is free)."""
    groups = sorted({g for _, g, _ in rows})
    n = 1 + len(groups)
    w = [1.0] + [0.0] * len(groups)
    index = {g: 1 + k for k, g in enumerate(groups)}
    xs = [(logit(s), index[g], y) for s, g, y in rows]
    for _ in range(steps):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for x, k, y in xs:
            p = 1 / (1 + math.exp(-(w[0] * x + w[k])))
            r, v = y - p, p * (1 - p)
            grad[0] += r * x
            grad[k] += r
            hess[0][0] += v * x * x
            hess[0][k] += v * x
            hess[k][0] += v * x
            hess[k][k] += v
        for k in range(1, n):
            grad[k] -= 2 * ridge * w[k]
            hess[k][k] += 2 * ridge
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(b) for b in step) < 1e-9:
            break
    return round(w[0], 6), {g: round(w[index[g]], 6) for g in groups}


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a·x = b (Gauss–Jordan with partial pivoting; `a` is small and positive
    definite here)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]
