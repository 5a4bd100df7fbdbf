"""A variant of the expert measured in duels (`ismcts`): information-set Monte Carlo
tree search, single observer (Cowling, Powley and Whitehouse 2012), open loop.

Each iteration samples a world the seat cannot tell apart from the real one
(engine.determinize) and walks a tree of this seat's own decisions, from the decision
at hand to the end of its turn: a node is the sequence of moves (by `engine.action_key`)
the seat made so far, whatever the hidden cards and the other seats' answers were (its
information set, as far as its own plan goes). At a node it picks the move with the
best upper confidence bound among those legal in this world, counting for each move the
iterations where it was available (the SO-ISMCTS rule), adds one new node per
iteration, and plays the rest out with heuristic bots on every seat. The other seats'
decisions inside its turn (reactions) are theirs, by the heuristic.

Where `expert` (bots/search.py) chooses one move and trusts the heuristic for the rest
of the turn, this plans the turn. The budget is a count of iterations (one rollout
each), as `expert`'s, so the two are compared at equal work.
"""

from __future__ import annotations

import math
import random
import time

from .. import engine
from ..content import default_content
from ..engine import LeanView, View, action_key, apply
from .heuristic import HeuristicBot
from .search import SearchBot
from .seat_view import decision


class _Node:
    __slots__ = ("children", "visits", "total", "wins", "available")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of the results, each in [0, 1]
        self.wins = 0
        self.available = 0  # iterations where this move was legal when its parent was reached


class IsmctsBot:
    name = "ismcts"
    needs_view = True

    def __init__(
        self,
        seed: int = 0,
        content=None,
        budget: int = 48,
        explore: float = 0.05,
        aside: float = 0.5,
        expand_after: int = 6,
        seconds: float = 0.8,
        cap: float = 10.0,
    ):
        self.rng = random.Random(seed)
        self.content = content or default_content()
        self.heuristic = HeuristicBot(seed, self.content)
        self.moves = SearchBot(seed, self.content).moves  # the same candidates as `expert`
        self.budget = budget
        # UCB's exploration, in the result's units ([0, 1], where moves differ by a few
        # hundredths: 0.7 spread the iterations evenly, 14.6 % against pimc)
        self.explore = explore
        # A node below the root grows children only once it has been walked this often:
        # at 48 iterations a second level tried at once spent them on random follow-ups.
        self.expand_after = expand_after
        self.aside = aside
        self.seconds = seconds
        self.cap = cap
        self.belief: float | None = None

    def choose(self, view: View):
        choice = self.heuristic.choose(view)
        self.belief = None
        turn = view.pending is not None and view.pending.kind == "turn"
        if len(view.legal) < 2 or not (turn or self.aside > 0):
            return choice
        budget = self.budget if turn else max(2, round(self.budget * self.aside))
        root = _Node()
        actions: dict[str, object] = {}
        deadline = time.perf_counter() + self.cap
        for i in range(budget):
            if i and time.perf_counter() > deadline:
                break
            self._iterate(view, root, actions, choice)
        if not root.children:
            return choice
        key, best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))
        self.belief = best.wins / best.visits
        return actions[key]

    def _iterate(self, view: View, root: _Node, actions: dict, choice) -> None:
        world = random.Random(self.rng.randrange(1 << 62))
        state = engine.determinize(view, self.content, world)
        state.keep_log = False
        me = view.seat
        plan = decision(view).kind == "turn"  # then the tree goes on to the end of this turn
        bots = [HeuristicBot(world.randrange(1 << 30), self.content) for _ in state.players]
        path = [root]
        node: _Node | None = root  # None once the walk left the tree
        first = True
        steps = 0
        while not state.over and steps < 4000:
            pending = state.pending
            assert pending is not None, "a game not over waits for a decision"
            mine = pending.seat == me and (
                first
                or plan
                and pending.kind == "turn"
                and state.active == me
                and state.round == view.round
            )
            if mine and not first and node is not None and node.visits < self.expand_after:
                node = None  # not walked enough yet: the heuristic plays on from here
            if mine and node is not None:
                seat_view = view if first else engine.view_for(state, me, with_log=False)
                options = self.moves(seat_view, choice if first else bots[me].choose(seat_view))
                key, action, new = self._select(node, options)
                if first:
                    actions.setdefault(key, action)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node()
                path.append(child)
                node = None if new else child
                first = False
            else:
                action = bots[pending.seat].choose(LeanView(state, pending.seat))
            apply(state, action)
            steps += 1
        outcome = state.outcome  # there once the game is over
        hp = outcome.hp if outcome is not None else state.hp
        ecologists_win = hp >= view.threshold
        won = ecologists_win == (view.me.side == "ecologist")
        score = hp + (5 if ecologists_win else -5)
        if view.me.side != "ecologist":
            score = -score
        result = (score + 35) / 70  # the expert's score, from [-35, 35] to [0, 1]
        for visited in path[1:]:
            visited.visits += 1
            visited.total += result
            visited.wins += won

    def _select(self, node: _Node, options: list) -> tuple[str, object, bool]:
        """The move to walk at `node` among `options` (legal in this world): one never
        tried first (in the heuristic's order), else the best upper confidence bound."""
        keyed = [(action_key(a), a) for a in options]
        for key, _ in keyed:
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
            child.available += 1
        for key, action in keyed:
            if node.children[key].visits == 0:
                return key, action, True
        best = max(keyed, key=lambda ka: self._bound(node.children[ka[0]]))
        return best[0], best[1], False

    def _bound(self, child: _Node) -> float:
        mean = child.total / child.visits
        return mean + self.explore * math.sqrt(math.log(child.available) / child.visits)
