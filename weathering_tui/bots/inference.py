"""Worlds weighed by the move an opponent has just made (policy-based inference).

Asked to cancel or let through an opponent's action, the searcher samples worlds the
seat cannot tell apart from the real one (engine.determinize): uniformly, every hand
the unseen cards allow. But the opponent chose that action holding its real hand, and
some hands make the choice unlikely: a Lobbyiste who plays a 2-PV blow while holding a
4-PV one, a player who draws while holding a card it would have played. As Skat and
Hanabi programs do, each world is weighed by how likely the opponent's observed move
was in it, under a model of that opponent: the heuristic bot, asked in the world as
the opponent was asked (engine/before.py rebuilds the state before the announcement).

The weight is 1 when the model makes the observed move, `MISMATCH` otherwise: the
opponent is not the heuristic (a human, another bot), so no world is ruled out. The
search keeps a world with its weight as probability and samples again otherwise, up to
`TRIES` worlds (then keeps the last): the accepted worlds follow the weighted
distribution, and every candidate still meets the same worlds.

Only an opponent's own turn's action is weighed (a card played from the hand, a draw,
PA stored): the one observed move whose state can be rebuilt from a view.
"""

from __future__ import annotations

import random

from .. import engine
from ..content import Content
from ..engine import GameState, LeanView, View, action_key, before_announcement
from .heuristic import HeuristicBot

MISMATCH = 0.2  # a world's weight where the model would not have made the observed move
TRIES = 8  # worlds sampled at most for one kept


class Inference:
    """Samples worlds for one view, weighed by the model's likelihood of the opponent's
    announced action (a view of another decision: uniform worlds, as determinize's)."""

    def __init__(self, content: Content):
        self.content = content
        self.model = HeuristicBot(0, content)

    def sample(self, view: View, rng: random.Random) -> GameState:
        world = engine.determinize(view, self.content, rng)
        for _ in range(TRIES - 1):
            weight = self.weight(world)
            if weight is None:  # not such a window: determinize's own world
                break
            if rng.random() < weight:
                break
            world = engine.determinize(view, self.content, rng)
        return world

    def weight(self, world: GameState) -> float | None:
        """1 if the model, in this world, chooses the action waiting in its window,
        `MISMATCH` if not; None outside a window on an opponent's own turn's action (a
        card played from the hand, a draw, PA stored: engine/before.py)."""
        found = before_announcement(world)
        if found is None:
            return None
        prior, observed = found
        chosen = self.model.choose(LeanView(prior, observed.seat))
        return 1.0 if action_key(chosen) == action_key(observed) else MISMATCH
