"""`new_game`, `apply` and `replay`: the one door through which state changes."""

from __future__ import annotations

from ..content import Content
from . import actions as act
from . import announce, effects, flow, loop
from .common import IllegalAction
from .legal import why_illegal
from .state import GameState, Pending, Setup


def new_game(setup: Setup, content: Content | None = None) -> GameState:
    """Set up a game (§3.2) and stop at the first mulligan decision."""
    state = flow.setup_game(setup, content)
    loop.run(state, _dispatch)
    return state


def apply(state: GameState, action, view=None) -> GameState:
    """Apply one action in place and return the state; an illegal action raises
    `IllegalAction` (a code and its parameters) and changes nothing.

    `view` (optional) is the acting seat's view of this very state: when it is
    current and lists the action, legality is not computed a second time. An
    action made on an older view is accepted only if it is still legal now."""
    trusted = (
        view is not None
        and view.version == state.version
        and view.seat == getattr(action, "seat", None)
        and action in view.legal
    )
    if not trusted:
        refusal = why_illegal(state, action)
        if refusal is not None:
            raise refusal
    pending = state.pending
    # A pass in a reaction window changes nothing the other seats can see, so it does not
    # move the version: who was asked stays as secret as what they hold (network.md).
    if not (pending.kind == "react" and isinstance(action, act.Pass)):
        state.version += 1
    state.pending = None
    _dispatch(state, pending, action)
    loop.run(state, _dispatch)
    return state


def replay(setup: Setup, actions, content=None) -> GameState:
    """Rebuild a game from its setup and its action list (determinism, §12.12)."""
    state = new_game(setup, content)
    for action in actions:
        apply(state, action)
    return state


def _dispatch(state: GameState, pending: Pending, action) -> None:  # noqa: C901 - a flat switch
    frame = state.stack[-1] if state.stack else None
    seat = action.seat
    match action:
        case act.PlayCard(card=card, cartouche=cartouche, target=target):
            if pending.kind == "second_card":
                state.stack.pop()
                announce.play_card(state, seat, card, cartouche, target, from_discard=True)
            else:
                announce.play_card(state, seat, card, cartouche, target)
        case act.PutInDeck(card=card):
            announce.put_in_deck(state, seat, card)
        case act.Discard(card=card):
            announce.discard(state, seat, card)
        case act.Draw():
            announce.draw(state, seat)
        case act.ProposeTrade(partner=partner):
            announce.propose_trade(state, seat, partner)
        case act.StoreAp(amount=amount):
            announce.store_ap(state, seat, amount)
        case act.UsePower(target=target, card=card):
            announce.use_power(state, seat, target, card)
        case act.EndTurn():
            flow.end_turn(state, seat)
        case act.Pass():
            announce.react_pass(state, frame)
        case act.Cancel(card=card):
            announce.react_cancel(state, frame, seat, card)
        case act.AnswerTrade(accept=accept):
            announce.answer_trade(state, frame, accept)
        case act.ChooseCard(card=card):
            _choose_card(state, pending.kind, frame, card)
        case act.ChooseOption(option=option, target=target):
            effects.choose_option(state, frame, option, target)
        case act.ClaimSynergy(claim=claim):
            flow.claim_synergy(state, frame, seat, claim)
        case act.ArrangeEvents(order=order, bottom=bottom):
            state.stack.pop()
            effects.arrange(state, frame, order, bottom)
        case _:
            raise IllegalAction("not_an_option")


def _choose_card(state: GameState, kind: str, frame, card) -> None:
    if kind == "mulligan":
        flow.mulligan_pick(state, frame, frame.next_seat, card)
    elif kind == "choose_discard":
        effects.choose_discard(state, frame, card)
    elif kind == "choose_give":
        effects.choose_give(state, frame, card)
    elif kind == "choose_take":
        effects.choose_take(state, frame, card)
    else:
        effects.choose_exchange(state, frame, card)


__all__ = ["IllegalAction", "apply", "new_game", "replay", "why_illegal"]
