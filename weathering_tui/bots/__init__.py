"""Players that choose among a seat's legal actions, seeing only that seat's view."""

from .heuristic import HeuristicBot
from .random_bot import RandomBot

BOTS = {"random": RandomBot, "heuristic": HeuristicBot}

__all__ = ["BOTS", "HeuristicBot", "RandomBot"]
