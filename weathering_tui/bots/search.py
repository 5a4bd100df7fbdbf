"""The expert bot (`expert`): determinized search with successive halving.

Like `pimc` (bots/expert.py), it samples worlds the seat cannot tell apart from the
real one (engine.determinize) and plays each candidate out with heuristic bots on every
seat. Three things differ:

- **Every decision.** Not only its turn's: whether to cancel or let an action happen,
  what to discard, give or exchange, which option of a card, whether to accept a trade,
  the mulligan (a view holds the resolution stack, so a world can be rebuilt mid-effect).
  Outside its turn it spends `budget * aside` rollouts (`aside`: a fraction).

- **More candidates, budget where it matters.** The heuristic's move, then the
  distinct legal moves in their legal order, up to `candidates` (12; copies of a card
  are one move; cards aimed at the wrong side and large PA stores are left out, as
  `pimc` does), not pimc's four. (One move of each kind first, so that ending the
  turn or storing PA is never crowded out by plays, scored no better against the
  heuristic: 72.4 % in 1v1 on the 96 deals from 9001 where this order scores 75.0 %.)
  The rollouts are spent by successive halving: every candidate meets the same few
  worlds, the better half goes on to more worlds, and so on, so the last two are
  compared on many worlds while a move that loses everywhere costs one or two
  rollouts.
- **Paired comparisons.** A world is sampled once and every candidate still in the
  race meets it (common random numbers), so the difference between two moves is
  measured on the same hands and draws: its spread, not each move's, decides whether
  two moves can be told apart (`Estimate.margin`, used by the hints).

The budget is a count of rollouts (`budget`), never seconds, so equal seeds give equal
decisions on any machine; `cap` seconds only keeps a starved machine from stalling a
table, and `should_stop()` lets a caller abandon the search (a hint dismissed).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

import attrs

from .. import engine
from ..content import default_content
from ..engine import View, action_key, clone
from ..engine import actions as act
from .belief import calibrated
from .expert import aimed_wrong, rollout
from .heuristic import HeuristicBot
from .inference import Inference


@attrs.define
class _Race:
    """The moves raced so far: each one's result by world, its wins, what was spent."""

    scores: list[dict[int, float]]  # scores[i][w]: move i's result in world w
    wins: list[float]
    spent: int = 0
    worlds: int = 0


class Stopped(Exception):
    """The caller asked the search to stop (`should_stop()` became true)."""


@attrs.frozen
class Estimate:
    """A candidate move and what its rollouts said, for the deciding side."""

    action: object
    win: float | None  # share of its rollouts won; None: not searched
    score: float  # mean final gauge for the side, with ±5 for a win or a loss
    rollouts: int
    # Half-width of a 95 % interval on this move's mean score *minus the best move's*,
    # on the worlds both met (0 for the best move itself, inf when they shared none).
    margin: float = 0.0
    gap: float = 0.0  # best move's mean score minus this one's, on those shared worlds


# The expert's rollouts a decision of its turn (half that outside it: `aside`). At 48 it
# beat `pimc` 60–64 % in three quarters of pimc's time per decision; at 56, on the same
# deals (9001…, README: Duels), 67 % in 1v1 and 2v1 and 71 % in 3v2, in 0.86–0.89× its
# time: the work the duels' rule ("no more time than pimc's") leaves it, with a margin.
BUDGET = 56


