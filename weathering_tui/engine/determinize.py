"""A full game state consistent with one seat's view, for bots that search (§ expert bot).

Everything the view shows is copied; what it hides (other hands and decks, the draw
pile, the event pile, the random state, and the hidden cards of the resolution stack:
engine/resolving.py) is sampled with the caller's generator. It works at any decision
of the viewing seat, its turn or mid-effect (a reaction, a discard, a target, an
exchange, an arrangement...): `view_for(determinize(view, ...), view.seat)` is `view`
again, but for the log and `can_undo` (a sampled state has no past).

In a reaction window the sampled engine asks this seat first: the seats before it in
the window's order have let the action happen (if one of them cancels, this seat's
answer changes nothing, so a search loses nothing by assuming they do not).
"""

from __future__ import annotations

import random
from typing import cast

import attrs

from ..content import Content
from .common import copies_of
from .history import copy_record
from .resolving import HIDDEN
from .state import (
    ActiveEvent,
    ArrangeFrame,
    EventWindowFrame,
    ExchangeFrame,
    GameState,
    MulliganFrame,
    Pending,
    PendingKind,
    PlayerState,
    ReactionFrame,
    RoundMod,
    SeatSetup,
    Setup,
    TurnFlags,
)
from .view import PendingView, View


def all_action_cards(content: Content) -> list[str]:
    return [c for card in content.cards.values() for c in copies_of(card)]


def all_event_cards(content: Content) -> list[str]:
    return [c for event in content.events.values() for c in copies_of(event)]


def determinize(view: View, content: Content, rng: random.Random) -> GameState:
    """Sample a state that `view.seat` cannot tell apart from the real one, at a
    decision of that seat."""
    pending = view.pending
    if pending is None or pending.seat != view.seat or not view.legal:
        raise ValueError("a state can be sampled only at a decision of the viewing seat")
    me = view.me
    seen_limbo = [c for c in view.limbo if c != HIDDEN]
    # A discard announced names its card, still in its player's hand until it resolves.
    held: dict[int, list[str]] = {}
    for f in view.resolving:
        if isinstance(f, ReactionFrame) and f.announcement.kind == "discard":
            held.setdefault(f.announcement.actor, []).append(cast(str, f.announcement.card))
    known = set(me.hand or ()) | set(me.deck or ()) | set(view.discard_pile) | set(seen_limbo)
    known |= {card for cards in held.values() for card in cards}
    arranged = _own_arrangement(view, pending)
    if arranged is not None and arranged[0] == "draw":
        known |= set(arranged[1])
    pool = [c for c in all_action_cards(content) if c not in known]
    rng.shuffle(pool)
    decked = pool.pop() if HIDDEN in view.limbo else None  # a card announced into a deck
    players = [_player(p, me, pool, held.get(p.seat, ())) for p in view.players]
    events = _event_pile(view, content, rng, arranged)
    draw_pile = pool
    if arranged is not None and arranged[0] == "draw":
        draw_pile = pool + list(reversed(arranged[1]))
    if len(draw_pile) != view.draw_pile_count:
        raise ValueError("the view's card counts do not add up")
    stack = [
        _frame(f, view, pending, players, draw_pile, events, decked, rng) for f in view.resolving
    ]
    setup = Setup(
        configuration=view.configuration,
        seats=tuple(SeatSetup(p.side, p.character, p.name, p.human) for p in view.players),
        seed=0,
        events=view.events_enabled,
        ask_every_human=view.ask_every_human,
    )
    return GameState(
        setup=setup,
        rng=rng.getrandbits(64),
        hp=view.hp,
        start_hp=view.start_hp,
        players=players,
        draw_pile=draw_pile,
        event_pile=events,
        round=view.round,
        phase=view.phase,
        stage=view.stage,
        active=view.active,
        discard_pile=list(view.discard_pile),
        limbo=[cast(str, decked) if c == HIDDEN else c for c in view.limbo],  # drawn for it
        active_events=[
            ActiveEvent(e.event, list(e.cards), e.remaining) for e in view.active_events
        ],
        event_discard=list(view.event_discard),
        events_removed=list(view.events_removed),
        round_mods=[RoundMod(seat, amount) for seat, amount in view.round_mods],
        stack=stack,
        pending=Pending(PendingKind(pending.kind), view.seat, dict(pending.info)),
        hp_by_round=list(view.hp_by_round),
        version=view.version,
        content=content,
    )


def _own_arrangement(view: View, pending: PendingView) -> tuple[str, list[str]] | None:
    """The pile and the cards (top first) this seat peeked at and now arranges."""
    if pending.kind != "arrange" or not view.resolving:
        return None
    frame = cast(ArrangeFrame, view.resolving[-1])
    return frame.pile, list(pending.mine.get("seen", ()))


def _player(p, me, pool: list[str], held) -> PlayerState:
    if p.seat == me.seat:
        hand, deck = list(me.hand or ()), list(me.deck or ())
    else:
        hand = list(held) + [pool.pop() for _ in range(p.hand_count - len(held))]
        deck = [pool.pop() for _ in range(p.deck_count)]
    return PlayerState(
        seat=p.seat,
        side=p.side,
        character=p.character,
        name=p.name,
        human=p.human,
        ap=p.ap,
        stored_ap=p.stored_ap,
        hand=hand,
        deck=deck,
        mulligan_done=p.mulligan_done,
        hand_limit_off=p.hand_limit_off,
        turn=TurnFlags(**{**attrs.asdict(p.turn), "proposed": list(p.turn.proposed)}),
        reaction_used=p.reaction_used,
        stats=dict(p.stats),
    )


def _event_pile(view: View, content: Content, rng: random.Random, arranged) -> list[str]:
    if not view.events_enabled:
        return []
    seen = set(view.event_discard) | set(view.events_removed)
    for event in view.active_events:
        seen |= set(event.cards)
    seen |= {f.card for f in view.resolving if isinstance(f, EventWindowFrame)}
    top: list[str] = []
    if arranged is not None and arranged[0] == "events":
        top = arranged[1]
        seen |= set(top)
    events = [c for c in all_event_cards(content) if c not in seen]
    rng.shuffle(events)
    events = events[: view.event_pile_count - len(top)]
    return events + list(reversed(top))


def _frame(
    frame, view: View, pending: PendingView, players, draw_pile, events, decked, rng: random.Random
):
    """A frame of the sampled state: the view's copy, its hidden cards drawn (`pending`:
    the view's decision)."""
    kind = type(frame)
    new = copy_record(frame)
    if kind is ReactionFrame or kind is EventWindowFrame:
        if kind is ReactionFrame and frame.announcement.card == HIDDEN:
            new.announcement = attrs.evolve(frame.announcement, card=decked)
        if pending.kind == "react" and frame is view.resolving[-1]:
            new.index = new.order.index(view.seat)  # it is asked first (the module's doc)
    elif kind is MulliganFrame and pending.kind == "mulligan":
        new.picked = list(pending.mine.get("picked", ()))
    elif kind is ExchangeFrame:
        for name, seat in (("pick_first", frame.first), ("pick_second", frame.second)):
            if getattr(frame, name) == HIDDEN:  # another seat's blind pick, still in its hand
                setattr(new, name, rng.choice(players[seat].hand))
    elif kind is ArrangeFrame:
        if pending.kind == "arrange" and frame is view.resolving[-1]:
            new.seen = list(pending.mine.get("seen", ()))
        else:
            pile = events if frame.pile == "events" else draw_pile
            new.seen = list(reversed(pile[len(pile) - len(frame.seen) :]))
    return new
