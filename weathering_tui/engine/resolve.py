"""An announced action resolves (§3.4): after its reaction window, cancelled or not —
a card's effects, a deck's card, a discard's PA, a draw, a trade, stored PA, a power."""

from __future__ import annotations

from typing import cast

from ..content import effects as fx
from .common import (
    card_def,
    card_id,
    character,
    discard_yield,
    draw_cards,
    gain_ap,
    level,
    log,
    tell,
)
from .effects import push_effects
from .state import (
    Announcement,
    ExchangeFrame,
    FinishPlayFrame,
    GameState,
    OverflowFrame,
    SecondCardFrame,
)


def resolve_announcement(state: GameState, ann: Announcement, cancelled_by: int | None) -> None:
    """Carry out an announced action, or apply what its cancellation does (§8.5)."""
    cancelled = cancelled_by is not None
    if cancelled:
        log(state, "cancelled", action=ann.kind, seat=ann.actor, by=cancelled_by)
    _RESOLVERS[ann.kind](state, ann, cancelled)


# An announced card play, deck or discard names its card: `cast(str, ann.card)` says so.


def _resolve_play(state: GameState, ann: Announcement, cancelled: bool) -> None:
    card = cast(str, ann.card)
    if cancelled:  # the card is lost to the discard pile, none of its effects happen
        state.limbo.remove(card)
        state.discard_pile.append(card)
        return
    state.stack.append(FinishPlayFrame(card, ann.actor))
    cartouche = card_def(state, card).cartouches[ann.cartouche]
    push_effects(state, ann.actor, cartouche, card_id(card), ann.target)


def _resolve_put_in_deck(state: GameState, ann: Announcement, cancelled: bool) -> None:
    card = cast(str, ann.card)
    state.limbo.remove(card)
    if cancelled:
        state.discard_pile.append(card)
        log(state, "revealed", seat=ann.actor, card=card)
        return
    state.players[ann.actor].deck.append(card)
    if state.keep_log:  # an own secret: nothing hidden comes out (common.log)
        tell(state, ann.actor, "decked", {"card": card})


def _resolve_discard(state: GameState, ann: Announcement, cancelled: bool) -> None:
    if cancelled:  # the card stays in hand, no PA, the discard is spent [RB 157]
        log(state, "discard_kept", seat=ann.actor, card=ann.card)
        return
    card = cast(str, ann.card)
    actor = state.players[ann.actor]
    actor.hand.remove(card)
    state.discard_pile.append(card)
    got = gain_ap(state, ann.actor, discard_yield(state, ann.actor))
    if state.keep_log:
        log(state, "discard", seat=ann.actor, card=card, reason="action", ap=got)


def _resolve_draw(state: GameState, ann: Announcement, cancelled: bool) -> None:
    if not cancelled:
        draw_cards(state, ann.actor, 1, "action")
        state.stack.append(OverflowFrame(ann.actor))
    elif state.draw_pile:  # the card that would have been drawn goes to the discard [RB 151]
        top = state.draw_pile.pop()
        state.discard_pile.append(top)
        log(state, "burned", card=top)


def _resolve_trade(state: GameState, ann: Announcement, cancelled: bool) -> None:
    if not cancelled:
        state.stack.append(OverflowFrame(ann.actor))
        state.stack.append(ExchangeFrame(ann.actor, cast(int, ann.target), "trade"))


def _resolve_store(state: GameState, ann: Announcement, cancelled: bool) -> None:
    if cancelled:
        return
    actor = state.players[ann.actor]
    actor.stored_ap += ann.amount
    if state.keep_log:
        log(
            state,
            "stored",
            seat=ann.actor,
            amount=ann.amount,
            stored=actor.stored_ap,
            level=level(state, ann.actor),
        )


def _resolve_power(state: GameState, ann: Announcement, cancelled: bool) -> None:
    if cancelled:
        return
    power = character(state, ann.actor).power
    effects = power.at(ann.level).effects
    if any(isinstance(e, fx.PlayFromDiscard) for e in effects):
        state.stack.append(SecondCardFrame(ann.actor, cast(str, ann.card)))  # its chosen card
    else:
        push_effects(state, ann.actor, effects, power.id, ann.target)


_RESOLVERS = {
    "play_card": _resolve_play,
    "put_in_deck": _resolve_put_in_deck,
    "discard": _resolve_discard,
    "draw": _resolve_draw,
    "trade": _resolve_trade,
    "store_ap": _resolve_store,
    "use_power": _resolve_power,
}


def step_finish_play(state: GameState, frame: FinishPlayFrame) -> None:
    """A played card reaches the discard pile only after it resolves (§11.35)."""
    state.stack.pop()
    state.limbo.remove(frame.card)
    state.discard_pile.append(frame.card)