class SearchBot:
    name = "expert"
    needs_view = True

    def __init__(
        self,
        seed: int = 0,
        content=None,
        budget: int = BUDGET,
        candidates: int = 12,
        seconds: float = 0.8,
        cap: float = 10.0,
        aside: float = 0.5,
        anchor: float | None = None,
        horizon: int | None = None,
        confirm: int = 0,
        infer: bool = False,
        scaled: bool = False,
    ):
        self.rng = random.Random(seed)
        self.content = content or default_content()
        self.heuristic = HeuristicBot(seed, self.content)
        self.budget = budget
        self.candidates = candidates
        self.seconds = seconds  # the thinking time a table's pace gives it (bots/pacing.py)
        self.cap = cap
        self.aside = aside  # share of the budget outside its turn (0: the heuristic decides)
        # None, or: the heuristic's choice stays in the race to the end, and another move
        # is chosen over it only if it does better by `anchor` times the paired interval.
        self.anchor = anchor
        # None: rollouts to the game's end; else rounds played before bots/value.py
        # judges the game (where it has weights for that round)
        self.horizon = horizon
        # Rollouts beyond the budget, shared by the moves the halving kept to the end (a
        # hint's: the chance it shows, and the order of the first two, told closer)
        self.confirm = confirm
        # Worlds weighed by the opponent's move just announced (bots/inference.py)
        self.inference = Inference(self.content) if infer else None
        # The budget scaled by the rounds left (a rollout's length): the same work over a
        # game, fewer rollouts at its start and more near its end (`_scale`).
        self.scaled = scaled
        self.belief: float | None = None
        # Told the rollouts spent so far, after each one (a hint's share done, shown)
        self.on_rollout: Callable[[int], None] | None = None

    def choose(self, view: View):
        best = self.rank(view)[0]
        # its side's win chance: the rollouts' share read through what duels showed it
        # to stand for (bots/belief.py); None when nothing was searched
        self.belief = None if best.win is None else calibrated(best.win)
        return best.action

    def rank(
        self,
        view: View,
        budget: int | None = None,
        should_stop: Callable[[], bool] | None = None,
        keep=None,
    ) -> list[Estimate]:
        """Candidates, best first (only the heuristic's choice when there is nothing to
        search: one legal move, or outside its turn with `aside` 0).
        `keep`: a legal move that is a candidate and is never dropped by the halving (a
        review measures the move played against the best on the same worlds).
        Raises `Stopped` as soon as `should_stop()` is true between two rollouts."""
        choice = self.heuristic.choose(view)
        alone = [Estimate(choice, None, 0.0, 0)]
        turn = view.pending is not None and view.pending.kind == "turn"
        if len(view.legal) < 2 or not (turn or self.aside > 0):
            return alone
        options = self.moves(view, choice)
        kept = None
        if keep is not None:
            same = [i for i, o in enumerate(options) if action_key(o) == action_key(keep)]
            if not same:
                options.append(keep)
                same = [len(options) - 1]
            kept = same[0]
        protected = {i for i in (kept, 0 if self.anchor is not None else None) if i is not None}
        if len(options) < 2:
            return alone
        budget = budget or (self.budget if turn else max(2, round(self.budget * self.aside)))
        if self.scaled:
            budget = max(2, round(budget * _scale(view)))
        deadline = time.perf_counter() + self.cap
        # scores[i][w]: candidate i's result in world w (worlds numbered as sampled)
        scores: list[dict[int, float]] = [{} for _ in options]
        wins = [0.0] * len(options)
        alive = list(range(len(options)))
        rounds = max(1, math.ceil(math.log2(len(options))))
        race = _Race(scores, wins)
        for stage in range(rounds):
            left_rounds = rounds - stage
            count = max(1, (budget - race.spent) // (left_rounds * len(alive)))
            self._play(view, options, race, count, alive, should_stop, deadline)
            if len(alive) > 2:
                alive.sort(key=lambda i: (-_mean(scores[i]), i))
                alive = alive[: max(2, len(alive) // 2)]
                alive += [i for i in sorted(protected) if i not in alive]
                alive.sort()
        if self.confirm:  # the finalists again, on worlds of their own: a chance told closer
            count = max(1, self.confirm // len(alive))
            self._play(view, options, race, count, alive, should_stop, deadline)
        ranked = self._estimates(options, scores, wins)
        if self.anchor is not None and keep is None:
            first = next(e for e in ranked if e.action is choice)
            if first is not ranked[0] and first.gap <= self.anchor * first.margin:
                ranked.remove(first)
                ranked.insert(0, first)  # not beaten beyond noise: the heuristic's move
        return ranked

    def measure(
        self,
        view: View,
        moves: list,
        worlds: int,
        should_stop: Callable[[], bool] | None = None,
    ) -> list[Estimate]:
        """`moves` each played out on the same `worlds` fresh sampled worlds, best first
        (each measured against the best on those worlds): a second look, on worlds of
        its own, at moves a search has already picked out."""
        race = _Race([{} for _ in moves], [0.0] * len(moves))
        deadline = time.perf_counter() + self.cap
        self._play(view, moves, race, worlds, list(range(len(moves))), should_stop, deadline)
        return self._estimates(moves, race.scores, race.wins)

    def moves(self, view: View, choice) -> list:
        """The heuristic's choice first, then every distinct other legal move worth a
        rollout, up to `candidates`."""
        options = [choice]
        seen = {action_key(choice)}
        for action in view.legal:
            if len(options) >= self.candidates:
                break
            key = action_key(action)
            if key in seen:
                continue
            if isinstance(action, act.StoreAp) and action.amount > 2:
                continue
            if isinstance(action, act.PlayCard) and aimed_wrong(self.heuristic, view, action):
                continue
            seen.add(key)
            options.append(action)
        return options

    def _play(self, view, options, race, count, chosen, should_stop, deadline) -> None:
        """`count` more sampled worlds, each played out for every move in `chosen`
        (worlds numbered as sampled: the moves are compared on the worlds they shared)."""
        for _ in range(count):
            if should_stop is not None and should_stop():
                raise Stopped
            if race.spent and time.perf_counter() > deadline:
                break
            world = random.Random(self.rng.randrange(1 << 62))
            if self.inference is not None:
                sample = self.inference.sample(view, world)
            else:
                sample = engine.determinize(view, self.content, world)
            sample.keep_log = False  # a rollout is read by nobody
            after = world.getstate()
            for i in chosen:
                if should_stop is not None and should_stop():
                    raise Stopped  # between any two rollouts, not only two worlds
                world.setstate(after)
                score, won = rollout(
                    view,
                    clone(sample),
                    options[i],
                    world,
                    self.content,
                    self.horizon,
                    lean=True,
                    judged=self.horizon is not None,
                )
                race.scores[i][race.worlds] = score
                race.wins[i] += won
                race.spent += 1
                if self.on_rollout is not None:
                    self.on_rollout(race.spent)
            race.worlds += 1

    @staticmethod
    def _estimates(options, scores, wins) -> list[Estimate]:
        order = sorted(range(len(options)), key=lambda i: (-len(scores[i]), -_mean(scores[i]), i))
        # The most searched move with the best mean is the choice; the others are
        # measured against it on the worlds they shared.
        best = order[0]
        out = []
        for i in order:
            gap, margin = _paired(scores[best], scores[i]) if i != best else (0.0, 0.0)
            out.append(
                Estimate(
                    options[i],
                    wins[i] / len(scores[i]),
                    _mean(scores[i]),
                    len(scores[i]),
                    margin,
                    gap,
                )
            )
        return out


def _scale(view: View) -> float:
    """How many times the budget's rollouts a decision gets, from the rounds left to play
    (a rollout's length): the mean rounds left over a game's decisions divided by this
    one's, between 0.5 and 4 (at the first round 0.55, at the last 4)."""
    total = 2 * view.rounds_per_phase
    left = max(1, total - view.round + 1)
    return min(4.0, max(0.5, (total + 1) / 2 / left))


def _mean(values: dict[int, float]) -> float:
    return sum(values.values()) / len(values) if values else -math.inf


def _paired(best: dict[int, float], other: dict[int, float]) -> tuple[float, float]:
    """The mean of best − other on the worlds both met, and the half-width of its 95 %
    interval (inf with fewer than two such worlds)."""
    shared = [w for w in other if w in best]
    if len(shared) < 2:
        return (_mean(best) - _mean(other) if best and other else 0.0), math.inf
    diffs = [best[w] - other[w] for w in shared]
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean, 1.96 * math.sqrt(var / len(diffs))
