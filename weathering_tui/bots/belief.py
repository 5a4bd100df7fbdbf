"""What the expert's rollouts believe, made a chance one can read as one.

The expert's rollouts play heuristic bots on every seat, and a decision's few rollouts
give a noisy share of wins. `calibrated(share)` reads the share through a slope and a
shift on the log-odds: logit(chance) = SLOPE × logit(share) + SHIFT. SLOPE < 1 says a
share of a few dozen rollouts overstates; SHIFT > 0 that the expert's side wins more
often than its rollouts say: after this decision the expert searches its next ones too,
where the rollouts have heuristic bots play them. Both are fitted on what happened in
duels against `pimc` on deals of their own (seeds from 5001; the quoted duels start at
9001); `python -m weathering_tui.bots.belief_fit` plays them again and writes
bots/belief_weights.py.

Measured on the quoted duels (the expert at 56 rollouts, README: Duels), Brier score by
configuration, 1v1 · 2v1 · 3v2 (base rate's 0.218 · 0.212 · 0.195):
  the slope alone (0.7156, fitted at 48 rollouts): 0.141 · 0.159 · 0.194;
  the slope refitted alone: 0.142 · 0.159 · 0.192;
  slope and shift (kept): 0.139 · 0.150 · 0.175;
  a slope and shift for each configuration: 0.145 · 0.148 · 0.167;
  one slope, a shift for each configuration and side: 0.153 · 0.155 · 0.159.
None brings every tenth within 5 points on those deals: a tenth's beliefs come from a
few dozen games (a game gives ~100 beliefs and one outcome), and the fitted shifts
moved with the deals (3v2's Écolos: +1.5 on the fit's deals). Which side wins against
whom is the opponent's business more than the search's; one shift for all says only
that the searcher plays better than its rollouts.

Only the chance told changes: the expert's decisions do not read it.
"""

from __future__ import annotations

import math

from . import belief_weights

SLOPE: float = belief_weights.SLOPE
SHIFT: float = belief_weights.SHIFT
RAW = False  # the shares told as they are (the fit sets it while it plays its duels)
EDGE = 0.01  # a share of 0 or 1 is read as 1 % or 99 % (one more rollout could differ)


def logit(share: float) -> float:
    p = min(1 - EDGE, max(EDGE, share))
    return math.log(p / (1 - p))


def calibrated(share: float) -> float:
    """The chance of winning that a rollout share of `share` stood for in duels."""
    if RAW:
        return share
    return 1 / (1 + math.exp(-(SLOPE * logit(share) + SHIFT)))


def fit(pairs: list[tuple[float, int]], steps: int = 100) -> tuple[float, float]:
    """The slope and shift that make sigmoid(slope × logit(share) + shift) best predict
    the outcomes of (share, won) pairs (maximum likelihood, by Newton's method)."""
    xs = [(logit(share), won) for share, won in pairs]
    slope, shift = 1.0, 0.0
    for _ in range(steps):
        g_a = g_b = h_aa = h_ab = h_bb = 0.0
        for x, y in xs:
            p = 1 / (1 + math.exp(-(slope * x + shift)))
            w = p * (1 - p)
            g_a += (y - p) * x
            g_b += y - p
            h_aa += w * x * x
            h_ab += w * x
            h_bb += w
        det = h_aa * h_bb - h_ab * h_ab
        step_a = (h_bb * g_a - h_ab * g_b) / det
        step_b = (h_aa * g_b - h_ab * g_a) / det
        slope, shift = slope + step_a, shift + step_b
        if abs(step_a) + abs(step_b) < 1e-10:
            break
    return round(slope, 6), round(shift, 6)
