"""`pimc`: the expert of an earlier release, kept unchanged as the yardstick of duels
(the expert players meet is bots/search.py); and `rollout`, the simulated game every
search plays.

`ExpertBot` is determinized Monte Carlo over its seat's information set. At each
decision of its own turn it takes the heuristic bot's preferred action and a few
alternatives of other kinds, and for each one samples states the seat cannot tell apart
from the real one (other hands and decks, draw pile, event pile and random state drawn
at random; engine.determinize), applies the action and plays the game out with
heuristic bots on every seat (`rollout`). It keeps the action with the best mean result
for its side (the final gauge, with a bonus for winning). Outside its turn (reactions,
choices inside effects) it leaves the decision to the heuristic bot, as it did when it
was written (bots/search.py rebuilds a world mid-effect and searches those too).

The budget is a number of rollouts per candidate, so equal seeds give equal decisions
on a loaded machine as on an idle one; the wall clock is only a cap (`cap` seconds, far
above what the rollouts take here) that keeps a starved machine from stalling a table.
`seconds` is the thinking time the table's pace gives it (bots/pacing.py).
"""

from __future__ import annotations

import random
import time

import attrs

from .. import engine
from ..content import default_content
from ..content import effects as fx
from ..engine import LeanView, View, apply, apply_chosen, clone, view_for
from ..engine import actions as act
from .heuristic import HeuristicBot
from .value import ecologist_chance


@attrs.frozen
class Ranked:
    """One candidate action and what the rollouts said of it, for the deciding side."""

    action: object
    win: float | None  # share of rollouts won; None: not rolled out (the heuristic's pick)
    score: float  # mean final gauge, with a bonus for winning (higher is better)
    rollouts: int


class ExpertBot:
    name = "pimc"  # (the yardstick of duels; `expert` is bots/search.py's)
    needs_view = True

    def __init__(
        self,
        seed: int = 0,
        content=None,
        rollouts: int = 12,
        candidates: int = 4,
        seconds: float = 0.8,
        horizon: int | None = None,
        cap: float = 10.0,
        clone_worlds: bool = True,
    ):
        self.rng = random.Random(seed)
        self.content = content or default_content()
        self.heuristic = HeuristicBot(seed, self.content)
        self.belief: float | None = None
        self.rollouts = rollouts
        self.candidates = candidates
        self.seconds = seconds
        self.horizon = horizon  # rounds to play out; None: to the end of the game
        self.cap = cap
        # False: sample each candidate's world anew, as before engine.clone (the same
        # decisions, slower: kept for `python -m weathering_tui.bench history`).
        self.clone_worlds = clone_worlds

    def choose(self, view: View):
        best = self.rank(view)[0]
        self.belief = best.win  # its side's win chance as the rollouts saw it (None: none)
        return best.action

    def rank(self, view: View, candidates: int | None = None) -> list[Ranked]:
        """Candidates, best first. Outside its own turn's decisions (reactions, choices
        inside effects) only the heuristic's choice is given: a half-resolved effect
        cannot be rebuilt from a view."""
        choice = self.heuristic.choose(view)
        alone = [Ranked(choice, None, 0.0, 0)]
        if view.pending is None or view.pending.kind != "turn" or len(view.legal) < 2:
            return alone
        options = self._candidates(view, choice, candidates or self.candidates)
        if len(options) < 2:
            return alone
        deadline = time.perf_counter() + self.cap
        totals = [0.0] * len(options)
        wins: list[float] = [0] * len(options)
        counts = [0] * len(options)
        for _ in range(self.rollouts):
            if counts[0] and time.perf_counter() > deadline:
                break
            # Common random numbers: every candidate meets the same sampled world,
            # sampled once and cloned for each.
            seed = self.rng.randrange(1 << 62)
            world = random.Random(seed)
            sample = engine.determinize(view, self.content, world)
            sample.keep_log = False  # a rollout is read by nobody
            after = world.getstate()
            for i, option in enumerate(options):
                if self.clone_worlds:
                    world.setstate(after)
                    state = clone(sample)
                else:
                    world = random.Random(seed)
                    state = engine.determinize(view, self.content, world)
                    state.keep_log = False
                score, won = self._rollout(view, state, option, world)
                totals[i] += score
                wins[i] += won
                counts[i] += 1
        ranked = [
            Ranked(option, wins[i] / counts[i], totals[i] / counts[i], counts[i])
            for i, option in enumerate(options)
        ]
        # Best mean first; among equals the heuristic's choice (listed first) stays first.
        order = sorted(range(len(options)), key=lambda i: (-ranked[i].score, i != 0))
        return [ranked[i] for i in order]

    def _candidates(self, view: View, choice, limit: int) -> list:
        """The heuristic's choice first, then distinct alternatives of other kinds."""
        options = [choice]
        kinds = {type(choice)}
        for action in view.legal:
            if len(options) >= limit:
                break
            if action in options:
                continue
            if isinstance(action, act.StoreAp) and action.amount > 2:
                continue
            if isinstance(action, act.PlayCard) and self._aimed_wrong(view, action):
                continue
            if type(action) not in kinds or isinstance(action, act.PlayCard | act.PutInDeck):
                options.append(action)
                kinds.add(type(action))
        return options

    def _aimed_wrong(self, view: View, action: act.PlayCard) -> bool:
        return aimed_wrong(self.heuristic, view, action)

    def _rollout(self, view: View, state, action, world: random.Random) -> tuple[float, float]:
        return rollout(view, state, action, world, self.content, self.horizon)


