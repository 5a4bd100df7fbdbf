"""Announced actions and their reaction windows (§3.4, §8); engine/resolve.py resolves them.

An action is announced (legality already checked), paid, then every other seat
in order from the actor may cancel it; only then does it resolve.
"""

from __future__ import annotations

import functools

from . import actions as act
from .common import (
    bump,
    card_id,
    character,
    constants,
    distinct,
    effective_cost,
    level,
    log,
    power_cost,
)
from .flow import finish_event
from .resolve import resolve_announcement
from .state import (
    Announcement,
    EventWindowFrame,
    GameState,
    Pending,
    PendingKind,
    ReactionFrame,
    SecondCardFrame,
    TradeAnswerFrame,
)
from .tables import tables_for


def _open_window(state: GameState, ann: Announcement) -> None:
    """The window goes to the actor's opponents only: cancelling an ally is pointless (§8.3).
    A window that asks nobody closes at once, as `step_reaction` would close it: the
    action resolves (an announcement is the last thing an action does before the
    resolution loop steps the window, so nothing comes between)."""
    tables = tables_for(state)
    order = tables.opponents[ann.actor]
    first = _next_asked(state, order, 0, False, tables)
    if first == len(order):
        resolve_announcement(state, ann, None)
        return
    state.stack.append(ReactionFrame(ann, list(order), first))


def _public(ann: Announcement) -> dict:
    """What every seat learns of an announcement: a decked card stays hidden (§12.13)."""
    data = {"action": ann.kind, "seat": ann.actor, "cost": ann.cost}
    if ann.card is not None and ann.kind != "put_in_deck":
        data["card"] = ann.card
    if ann.kind == "play_card":
        data["cartouche"] = ann.cartouche
        data["from_discard"] = ann.from_discard
    if ann.target is not None:
        data["target"] = ann.target
    if ann.kind == "store_ap":
        data["amount"] = ann.amount
    return data


def announce(state: GameState, ann: Announcement) -> None:
    player = state.players[ann.actor]
    player.turn.acted = True
    if state.keep_log:  # an own secret: nothing hidden comes out (common.log)
        secret, audience = {}, []
        if ann.kind == "put_in_deck":
            secret, audience = {"card": ann.card}, [ann.actor]
        log(state, "announce", secret=secret, audience=audience, **_public(ann))
    _open_window(state, ann)


def play_card(state: GameState, seat: int, card: str, cartouche: int, target, from_discard=False):
    player = state.players[seat]
    cost = effective_cost(state, seat, card)
    player.ap -= cost
    if from_discard:
        state.discard_pile.remove(card)
    else:
        player.hand.remove(card)
    state.limbo.append(card)
    player.turn.played_card = True
    bump(state, seat, "cards_played")
    announce(
        state,
        Announcement(
            "play_card", seat, card, cartouche, target, cost=cost, from_discard=from_discard
        ),
    )


def put_in_deck(state: GameState, seat: int, card: str) -> None:
    player = state.players[seat]
    cost = constants(state).deck_cost
    player.ap -= cost
    player.hand.remove(card)
    state.limbo.append(card)
    announce(state, Announcement("put_in_deck", seat, card, cost=cost))


def discard(state: GameState, seat: int, card: str) -> None:
    state.players[seat].turn.discarded = True
    announce(state, Announcement("discard", seat, card))


def draw(state: GameState, seat: int) -> None:
    player = state.players[seat]
    cost = constants(state).draw_cost
    player.ap -= cost
    player.turn.drew = True
    announce(state, Announcement("draw", seat, cost=cost))


def store_ap(state: GameState, seat: int, amount: int) -> None:
    state.players[seat].ap -= amount
    announce(state, Announcement("store_ap", seat, amount=amount, cost=amount))


def use_power(state: GameState, seat: int, target, card) -> None:
    player = state.players[seat]
    cost = power_cost(state, seat)
    player.ap -= cost
    player.turn.power_used = True
    bump(state, seat, "powers")
    announce(
        state,
        Announcement("use_power", seat, card, target=target, level=level(state, seat), cost=cost),
    )


def propose_trade(state: GameState, seat: int, partner: int) -> None:
    state.players[seat].turn.proposed.append(partner)  # one proposal a partner a turn (R111)
    if state.keep_log:
        log(state, "trade_proposed", seat=seat, partner=partner)
    state.stack.append(TradeAnswerFrame(seat, partner))


def step_trade_answer(state: GameState, frame: TradeAnswerFrame) -> None:
    state.pending = Pending(PendingKind.TRADE_ANSWER, frame.partner, {"initiator": frame.initiator})


def answer_trade(state: GameState, frame: TradeAnswerFrame, accept: bool) -> None:
    """A refusal costs nothing and uses no limit; acceptance pays and opens the window (§3.4)."""
    state.stack.pop()
    if state.keep_log:
        log(state, "trade_answer", seat=frame.partner, initiator=frame.initiator, accept=accept)
    if not accept:
        return
    player = state.players[frame.initiator]
    cost = constants(state).trade_cost
    player.ap -= cost
    player.turn.traded = True
    announce(state, Announcement("trade", frame.initiator, target=frame.partner, cost=cost))


def step_second_card(state: GameState, frame: SecondCardFrame) -> None:
    power = character(state, frame.seat).power.id
    state.pending = Pending(
        PendingKind.SECOND_CARD, frame.seat, {"card": frame.card, "source": power}
    )


