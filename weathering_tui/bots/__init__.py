"""Players that choose among a seat's legal actions, seeing only that seat's view.

Which bot is which (`BOTS` below names them as the command line, tables and duels do):

- `random` (random_bot.py) and `heuristic` (heuristic.py, its answers outside its turn in
  heuristic_answers.py): rules of thumb, no search. The heuristic is also the policy
  every search plays its simulated games with.
- `expert` (search.py, `SearchBot`): the expert players meet, the hints (hints.py) and
  the review (review.py) use. It samples worlds the seat cannot tell from the real one
  and plays each candidate move out with heuristic bots (`rollout` in expert.py).
- `pimc` (expert.py, `ExpertBot`): the expert of an earlier release, unchanged, kept
  as the yardstick of duels (sim/duel.py); its `rollout` function serves every search.
- The other `expert_*` names and `ismcts` are variants measured in duels (README:
  Duels), kept so that their figures can be measured again; value.py, inference.py and
  ismcts.py serve only them. No game offers them.

Around them: seat_view.py (what a bot may read), pacing.py (a bot's thinking time at a
table), pool.py (bots thinking in worker processes), follow.py (the moves a hint or a
review says a move leads to), belief.py (the win chance a search believes). The
`*_fit.py` modules are offline scripts that fitted the weights of belief.py and value.py.

To read them: this map, random_bot.py, heuristic.py, `rollout` in expert.py, search.py,
then hints.py, review.py and follow.py.
"""

import functools
from typing import Protocol

from ..engine import View
from ..engine.actions import Action
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .random_bot import RandomBot
from .search import SearchBot


class Bot(Protocol):
    """What every bot does: an action among the legal ones of its seat's view."""

    name: str

    def choose(self, view: View) -> Action: ...


class MakeBot(Protocol):
    """A bot's class, or its class with some of its settings given."""

    def __call__(self, *, seed: int) -> Bot: ...


BOTS: dict[str, MakeBot] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "pimc": ExpertBot,  # the determinized Monte Carlo expert: the yardstick of duels
    # Successive halving over every distinct move, at every decision (bots/search.py);
    # it leaves the heuristic's move for one better by half the paired interval
    # (README: Duels, where 0.5 beat 1.0, the default before, and 2.0).
    "expert": functools.partial(SearchBot, anchor=0.5),
    # Variants measured in duels (README: Duels): the default before, holding to the
    # heuristic's move unless another is better by the whole paired interval,
    "expert_anchored": functools.partial(SearchBot, anchor=1.0),
    # the same search, not anchored,
    "expert_free": SearchBot,
    # on its turn only and not anchored (the expert before every decision was searched),
    "expert_turn": functools.partial(SearchBot, aside=0.0),
    # with four times the work of the expert before its budget was 56 (48),
    "expert_deep": functools.partial(SearchBot, budget=192, anchor=1.0),
    # with each rollout judged by bots/value.py at the next round's start (shorter
    # rollouts: four times the budget in the same time),
    "expert_value": functools.partial(SearchBot, budget=192, anchor=1.0, horizon=1),
    # the same, not anchored,
    "expert_value_free": functools.partial(SearchBot, budget=192, horizon=1),
    # with worlds weighed by how likely the opponent's announced action was in each,
    # the heuristic bot as its model (bots/inference.py),
    "expert_infer": functools.partial(SearchBot, anchor=1.0, infer=True),
    # with its budget scaled by the rounds left (fewer rollouts early, more late: the
    # same work per decision as the default's mean), 70 rollouts at the mean,
    "expert_scaled": functools.partial(SearchBot, anchor=0.5, budget=70, scaled=True),
    # and information-set MCTS over its turn's plan, at the same work (bots/ismcts.py).
    "ismcts": IsmctsBot,
}


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot playing `seat` in the game dealt from `game_seed`: one rule
    for local games, tables, simulations and duels."""
    return game_seed * 7919 + seat


__all__ = [
    "BOTS",
    "Bot",
    "MakeBot",
    "ExpertBot",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "SearchBot",
    "bot_seed",
]