def aimed_wrong(heuristic: HeuristicBot, view: View, action: act.PlayCard) -> bool:
    """A card aimed at the wrong side: PA lost or cards discarded by one's own side,
    cards drawn or given to the other. Never worth a rollout, and with few rollouts
    it could come out on top by chance (a hint telling a player to hit an ally)."""
    if action.target is None:
        return False
    ally = view.players[action.target].side == view.me.side
    aim = fx.aim(heuristic.card(action.card).cartouches[action.cartouche])
    return aim == (fx.HARMS if ally else fx.HELPS)


def rollout(
    view: View,
    state,
    action,
    world: random.Random,
    content,
    horizon: int | None = None,
    lean: bool = False,
    judged: bool = False,
) -> tuple[float, float]:
    """The game played out from a sampled state with heuristic bots on every seat: the
    final gauge, +5 for a win and -5 for a loss, from the deciding side's point of view;
    and whether it won (1 or 0). `horizon`: rounds to play out (None: to the end).
    `judged`: at the horizon, the game is judged by bots/value.py (the expected final
    gauge ±5 weighted by the win chance, and that chance) where it has weights, else
    played on to the end. `lean`: the bots read `LeanView`s (the same decisions, built
    only as far as they are read)."""
    apply(state, action)
    bots = [HeuristicBot(world.randrange(1 << 30), content) for _ in state.players]
    stop_round = None if horizon is None else state.round + horizon
    steps = 0
    while not state.over and steps < 4000:
        if stop_round is not None and state.round >= stop_round:
            judgement = ecologist_chance(state) if judged else None
            if judgement is not None:
                chance, expected = judgement
                score = expected + 10 * chance - 5
                if view.me.side == "ecologist":
                    return score, chance
                return -score, 1.0 - chance
            if not judged:
                break
            stop_round = None  # no weights for this round: to the end
        seat = state.pending.seat
        seat_view = LeanView(state, seat) if lean else view_for(state, seat, with_log=False)
        apply_chosen(state, bots[seat].choose(seat_view), seat_view)
        steps += 1
    hp = state.outcome.hp if state.over else state.hp
    ecologists_win = hp >= view.threshold
    score = hp + (5 if ecologists_win else -5)
    if view.me.side == "ecologist":
        return score, float(ecologists_win)
    return -score, float(not ecologists_win)