# ------------------------------------------------------------ reactions


@functools.cache
def _cancel_cards(content) -> dict:
    """Card id -> its cancel effect, for the cards that can cancel."""
    return {
        card.id: card.cancel_effect()
        for card in content.cards.values()
        if card.cancel_effect() is not None
    }


def power_can_cancel(state: GameState, seat: int, event: bool) -> bool:
    """Whether this seat's reaction power may cancel now (never an event): not used
    during this turn yet, and its PA pay for it. All public."""
    if event:
        return False
    player = state.players[seat]
    return (
        state.content.characters[player.character].power.timing == "reaction"
        and not player.reaction_used
        and player.ap >= power_cost(state, seat)
    )


def cancel_options(state: GameState, seat: int, event: bool) -> list[str | None]:
    """What this seat could cancel with now: None for the reaction power, else card instances."""
    player = state.players[seat]
    hand = player.hand
    tables = tables_for(state)
    no_card = tables.plain_copies.issuperset(hand)
    if no_card and (event or player.character not in tables.reaction_powers):
        return []  # no cancel card in hand and no reaction power: most seats, most times
    options: list[str | None] = [None] if power_can_cancel(state, seat, event) else []
    if no_card:
        return options  # no cancel card in hand: most hands hold none
    cancel_cards = _cancel_cards(state.content)
    if tables.copies.issuperset(hand):  # copies the tables name: a set says which cancel
        held = [c for c in hand if c in tables.cancel_copies]
    else:
        held = [c for c in hand if card_id(c) in cancel_cards]
    costs = tables.costs[state.phase, player.side]  # effective costs (`effective_cost`)
    for instance in distinct(held):
        cancel = cancel_cards[card_id(instance)]
        if event and not cancel.events:
            continue
        if costs[instance] <= player.ap:
            options.append(instance)
    return options


def reaction_answers(state: GameState, seat: int, event: bool) -> list:
    """What a seat may answer a reaction window: let it happen, or a cancel it can pay."""
    return [act.Pass(seat)] + [act.Cancel(seat, c) for c in cancel_options(state, seat, event)]


def asked_anyway(state: GameState, seat: int) -> bool:
    """Whether every window asks `seat`, whatever it holds: a human seat where every human
    is asked (a table; several players at one terminal). Only such a seat's answer tells
    nothing of its cards."""
    return state.setup.ask_every_human and state.players[seat].human


def _asked(state: GameState, seat: int, event: bool) -> bool:
    if cancel_options(state, seat, event):
        return True
    return asked_anyway(state, seat)


def _next_asked(state: GameState, order, index: int, event: bool, tables=None) -> int:
    """The first index from `index` on whose seat the window asks (`_asked`), else
    len(order). A seat seen at a glance to be unasked (no copy of a cancel card in hand,
    nor a card the tables do not know; no reaction power, never for an event; not a seat
    every window asks) is passed over without asking `_asked`: most seats, most windows."""
    players = state.players
    tables = tables or tables_for(state)  # (the caller's, when it has them)
    plain = tables.plain_copies
    powers = frozenset() if event else tables.reaction_powers
    every = state.setup.ask_every_human
    for i in range(index, len(order)):
        player = players[order[i]]
        if (
            plain.issuperset(player.hand)
            and player.character not in powers
            and not (every and player.human)
        ):
            continue
        seat = order[i]
        if _asked(state, seat, event):
            return i
    return len(order)


# Asked of each seat a window asks, read once: an enum's member costs ~50 ns a read.
_REACT = PendingKind.REACT


def step_reaction(state: GameState, frame: ReactionFrame) -> None:
    index = frame.index = _next_asked(state, frame.order, frame.index, False)
    if index < len(frame.order):
        seat = frame.order[index]
        state.pending = Pending(_REACT, seat, _public(frame.announcement))
        return
    state.stack.pop()
    resolve_announcement(state, frame.announcement, None)


def step_event_window(state: GameState, frame: EventWindowFrame) -> None:
    index = frame.index = _next_asked(state, frame.order, frame.index, True)
    if index < len(frame.order):
        seat = frame.order[index]
        state.pending = Pending(_REACT, seat, {"action": "event", "card": frame.card})
        return
    state.stack.pop()
    finish_event(state, frame.card, None)


def pay_cancel(state: GameState, seat: int, card: str | None, against: str) -> None:
    """The canceller pays at once; a cancellation opens no window of its own [RB 153]."""
    player = state.players[seat]
    if card is None:
        cost = power_cost(state, seat)
        player.reaction_used = True
        source = character(state, seat).power.id
    else:
        cost = effective_cost(state, seat, card)
        player.hand.remove(card)
        state.discard_pile.append(card)
        source = card
    player.ap -= cost
    bump(state, seat, "cancels")
    log(state, "cancel", seat=seat, source=source, cost=cost, against=against)


def react_pass(state: GameState, frame) -> None:
    frame.index += 1


def react_cancel(state: GameState, frame, seat: int, card: str | None) -> None:
    state.stack.pop()
    if isinstance(frame, EventWindowFrame):
        pay_cancel(state, seat, card, "event")
        finish_event(state, frame.card, seat)
    else:
        pay_cancel(state, seat, card, frame.announcement.kind)
        resolve_announcement(state, frame.announcement, seat)


# ------------------------------------------------------------ resolution
