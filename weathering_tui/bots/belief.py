"""What the expert's rollouts believe, made a chance one can read as one.

The expert's rollouts play heuristic bots on every seat, and a decision's few rollouts
give a noisy share of wins: too sure of itself (in duels against `pimc`, moves it
believed 84 % sure won 73–78 % of their games). `calibrated(share)` reads the share
through one fitted slope on the log-odds (temperature scaling): logit(chance) = SLOPE ×
logit(share), SLOPE < 1 pulling every belief towards even odds. The slope is fitted on
what happened in duels against `pimc` on deals of their own (seeds from 5001; the
quoted duels start at 9001); `python -m weathering_tui.bots.belief_fit` plays them again
and writes bots/belief_weights.py.

A richer model, a shift for each configuration and side, fitted the same duels better
(Brier 0.121 against 0.170 raw) and did worse on the quoted duels' deals (0.201 against
0.188 raw; the slope alone 0.183): its 3v2 Écolos, winners of all 12 games of the fit,
won 69 % there. Which side wins against whom is the opponent's business, not the search's;
the slope says only how much a share of a few dozen rollouts overstates.

Only the chance told changes: the expert's decisions do not read it.
"""

from __future__ import annotations

import math

from . import belief_weights

SLOPE: float = belief_weights.SLOPE
RAW = False  # the shares told as they are (the fit sets it while it plays its duels)
EDGE = 0.01  # a share of 0 or 1 is read as 1 % or 99 % (one more rollout could differ)


def logit(share: float) -> float:
    p = min(1 - EDGE, max(EDGE, share))
    return math.log(p / (1 - p))


def calibrated(share: float) -> float:
    """The chance of winning that a rollout share of `share` stood for in duels."""
    if RAW:
        return share
    return 1 / (1 + math.exp(-SLOPE * logit(share)))


def fit(pairs: list[tuple[float, int]], steps: int = 50) -> float:
    """The slope that makes sigmoid(slope × logit(share)) best predict the outcomes of
    (share, won) pairs (maximum likelihood, by Newton's method)."""
    xs = [(logit(share), won) for share, won in pairs]
    slope = 1.0
    for _ in range(steps):
        grad = hess = 0.0
        for x, y in xs:
            p = 1 / (1 + math.exp(-slope * x))
            grad += (y - p) * x
            hess += p * (1 - p) * x * x
        step = grad / hess
        slope += step
        if abs(step) < 1e-9:
            break
    return round(slope, 6)
