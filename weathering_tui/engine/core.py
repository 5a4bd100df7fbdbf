"""`new_game`, `apply` and `replay`: the one door through which state changes."""

from __future__ import annotations

from itertools import repeat
from operator import is_
from typing import cast

import attrs

from ..content import Content
from . import actions as act
from . import announce, effects, flow, history, loop
from .common import card_id
from .legal import legal_actions, why_illegal
from .refusals import IllegalAction
from .setup import mulligan_pick, setup_game
from .state import GameState, Pending, Setup


def new_game(setup: Setup, content: Content | None = None) -> GameState:
    """Set up a game (§3.2) and stop at the first mulligan decision."""
    state = setup_game(setup, content)
    loop.run(state, _dispatch)
    return state


def headless(state: GameState) -> GameState:
    """The game from now on plays headless (a simulation, a rollout: nobody reads it but
    its outcome): no log, and no history of its actions, so nothing to undo. The same
    decisions give the same game as otherwise (tests/test_headless.py)."""
    state.keep_log = False
    state.headless = True
    return state


def apply(state: GameState, action) -> GameState:
    """Apply one action in place and return the state; an illegal action raises
    `IllegalAction` (a code and its parameters) and changes nothing."""
    return apply_chosen(state, action, None)


def apply_chosen(state: GameState, action, view) -> GameState:
    """`apply` for an action chosen from `view`, the acting seat's view of this very
    state (a bot's, a View or a LeanView): when the view is current and lists the
    action, legality is not computed a second time. An action made on an older view
    is accepted only if it is still legal now; `view` None: as `apply`."""
    pending = state.pending
    # A pass moves no version, so the version alone does not say the view is current:
    # the decision it shows must be the one pending now, for the same seat.
    shown = view.pending if view is not None else None
    trusted = (
        shown is not None
        and view.version == state.version
        and pending is not None
        and shown.kind == pending.kind
        and view.seat == pending.seat == getattr(action, "seat", None)
        # `action in view.legal`, asking identity first: a bot answers with one of the
        # very actions its view lists, and comparing others field by field costs more.
        and (any(map(is_, view.legal, repeat(action))) or action in view.legal)
    )
    if not trusted:
        refusal = why_illegal(state, action)
        if refusal is not None:
            action = _listed_copy(state, action)
            if action is None:
                raise refusal
    # Legal or trusted, an action answers a pending decision (why_illegal refuses any
    # action while nothing is pending).
    pending = cast(Pending, pending)
    # A pass in a reaction window changes nothing the other seats can see, so it does not
    # move the version: who was asked stays as secret as what they hold (network.md).
    if not (pending.kind == "react" and isinstance(action, act.Pass)):
        state.version += 1
    if state.headless:  # no history to keep
        state.pending = None
        _dispatch(state, pending, action)
        loop.run(state, _dispatch)
        return state
    before = history.fingerprint(state)
    state.pending = None
    _dispatch(state, pending, action)
    loop.run(state, _dispatch)
    history.record(state, action, before)
    return state


def _listed_copy(state: GameState, action):
    """The same action on the listed copy of the card it names, if that one is legal.
    Copies are interchangeable: the legal list names one, any copy held does the same."""
    card = getattr(action, "card", None)
    if not isinstance(card, str) or "#" not in card:
        return None
    for option in legal_actions(state, action.seat):
        if (
            type(option) is type(action)
            and isinstance(option.card, str)
            and card_id(option.card) == card_id(card)
            and attrs.evolve(option, card=card) == action
            and _holds(state, action.seat, card)
        ):
            return option
    return None


def _holds(state: GameState, seat: int, card: str) -> bool:
    player = state.players[seat]
    return card in player.hand or card in state.discard_pile


def replay(setup: Setup, actions, content=None) -> GameState:
    """Rebuild a game from its setup and its action list (determinism, §12.12)."""
    state = new_game(setup, content)
    for action in actions:
        apply(state, action)
    return state


def _play(state, pending, frame, a) -> None:
    if pending.kind == "second_card":
        state.stack.pop()
        announce.play_card(state, a.seat, a.card, a.cartouche, a.target, from_discard=True)
    else:
        announce.play_card(state, a.seat, a.card, a.cartouche, a.target)


def _arrange(state, pending, frame, a) -> None:
    state.stack.pop()
    effects.arrange(state, frame, a.order, a.bottom)


# What each kind of action does: (state, pending, top frame, action) -> None.
_HANDLERS = {
    act.PlayCard: _play,
    act.PutInDeck: lambda state, p, f, a: announce.put_in_deck(state, a.seat, a.card),
    act.Discard: lambda state, p, f, a: announce.discard(state, a.seat, a.card),
    act.Draw: lambda state, p, f, a: announce.draw(state, a.seat),
    act.ProposeTrade: lambda state, p, f, a: announce.propose_trade(state, a.seat, a.partner),
    act.StoreAp: lambda state, p, f, a: announce.store_ap(state, a.seat, a.amount),
    act.UsePower: lambda state, p, f, a: announce.use_power(state, a.seat, a.target, a.card),
    act.EndTurn: lambda state, p, f, a: flow.end_turn(state, a.seat),
    act.Pass: lambda state, p, f, a: announce.react_pass(state, f),
    act.Cancel: lambda state, p, f, a: announce.react_cancel(state, f, a.seat, a.card),
    act.AnswerTrade: lambda state, p, f, a: announce.answer_trade(state, f, a.accept),
    act.ChooseCard: lambda state, p, f, a: _choose_card(state, p.kind, f, a.card),
    act.ChooseOption: lambda state, p, f, a: effects.choose_option(state, f, a.option, a.target),
    act.ClaimSynergy: lambda state, p, f, a: flow.claim_synergy(state, f, a.seat, a.claim),
    act.ArrangeEvents: _arrange,
}


def _dispatch(state: GameState, pending: Pending, action) -> None:
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction("not_an_option")
    handler(state, pending, state.stack[-1] if state.stack else None, action)


def _choose_card(state: GameState, kind: str, frame, card) -> None:
    if kind == "mulligan":
        mulligan_pick(state, frame, frame.next_seat, card)
    elif kind == "choose_discard":
        effects.choose_discard(state, frame, card)
    elif kind == "choose_give":
        effects.choose_give(state, frame, card)
    elif kind == "choose_take":
        effects.choose_take(state, frame, card)
    else:
        effects.choose_exchange(state, frame, card)


__all__ = [
    "IllegalAction",
    "apply",
    "apply_chosen",
    "headless",
    "new_game",
    "replay",
    "why_illegal",
]
