"""The expert bot: determinized Monte Carlo over its seat's information set.

At each decision of its own turn, it takes the heuristic bot's preferred action and
the few best alternatives, and for each one samples states the seat cannot tell
apart from the real one (other hands and decks, draw pile, event pile and random
state drawn at random; see engine.determinize), applies the action and plays the
game out with heuristic bots on every seat. It keeps the action with the best mean
result for its side (the final gauge, with a bonus for winning). Decisions outside
its turn (reactions, choices inside effects) are left to the heuristic bot: they
happen with effects half-resolved, where a sampled state cannot be rebuilt from a
view.

The budget is a number of rollouts per candidate and a time limit per decision
(default 0.8 s, so a decision stays under 1 s).
"""

from __future__ import annotations

import random
import time

from .. import engine
from ..content import default_content
from ..engine import View, apply, view_for
from ..engine import actions as act
from .heuristic import HeuristicBot


class ExpertBot:
    name = "expert"
    needs_view = True

    def __init__(
        self,
        seed: int = 0,
        content=None,
        rollouts: int = 12,
        candidates: int = 4,
        seconds: float = 0.8,
        horizon: int | None = None,
    ):
        self.rng = random.Random(seed)
        self.content = content or default_content()
        self.heuristic = HeuristicBot(seed, self.content)
        self.rollouts = rollouts
        self.candidates = candidates
        self.seconds = seconds
        self.horizon = horizon  # rounds to play out; None: to the end of the game

    def choose(self, view: View):
        choice = self.heuristic.choose(view)
        if view.pending is None or view.pending.kind != "turn" or len(view.legal) < 2:
            return choice
        options = self._candidates(view, choice)
        if len(options) < 2:
            return choice
        deadline = time.perf_counter() + self.seconds
        totals = {i: 0.0 for i in range(len(options))}
        counts = {i: 0 for i in range(len(options))}
        for _ in range(self.rollouts):
            if time.perf_counter() > deadline and all(counts.values()):
                break
            # Common random numbers: every candidate meets the same sampled world.
            world = self.rng.randrange(1 << 62)
            for i, option in enumerate(options):
                totals[i] += self._rollout(view, option, random.Random(world))
                counts[i] += 1
        best = max(totals, key=lambda i: (totals[i] / max(1, counts[i]), i == 0))
        return options[best]

    def _candidates(self, view: View, choice) -> list:
        """The heuristic's choice first, then distinct alternatives of other kinds."""
        options = [choice]
        kinds = {type(choice)}
        for action in view.legal:
            if len(options) >= self.candidates:
                break
            if action in options:
                continue
            if isinstance(action, act.StoreAp) and action.amount > 2:
                continue
            if type(action) not in kinds or isinstance(action, act.PlayCard | act.PutInDeck):
                options.append(action)
                kinds.add(type(action))
        return options

    def _rollout(self, view: View, action, world: random.Random) -> float:
        state = engine.determinize(view, self.content, world)
        state.keep_log = False  # a rollout is read by nobody
        apply(state, action)
        bots = [HeuristicBot(world.randrange(1 << 30), self.content) for _ in state.players]
        stop_round = None if self.horizon is None else state.round + self.horizon
        steps = 0
        while not state.over and steps < 4000:
            if stop_round is not None and state.round >= stop_round:
                break
            seat = state.pending.seat
            seat_view = view_for(state, seat, with_log=False)
            apply(state, bots[seat].choose(seat_view), seat_view)
            steps += 1
        hp = state.outcome.hp if state.over else state.hp
        score = hp + (5 if hp >= view.threshold else -5)
        return score if view.me.side == "ecologist" else -score
