"""The rules engine: pure, deterministic, no I/O and no Textual.

state = new_game(Setup.standard("3v2", seed=1))
legal_actions(state, seat) -> [Action, ...]
apply(state, action)       # mutates and returns the state, or raises IllegalAction
view_for(state, seat)      # what that seat may see
replay(setup, actions)     # rebuilds a game exactly
"""

from __future__ import annotations

from . import actions
from .common import IllegalAction
from .core import apply, replay, why_illegal
from .flow import new_game, synergy_of
from .legal import legal_actions
from .state import GameState, SeatSetup, Setup
from .view import View, view_for

__all__ = [
    "GameState",
    "IllegalAction",
    "SeatSetup",
    "Setup",
    "View",
    "actions",
    "apply",
    "legal_actions",
    "new_game",
    "replay",
    "synergy_of",
    "view_for",
    "why_illegal",
]
