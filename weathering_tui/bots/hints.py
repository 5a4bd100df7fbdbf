"""Hints (`h`): the expert's best moves for a seat, from that seat's view alone.

The expert rolls each candidate out against worlds sampled from what the seat cannot
see (bots/expert.py), so a hint knows nothing a player could not: the same view gives
the same hints whatever the hidden cards are. Its budget is a count of rollouts and
its seed comes from the view, so asking twice gives the same answer.
"""

from __future__ import annotations

import zlib

from ..engine import View
from .expert import ExpertBot, Ranked

HINTS = 3
CANDIDATES = 5
ROLLOUTS = 12


def hints(view: View, content=None, count: int = HINTS) -> list[Ranked]:
    """The `count` best candidates, best first (win chance and mean result each); outside
    a turn, the one choice a strong player would make (its win chance unknown)."""
    seed = zlib.crc32(f"{view.seat}:{view.version}:{view.round}:{len(view.legal)}".encode())
    bot = ExpertBot(seed, content, rollouts=ROLLOUTS, candidates=CANDIDATES)
    ranked = bot.rank(view)
    ranked.sort(key=lambda r: -(r.win if r.win is not None else 0.0))  # stable: ties keep rank
    return ranked[:count]
