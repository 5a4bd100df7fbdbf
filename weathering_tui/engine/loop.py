"""The resolution loop: frames are stepped until a seat must decide (or the game ends)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import announce, effects, flow, resolve
from .common import log
from .legal import legal_actions
from .setup import step_mulligan
from .state import (
    ArrangeFrame,
    DiscardChoiceFrame,
    EffectsFrame,
    EventWindowFrame,
    ExchangeFrame,
    FinishPlayFrame,
    GameState,
    GiveFrame,
    MulliganFrame,
    OptionFrame,
    OverflowFrame,
    Pending,
    PendingKind,
    ReactionFrame,
    RoundStartFrame,
    SecondCardFrame,
    TakeFrame,
    TradeAnswerFrame,
    TransitionFrame,
)

# Decisions that resolve on their own when only one option exists (§12.11), because
# their options follow from public facts only (the discard pile, counts, PA).
AUTO_KINDS = frozenset({"choose_take", "choose_option", "arrange", "second_card"})
# Choices among a hand's cards: one option can mean one card or two copies of one card,
# so they resolve on their own only when the hand (whose size is public) holds one card.
HAND_KINDS = frozenset({"choose_discard", "choose_give", "choose_exchange"})
MAY_RESOLVE = AUTO_KINDS | HAND_KINDS
# The decision most steps end on, read once: an enum's member costs ~50 ns a read.
_TURN = PendingKind.TURN

# Each frame's step takes a frame of its own class: the table pairs them.
_STEPS: dict[type, Callable[[GameState, Any], None]] = {
    MulliganFrame: step_mulligan,
    RoundStartFrame: flow.step_round_start,
    TransitionFrame: flow.step_transition,
    EventWindowFrame: announce.step_event_window,
    ReactionFrame: announce.step_reaction,
    TradeAnswerFrame: announce.step_trade_answer,
    SecondCardFrame: announce.step_second_card,
    FinishPlayFrame: resolve.step_finish_play,
    EffectsFrame: effects.step_effects,
    OverflowFrame: effects.step_overflow,
    DiscardChoiceFrame: effects.step_discard_choice,
    GiveFrame: effects.step_give,
    TakeFrame: effects.step_take,
    ExchangeFrame: effects.step_exchange,
    OptionFrame: effects.step_option,
    ArrangeFrame: effects.step_arrange,
}


def forced(state: GameState, pending: Pending):
    """The only option of a decision that resolves on its own, else None."""
    kind = pending.kind
    if kind in HAND_KINDS:
        if len(state.players[pending.seat].hand) != 1:
            return None
    elif kind not in AUTO_KINDS:
        return None
    options = legal_actions(state, pending.seat)
    return options[0] if len(options) == 1 else None


def run(state: GameState, dispatch) -> None:
    """Resolve frames until someone must decide (or the game is over). `dispatch`
    carries out an action: forced choices are answered through it, and logged."""
    stack = state.stack  # the one list of a game's frames (the engine never swaps it)
    steps = _STEPS
    while state.stage != "over":  # not `state.over`: this loop runs at every step
        pending = state.pending
        if pending is not None:
            # Most decisions (a turn, a reaction) never resolve on their own.
            if pending.kind not in MAY_RESOLVE:
                return
            only = forced(state, pending)
            if only is None:
                return
            if state.keep_log:
                log(state, "forced", seat=pending.seat, decision=pending.kind)
            state.pending = None
            dispatch(state, pending, only)
            continue
        if stack:
            frame = stack[-1]
            steps[type(frame)](state, frame)
        else:
            state.pending = Pending(_TURN, state.active)
