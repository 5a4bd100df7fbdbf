"""The arithmetic of bot duels: a share's confidence interval (Wilson), a sequential
test that may stop a duel early (SPRT), and how well believed win chances match what
happened (the Brier score and a table by decile)."""

from __future__ import annotations

import math

import attrs

Z95 = 1.959963984540054  # the two-sided 95 % quantile of the normal law


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share (95 % by default); (0, 1) with no trial."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.frozen
class Sprt:
    """Wald's sequential probability ratio test on wins and losses: H0 'A wins a share
    p0 of games' against H1 'A wins p1', with error rates alpha (H1 accepted though H0
    holds) and beta (H0 accepted though H1 holds)."""

    p0: float = 0.5
    p1: float = 0.6
    alpha: float = 0.05
    beta: float = 0.05

    def __attrs_post_init__(self):
        if not (0 < self.p0 < 1 and 0 < self.p1 < 1 and self.p0 != self.p1):
            raise ValueError("SPRT needs two different shares between 0 and 1")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("SPRT error rates must be between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): the log-likelihood ratio accepts H0 at or below the lower
        bound and H1 at or above the upper one."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: float, losses: float) -> float:
        return wins * math.log(self.p1 / self.p0) + losses * math.log((1 - self.p1) / (1 - self.p0))

    def verdict(self, wins: float, losses: float) -> str | None:
        """'H1' (A is at least p1), 'H0' (at most p0), or None: play on."""
        lower, upper = self.bounds
        ratio = self.llr(wins, losses)
        if ratio >= upper:
            return "H1"
        if ratio <= lower:
            return "H0"
        return None


def brier(pairs: list[tuple[float, int]]) -> float:
    """Mean squared gap between a believed chance and the outcome (1 won, 0 lost)."""
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs) if pairs else 0.0


def brier_base(pairs: list[tuple[float, int]]) -> float:
    """The Brier score of always believing the base rate: what a forecast must beat."""
    if not pairs:
        return 0.0
    rate = sum(y for _, y in pairs) / len(pairs)
    return rate * (1 - rate)


def deciles(pairs: list[tuple[float, int]]) -> list[dict]:
    """Beliefs grouped by tenth (0–10 %, … 90–100 %): how many, the mean belief and the
    share actually won, each as a percentage with one decimal. Empty tenths are left out."""
    groups: list[list[tuple[float, int]]] = [[] for _ in range(10)]
    for p, y in pairs:
        groups[min(9, max(0, int(p * 10)))].append((p, y))
    rows = []
    for k, group in enumerate(groups):
        if group:
            rows.append(
                {
                    "decile": k,
                    "samples": len(group),
                    "predicted": round(100 * sum(p for p, _ in group) / len(group), 1),
                    "observed": round(100 * sum(y for _, y in group) / len(group), 1),
                }
            )
    return rows


def calibration(pairs: list[tuple[float, int]]) -> dict:
    return {
        "samples": len(pairs),
        "brier": round(brier(pairs), 4),
        "brier_base": round(brier_base(pairs), 4),
        "deciles": deciles(pairs),
    }
