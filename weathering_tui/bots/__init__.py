"""Players that choose among a seat's legal actions, seeing only that seat's view."""

from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

BOTS = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "pimc": ExpertBot,  # the determinized Monte Carlo expert: the yardstick of duels
    "expert": ExpertBot,
}


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot playing `seat` in the game dealt from `game_seed`: one rule
    for local games, tables, simulations and duels."""
    return game_seed * 7919 + seat


__all__ = ["BOTS", "ExpertBot", "HeuristicBot", "RandomBot", "bot_seed"]
