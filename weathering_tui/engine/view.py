"""What one seat may see (architecture principle 3).

A view holds the seat's own hand and deck, everyone's public facts, and the
log with only the secrets addressed to this seat. It never holds another
hand or deck, the draw pile order, the event pile order or the random state.
"""

from __future__ import annotations

import attrs

from .common import level
from .legal import legal_actions
from .state import GameState, LogEntry, Outcome, TurnFlags


@attrs.frozen
class PlayerView:
    seat: int
    side: str
    character: str
    name: str
    human: bool
    ap: int
    stored_ap: int
    level: int
    hand_count: int
    deck_count: int
    hand: tuple[str, ...] | None = None  # only for the viewing seat
    deck: tuple[str, ...] | None = None
    # What every seat saw happen this turn (public, needed to reason about the rules).
    turn: TurnFlags = attrs.Factory(lambda: TurnFlags())
    reaction_used: bool = False
    mulligan_done: bool = False
    hand_limit_off: bool = False


@attrs.frozen
class EventView:
    event: str
    remaining: int
    copies: int
    cards: tuple[str, ...] = ()


@attrs.frozen
class PendingView:
    kind: str
    seat: int
    info: dict


@attrs.frozen
class View:
    seat: int
    version: int
    configuration: str
    events_enabled: bool
    round: int
    phase: int
    stage: str
    active: int
    hp: int
    start_hp: int
    players: tuple[PlayerView, ...]
    draw_pile_count: int
    event_pile_count: int
    discard_pile: tuple[str, ...]
    active_events: tuple[EventView, ...]
    event_discard: tuple[str, ...]
    events_removed: tuple[str, ...]
    round_mods: tuple[tuple[int, int], ...]
    ask_every_human: bool
    hp_by_round: tuple[int, ...]
    pending: PendingView | None
    legal: tuple
    log: tuple[LogEntry, ...]
    outcome: Outcome | None

    @property
    def me(self) -> PlayerView:
        return self.players[self.seat]


def visible_entry(entry: LogEntry, seat: int) -> LogEntry:
    """The entry as `seat` sees it: secrets only for their audience."""
    if not entry.secret or seat in entry.audience:
        return entry
    return LogEntry(entry.kind, entry.data, {}, list(entry.audience))


def view_for(state: GameState, seat: int, with_log: bool = True) -> View:
    players = tuple(
        PlayerView(
            seat=p.seat,
            side=p.side,
            character=p.character,
            name=p.name,
            human=p.human,
            ap=p.ap,
            stored_ap=p.stored_ap,
            level=level(state, p.seat),
            hand_count=len(p.hand),
            deck_count=len(p.deck),
            hand=tuple(p.hand) if p.seat == seat else None,
            deck=tuple(p.deck) if p.seat == seat else None,
            turn=attrs.evolve(p.turn),
            reaction_used=p.reaction_used,
            mulligan_done=p.mulligan_done,
            hand_limit_off=p.hand_limit_off,
        )
        for p in state.players
    )
    pending = state.pending
    return View(
        seat=seat,
        version=state.version,
        configuration=state.setup.configuration,
        events_enabled=state.setup.events,
        round=state.round,
        phase=state.phase,
        stage=state.stage,
        active=state.active,
        hp=state.hp,
        start_hp=state.start_hp,
        players=players,
        draw_pile_count=len(state.draw_pile),
        event_pile_count=len(state.event_pile),
        discard_pile=tuple(state.discard_pile),
        active_events=tuple(
            EventView(a.event, a.remaining, len(a.cards), tuple(a.cards))
            for a in state.active_events
        ),
        event_discard=tuple(state.event_discard),
        events_removed=tuple(state.events_removed),
        round_mods=tuple((m.seat, m.amount) for m in state.round_mods),
        ask_every_human=state.setup.ask_every_human,
        hp_by_round=tuple(state.hp_by_round),
        pending=None
        if pending is None
        else PendingView(pending.kind, pending.seat, dict(pending.info)),
        legal=tuple(legal_actions(state, seat)),
        log=tuple(visible_entry(e, seat) for e in state.log) if with_log else (),
        outcome=state.outcome,
    )
