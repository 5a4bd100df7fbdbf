"""Bots against bots, fairly (`weathering duel A B`).

Each deal (a seed: the seats' characters, the cards, the events) is played twice, A as
the Écolos and B as the Lobbyistes, then the other way round, so the luck of the deal
and the side that configuration favours cancel out. A's score is its share of the games
won, with a 95 % Wilson interval; an optional SPRT stops the duel as soon as it can tell.

A bot that searches says after each decision what it believed its side's win chance
was (`belief`); `calibration` scores those beliefs against what happened (Brier score,
the base rate's, and the share won by tenth of belief).

A deal is the game a new player gets (`deal="fair"`, the default: the configuration's
recommended difficulty, its Lobbyistes dealt as a new game deals them) or any
characters at all (`deal="random"`, ☠️ Lobbyistes included: there, between strong bots,
the side decides most deals, and a duel tells the bots apart less).

Games run in worker processes; results are taken in deal order, so the same command
gives the same figures (seconds aside) with any number of workers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs

from ..bots import BOTS, bot_seed
from ..engine import apply_chosen, new_game, view_for
from . import stats
from .simulate import setup_for

SIDES = ("ecologist", "lobbyist")


def deal_setup(configuration: str, deal: int, dealt: str = "fair"):
    """The setup of deal number `deal`: as a new game deals it, or any characters."""
    if dealt == "random":
        return setup_for(configuration, deal)
    from ..content import default_content

    fair = default_content().configurations[configuration].recommended_label
    return setup_for(configuration, deal, lobbyist=fair)


@attrs.frozen
class GameRecord:
    """One game of a duel, from A's side of the table."""

    deal: int
    a_side: str
    a_won: bool
    hp: int
    seconds: tuple[float, float]  # (A, B) spent deciding
    decisions: tuple[int, int]
    beliefs_a: tuple[tuple[float, int], ...]  # (belief, won) at A's searched decisions
    beliefs_b: tuple[tuple[float, int], ...]


def play(
    a: str, b: str, configuration: str, deal: int, a_side: str, dealt: str = "fair"
) -> GameRecord:
    """One game: bot kind `a` on every seat of side `a_side`, `b` on the others."""
    setup = deal_setup(configuration, deal, dealt)
    state = new_game(setup)
    state.keep_log = False
    kinds = [a if seat.side == a_side else b for seat in setup.seats]
    bots = [BOTS[kind](seed=bot_seed(deal, i)) for i, kind in enumerate(kinds)]
    seconds = [0.0, 0.0]
    decisions = [0, 0]
    beliefs: list[list[tuple[float, str]]] = [[], []]
    while not state.over:
        assert state.pending is not None, "a game not over waits for a decision"
        seat = state.pending.seat
        bot = bots[seat]
        who = 0 if setup.seats[seat].side == a_side else 1
        view = view_for(state, seat, with_log=False)
        started = time.perf_counter()
        action = bot.choose(view)
        seconds[who] += time.perf_counter() - started
        decisions[who] += 1
        belief = getattr(bot, "belief", None)
        if belief is not None:
            beliefs[who].append((belief, setup.seats[seat].side))
        apply_chosen(state, action, view)
    outcome = state.outcome
    assert outcome is not None, "the game is over"
    ecologists_won = outcome.winner == "ecologists"
    a_won = ecologists_won == (a_side == "ecologist")

    def scored(pairs):
        return tuple((p, int(ecologists_won == (side == "ecologist"))) for p, side in pairs)

    return GameRecord(
        deal,
        a_side,
        a_won,
        outcome.hp,
        (seconds[0], seconds[1]),
        (decisions[0], decisions[1]),
        scored(beliefs[0]),
        scored(beliefs[1]),
    )


def play_deal(job: tuple[str, str, str, int, str]) -> tuple[GameRecord, GameRecord]:
    a, b, configuration, deal, dealt = job
    return tuple(play(a, b, configuration, deal, side, dealt) for side in SIDES)  # type: ignore[return-value]


@attrs.define
class Duel:
    """What a duel has played so far, and the figures it gives."""

    a: str
    b: str
    configuration: str
    seed: int
    dealt: str = "fair"
    records: list[GameRecord] = attrs.Factory(list)
    stopped_by_sprt: str | None = None

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def a_wins(self) -> int:
        return sum(r.a_won for r in self.records)

    def summary(self, sprt: stats.Sprt | None = None) -> dict:
        games = self.games
        low, high = stats.wilson(self.a_wins, games)
        seconds_a = sum(r.seconds[0] for r in self.records)
        seconds_b = sum(r.seconds[1] for r in self.records)
        decisions_a = sum(r.decisions[0] for r in self.records) or 1
        decisions_b = sum(r.decisions[1] for r in self.records) or 1
        by_side = {}
        for side in SIDES:
            mine = [r for r in self.records if r.a_side == side]
            by_side[side] = round(sum(r.a_won for r in mine) / len(mine), 4) if mine else None
        out = {
            "a": self.a,
            "b": self.b,
            "configuration": self.configuration,
            "seed": self.seed,
            "deal": self.dealt,
            "deals": games // 2,
            "games": games,
            "a_wins": self.a_wins,
            "a_score": round(self.a_wins / games, 4) if games else 0.0,
            "ci_low": round(low, 4),
            "ci_high": round(high, 4),
            "a_score_by_side": by_side,
            "seconds_per_decision": {
                "a": round(seconds_a / decisions_a, 6),
                "b": round(seconds_b / decisions_b, 6),
            },
            "calibration": stats.calibration([p for r in self.records for p in r.beliefs_a]),
        }
        beliefs_b = [p for r in self.records for p in r.beliefs_b]
        if beliefs_b:
            out["calibration_b"] = stats.calibration(beliefs_b)
        if sprt is not None:
            out["sprt"] = {
                "p0": sprt.p0,
                "p1": sprt.p1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "llr": round(sprt.llr(self.a_wins, games - self.a_wins), 4),
                "bounds": [round(x, 4) for x in sprt.bounds],
                "verdict": self.stopped_by_sprt,
            }
        return out


