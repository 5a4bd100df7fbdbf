"""A full game state consistent with one seat's view, for bots that search (§ expert bot).

Everything the view shows is copied; what it hides (other hands and decks, the
draw pile, the event pile, the random state) is sampled with the caller's
generator. Only for decisions taken with an empty resolution stack: the seat's
own turn.
"""

from __future__ import annotations

import random

import attrs

from ..content import Content
from .state import (
    ActiveEvent,
    GameState,
    Pending,
    PlayerState,
    RoundMod,
    SeatSetup,
    Setup,
    TurnFlags,
)
from .view import View


def all_action_cards(content: Content) -> list[str]:
    return [f"{c.id}#{n}" for c in content.cards.values() for n in range(1, c.copies + 1)]


def all_event_cards(content: Content) -> list[str]:
    return [f"{e.id}#{n}" for e in content.events.values() for n in range(1, e.copies + 1)]


def determinize(view: View, content: Content, rng: random.Random) -> GameState:
    """Sample a state that `view.seat` cannot tell apart from the real one."""
    if view.pending is None or view.pending.kind != "turn":
        raise ValueError("a state can be sampled only at a turn decision")
    me = view.me
    known = set(me.hand or ()) | set(me.deck or ()) | set(view.discard_pile)
    pool = [c for c in all_action_cards(content) if c not in known]
    rng.shuffle(pool)
    players = []
    for p in view.players:
        if p.seat == view.seat:
            hand, deck = list(me.hand or ()), list(me.deck or ())
        else:
            hand = [pool.pop() for _ in range(p.hand_count)]
            deck = [pool.pop() for _ in range(p.deck_count)]
        players.append(
            PlayerState(
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
        )
    if len(pool) != view.draw_pile_count:
        raise ValueError("the view's card counts do not add up")
    seen_events = set(view.event_discard) | set(view.events_removed)
    for event in view.active_events:
        seen_events |= set(event.cards)
    events = (
        [c for c in all_event_cards(content) if c not in seen_events] if view.events_enabled else []
    )
    rng.shuffle(events)
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
        draw_pile=pool,
        event_pile=events[: view.event_pile_count],
        round=view.round,
        phase=view.phase,
        stage=view.stage,
        active=view.active,
        discard_pile=list(view.discard_pile),
        active_events=[
            ActiveEvent(e.event, list(e.cards), e.remaining) for e in view.active_events
        ],
        event_discard=list(view.event_discard),
        events_removed=list(view.events_removed),
        round_mods=[RoundMod(seat, amount) for seat, amount in view.round_mods],
        pending=Pending("turn", view.seat, dict(view.pending.info)),
        hp_by_round=list(view.hp_by_round),
        version=view.version,
        content=content,
    )
