"""The random bot: uniform among the legal actions of its own view."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine import Decision, View
from ..engine.actions import Action, EndTurn

# §12.10: every turn ends, but a bot still ends its turn after this many decisions.
TURN_GUARD = 200


class RandomBot:
    name = "random"
    needs_view = False  # it reads only the decision and its legal actions (engine.Decision)

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.turn_decisions = 0

    def choose(self, view: View | Decision) -> Action:
        options: Sequence[Action] = view.legal
        if view.pending is not None and view.pending.kind == "turn":
            self.turn_decisions += 1
            if self.turn_decisions > TURN_GUARD:
                options = [a for a in options if isinstance(a, EndTurn)]
        action = self.rng.choice(options)
        if isinstance(action, EndTurn):
            self.turn_decisions = 0
        return action
