"""What a bot reads: its seat's View, or the same fields built only as far as they are
read (engine/lean.py), and the decision it is asked for."""

from __future__ import annotations

from ..engine import LeanView, PendingView, View
from ..engine import actions as act

SeatView = View | LeanView


def decision(view: SeatView) -> PendingView:
    """The decision a bot is asked for: a bot chooses only when its seat has one."""
    assert view.pending is not None, "a bot chooses only when a decision is due"
    return view.pending


def target_of(power: act.UsePower) -> int:
    """The seat a targeted power names (Thomas's, Amir's: the rules give them one)."""
    assert power.target is not None, "this character's power names a seat"
    return power.target