def run_duel(
    a: str,
    b: str,
    configuration: str,
    deals: int,
    seed: int = 1,
    workers: int = 1,
    sprt: stats.Sprt | None = None,
    progress=None,
    dealt: str = "fair",
) -> Duel:
    """Play up to `deals` deals (seeds `seed`…) twice each; stop early where `sprt` can
    tell. `progress(games_done)` after each deal. `dealt`: "fair" or "random" (`deal_setup`)."""
    duel = Duel(a, b, configuration, seed, dealt)
    jobs = [(a, b, configuration, seed + i, dealt) for i in range(deals)]

    def take(pair) -> bool:
        duel.records.extend(pair)
        if progress is not None:
            progress(duel.games)
        if sprt is not None:
            duel.stopped_by_sprt = sprt.verdict(duel.a_wins, duel.games - duel.a_wins)
            return duel.stopped_by_sprt is not None
        return False

    if workers <= 1:
        for job in jobs:
            if take(play_deal(job)):
                break
        return duel
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(workers) as pool:
        for pair in pool.imap(play_deal, jobs, chunksize=1):
            if take(pair):
                pool.terminate()  # the games still running stop now, not at the end
                break
    return duel


def format_duel(summary: dict, tr: Callable[..., str], decimal: str = ".") -> str:
    """The duel in words (`tr`: the words of the player's language, words/*.toml)."""

    def pct(x: float) -> str:
        return f"{100 * x:.1f} %".replace(".", decimal)

    def ms(seconds: float) -> str:
        shown = 1000 * seconds
        return (f"{shown:.2f} ms" if shown >= 0.005 else "< 0.01 ms").replace(".", decimal)

    a, b = summary["a"], summary["b"]
    lines = [
        tr(
            "duel.head",
            a=a,
            b=b,
            config=summary["configuration"],
            deals=summary["deals"],
            deal=tr(f"duel.deal.{summary['deal']}"),
            seed=summary["seed"],
            games=summary["games"],
        ),
        "  "
        + tr(
            "duel.score",
            a=a,
            wins=summary["a_wins"],
            games=summary["games"],
            score=pct(summary["a_score"]),
            low=pct(summary["ci_low"]),
            high=pct(summary["ci_high"]),
        ),
    ]
    by_side = summary["a_score_by_side"]
    if by_side["ecologist"] is not None and by_side["lobbyist"] is not None:
        eco, lob = pct(by_side["ecologist"]), pct(by_side["lobbyist"])
        lines.append("  " + tr("duel.sides", eco=eco, lob=lob))
    spd = summary["seconds_per_decision"]
    lines.append("  " + tr("duel.time", a=a, ta=ms(spd["a"]), b=b, tb=ms(spd["b"])))
    if "sprt" in summary:
        s = summary["sprt"]
        verdict = {
            "H1": tr("duel.sprt.h1", a=a, p=pct(s["p1"])),
            "H0": tr("duel.sprt.h0", a=a, p=pct(s["p0"])),
            None: tr("duel.sprt.none"),
        }[s["verdict"]]
        lines.append(
            "  "
            + tr(
                "duel.sprt",
                p0=pct(s["p0"]),
                p1=pct(s["p1"]),
                llr=f"{s['llr']:+.2f}".replace(".", decimal),
                lo=f"{s['bounds'][0]:.2f}".replace(".", decimal),
                hi=f"{s['bounds'][1]:.2f}".replace(".", decimal),
                verdict=verdict,
            )
        )
    for key, who in (("calibration", a), ("calibration_b", b)):
        cal = summary.get(key)
        if not cal or not cal["samples"]:
            continue
        brier, base = f"{cal['brier']:.4f}", f"{cal['brier_base']:.4f}"
        lines.append("  " + tr("duel.beliefs", who=who, n=cal["samples"], brier=brier, base=base))
        for row in cal["deciles"]:
            lines.append(
                "    "
                + tr(
                    "duel.decile",
                    lo=f"{10 * row['decile']:3d}",
                    hi=f"{10 * row['decile'] + 10:3d}",
                    n=f"{row['samples']:6d}",
                    pred=f"{row['predicted']:5.1f}",
                    obs=f"{row['observed']:5.1f}",
                )
            )
    return "\n".join(lines)
