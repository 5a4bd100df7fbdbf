"""Players that choose among a seat's legal actions, seeing only that seat's view."""

from .random_bot import RandomBot

BOTS = {"random": RandomBot}

__all__ = ["BOTS", "RandomBot"]
