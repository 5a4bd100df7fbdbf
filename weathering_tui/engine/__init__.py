"""The rules engine: pure, deterministic, no I/O and no Textual.

state = new_game(Setup.standard("3v2", seed=1))
legal_actions(state, seat) -> [Action, ...]
apply(state, action)       # mutates and returns the state, or raises IllegalAction
view_for(state, seat)      # what that seat may see
public_fields(state), seat_fields(state, seat)  # its parts: alike for all seats, own
replay(setup, actions)     # rebuilds a game exactly
"""

from __future__ import annotations

from . import actions
from .before import before_announcement
from .common import band_for, card_id, copies_of
from .core import apply, apply_chosen, headless, new_game, replay
from .determinize import determinize
from .flow import synergy_of
from .harm import against_own_side, own_side_harm, target_effects
from .history import action_from_key, action_key, clone
from .lean import LeanView
from .legal import legal_actions, why_illegal
from .refusals import REFUSALS, IllegalAction
from .rewind import can_undo, undo
from .setup import LABELS, difficulty_of, with_difficulty
from .state import GameState, LogEntry, PendingKind, SeatSetup, Setup, human_seats, sides_of
from .view import (
    SPECTATOR,
    Decision,
    HandCard,
    PendingView,
    PlayerView,
    View,
    decision_for,
    own_player,
    public_fields,
    seat_fields,
    view_for,
    visible_entry,
)
from .window import Answers, unable_seats, window_choices, window_seats

__all__ = [
    "Answers",
    "LABELS",
    "LeanView",
    "REFUSALS",
    "SPECTATOR",
    "Decision",
    "GameState",
    "HandCard",
    "IllegalAction",
    "LogEntry",
    "PendingKind",
    "PendingView",
    "PlayerView",
    "SeatSetup",
    "Setup",
    "View",
    "action_from_key",
    "action_key",
    "actions",
    "against_own_side",
    "apply",
    "apply_chosen",
    "band_for",
    "before_announcement",
    "can_undo",
    "card_id",
    "copies_of",
    "clone",
    "decision_for",
    "determinize",
    "difficulty_of",
    "headless",
    "human_seats",
    "sides_of",
    "legal_actions",
    "new_game",
    "own_player",
    "own_side_harm",
    "public_fields",
    "replay",
    "seat_fields",
    "synergy_of",
    "target_effects",
    "undo",
    "unable_seats",
    "view_for",
    "visible_entry",
    "why_illegal",
    "window_choices",
    "window_seats",
    "with_difficulty",
]
