"""Players that choose among a seat's legal actions, seeing only that seat's view."""

from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "expert": ExpertBot}

__all__ = ["BOTS", "ExpertBot", "HeuristicBot", "RandomBot"]
