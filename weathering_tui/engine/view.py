"""What one seat may see: the one contract between the engine and any screen or bot.

A view holds the seat's own hand and deck, everyone's public facts, the facts
the rules derive from them (costs, what each card in hand allows now, synergy
progress, the outcome threshold and the band the gauge is in, round numbering),
the pending decision as this seat may know it, and the log with only the
secrets addressed to this seat. It never holds another hand or deck, the draw
pile order, the event pile order or the random state, and it never says which
seat is deciding in a reaction window unless it is this one.

Every field is plain data, so a view goes through the project's converter to
JSON and back unchanged (`weathering_tui.engine.wire`).
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import cast

from ..content.defs import CARD_TYPES
from . import actions as act
from .announce import asked_anyway
from .common import (
    GAUGE_MAX,
    band_for,
    card_def,
    card_id,
    constants,
    damage_mod,
    discard_yield,
    effective_cost,
    frugal_cost,
    heal_mod,
    level_for,
    round_in_phase,
    threshold,
)
from .flow import synergy_of
from .legal import legal_actions, turn_actions
from .resolving import public_limbo, public_stack
from .rewind import can_undo
from .state import ArrangeFrame, GameState, LogEntry, MulliganFrame
from .view_records import (  # noqa: F401 - the records are the view's API
    SPECTATOR,
    Decision,
    EventView,
    HandCard,
    PendingView,
    PlayerView,
    SynergyView,
    TurnView,
    View,
)
from .window import window_choices, window_seats


def decision_for(state: GameState, seat: int) -> Decision:
    pending = state.pending
    if (  # this seat's turn (`decided`'s first case, said here at once)
        pending is not None
        and pending.kind == "turn"
        and pending.seat == seat
        and not pending.info
        and state.stage != "over"
    ):
        turn = PendingView("turn", seat, {}, None, {})
        return Decision(seat, state.version, turn, tuple(turn_actions(state, seat)))
    shown, legal = decided(state, seat)
    return Decision(seat, state.version, shown, tuple(legal))


def decided(state: GameState, seat: int) -> tuple[PendingView | None, list]:
    """The pending decision as `seat` sees it and what it may do now: `_pending` and
    `_decision` of a view that no seat has answered yet. A turn, most decisions of a
    game, is said at once (the same records: `_pending`'s first case, `legal_actions`)."""
    pending = state.pending
    if pending is not None and pending.kind == "turn" and not pending.info:
        if state.stage != "over" and pending.seat == seat:
            return PendingView("turn", seat, {}, None, {}), turn_actions(state, seat)
        return PendingView("turn", pending.seat, {}, None, {}), []
    if pending is not None and pending.kind == "react" and pending.seat == seat:
        # The seat the engine asks: the window's first seat it asks, and still asked if
        # it can cancel (or every window asks it): then `window_seats` holds it, and its
        # choices are its legal actions (let it happen, or a cancel it can pay).
        legal = legal_actions(state, seat)
        if len(legal) > 1 or asked_anyway(state, seat):
            return _pending(state, seat, True), legal
    asked, legal = _decision(state, seat, ())
    return _pending(state, seat, asked), legal


def _decision(state: GameState, seat: int, answered: Collection[int]) -> tuple[bool, list]:
    """Whether the open reaction window asks this seat, and what the seat may do now."""
    pending = state.pending
    if pending is not None and pending.kind == "react":
        seats = window_seats(state)
        asked = seat in seats and seat not in answered
        return asked, window_choices(state, seat, seats) if asked else []
    return False, legal_actions(state, seat) if seat >= 0 else []


def visible_entry(entry: LogEntry, seat: int) -> LogEntry:
    """The entry as `seat` sees it: secrets only for their audience."""
    if not entry.secret or seat in entry.audience:
        return entry
    return LogEntry(entry.kind, entry.data, {}, list(entry.audience))


@functools.cache
def _power_costs(content) -> dict[str, tuple[int, int, int]]:
    """Each character's power cost at levels 1, 2 and 3."""
    return {c.id: tuple(c.power.at(n).cost for n in (1, 2, 3)) for c in content.characters.values()}


_NO_TURN = TurnView()


def _turn_view(t) -> TurnView:
    if not (t.acted or t.drew or t.discarded or t.traded or t.power_used or t.proposed):
        return _NO_TURN  # a turn not begun or nothing done yet: the common case
    return TurnView(
        t.drew, t.discarded, t.traded, t.power_used, t.played_card, t.acted, tuple(t.proposed)
    )


def _player(state: GameState, p, seat: int) -> PlayerView:
    own = p.seat == seat
    lvl = level_for(state, p.stored_ap)
    return PlayerView(
        p.seat,
        p.side,
        p.character,
        p.name,
        p.human,
        p.ap,
        p.stored_ap,
        lvl,
        _power_costs(state.content)[p.character][lvl - 1],
        len(p.hand),
        len(p.deck),
        tuple(p.hand) if own else None,
        tuple(p.deck) if own else None,
        _turn_view(p.turn),
        p.reaction_used,
        p.mulligan_done,
        p.hand_limit_off,
        dict(p.stats),
    )


def _hand_cards(state: GameState, seat: int, legal: list) -> tuple[HandCard, ...]:
    player = state.players[seat]
    held = set(player.hand)
    by_card: dict[str, list] = {}
    for action in legal:
        card = getattr(action, "card", None)
        if card in held:  # not a discard-pile card an action may name
            by_card.setdefault(card_id(card), []).append(action)
    cards = state.content.cards
    out = []
    for instance in player.hand:
        cid = card_id(instance)
        actions = by_card.get(cid)
        if not actions:  # a card nothing may be done with now: the common case
            out.append(_idle_card(state.content, instance, state.phase, player.side))
            continue
        plays, deck, discard, choose = [], None, None, None
        for a in actions:
            kind = type(a)
            if kind is act.PlayCard:
                plays.append(a)
            elif kind is act.PutInDeck:
                deck = a
            elif kind is act.Discard:
                discard = a
            elif kind is act.ChooseCard:
                choose = a
        printed = cards[cid].cost
        cost = frugal_cost(printed, state.phase, player.side)
        out.append(HandCard(instance, cid, cost, printed, tuple(plays), deck, discard, choose))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _idle_card(content, instance: str, phase: int, side: str) -> HandCard:
    """A held card with no action on it now (one record, kept: a view holds the same
    object until the card, the phase or the side changes)."""
    cid = card_id(instance)
    printed = content.cards[cid].cost
    return HandCard(instance, cid, frugal_cost(printed, phase, side), printed, (), None, None, None)


def _costs(state: GameState, seat: int, hand, legal) -> dict[str, int]:
    """The hand's costs, and those of the discard-pile cards an action offers to play."""
    costs = {h.instance: h.cost for h in hand}
    for action in legal:
        card = getattr(action, "card", None)
        if card is not None and card not in costs:
            costs[card] = effective_cost(state, seat, card)
    return costs


def _synergy(state: GameState, seat: int) -> SynergyView | None:
    player = state.players[seat]
    if not player.is_ecologist or state.phase != 1:
        return None
    counts = {t: 0 for t in CARD_TYPES}
    for instance in player.deck:
        counts[card_def(state, instance).type] += 1
    return SynergyView(
        tuple(counts.items()), constants(state).synergy_min_deck, synergy_of(state, seat)
    )


def _pending(state: GameState, seat: int, asked: bool) -> PendingView | None:
    pending = state.pending
    if pending is None:
        return None
    if pending.kind == "turn" and not pending.info:  # the common case, said at once
        return PendingView("turn", pending.seat, {}, None, {})
    info = dict(pending.info)
    cause = info.get("reason") or info.get("source")
    if pending.kind == "react":
        cause = info.get("card") or info.get("action")
        if not asked:
            return PendingView("reactions", SPECTATOR, info, cause)
        return PendingView("react", seat, info, cause)
    mine = {}
    if pending.seat == seat and state.stack:
        if pending.kind == "mulligan":
            mine = {"picked": list(cast(MulliganFrame, state.stack[-1]).picked)}
        elif pending.kind == "arrange":  # the cards it peeked at, top first
            mine = {"seen": list(cast(ArrangeFrame, state.stack[-1]).seen)}
    return PendingView(pending.kind, pending.seat, info, cause, mine)


# The fields of a View that depend on the seat that looks; every other field is the
# same for every seat (a server builds it once per change: `net.broadcast`). In
# `players` only the viewing seat's own entry differs (its hand and deck).
SEAT_FIELDS = ("seat", "discard_yield", "hand", "costs", "synergy", "pending", "legal", "can_undo")


def view_for(
    state: GameState, seat: int, with_log: bool = True, answered: Collection[int] = ()
) -> View:
    """What `seat` may see now (SPECTATOR for the public view). In a reaction window
    every seat it asks sees its own prompt at once, until it has `answered` (a table
    collects the answers: `engine.window`); the others wait for "reactions"."""
    return View(
        **public_fields(state, seat),
        **seat_fields(state, seat, answered),
        log=tuple(visible_entry(e, seat) for e in state.log) if with_log else (),
    )


def public_fields(state: GameState, seat: int = SPECTATOR) -> dict:
    """The View fields every seat sees alike (`players` as `seat` sees them)."""
    const = constants(state)
    goal = threshold(state)
    rounds = const.rounds_per_phase
    return dict(
        version=state.version,
        configuration=state.setup.configuration,
        events_enabled=state.setup.events,
        round=state.round,
        phase=state.phase,
        round_in_phase=round_in_phase(state.round, state.phase, rounds),
        rounds_per_phase=rounds,
        stage=state.stage,
        active=state.active,
        hp=state.hp,
        start_hp=state.start_hp,
        gauge_max=GAUGE_MAX,
        threshold=goal,
        band=band_for(state.hp, goal)[0],
        hand_limit=const.hand_limit,
        deck_limit=const.deck_limit,
        ap_cap=const.ap_cap,
        level_thresholds=tuple(const.level_thresholds),
        heal_mod=heal_mod(state),
        damage_mod=damage_mod(state),
        players=tuple(_player(state, p, seat) for p in state.players),
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
        outcome=state.outcome,
        limbo=public_limbo(state),
        resolving=public_stack(state),
    )


def seat_fields(state: GameState, seat: int, answered: Collection[int] = ()) -> dict:
    """The View fields (`SEAT_FIELDS`) that are this seat's own."""
    asked, legal = _decision(state, seat, answered)
    own = 0 <= seat < len(state.players)
    hand = _hand_cards(state, seat, legal) if own else ()
    return dict(
        seat=seat,
        discard_yield=discard_yield(state, seat) if own else 0,
        hand=hand,
        costs=_costs(state, seat, hand, legal) if own else {},
        synergy=_synergy(state, seat) if own else None,
        pending=_pending(state, seat, asked),
        legal=tuple(legal),
        can_undo=own and can_undo(state, seat),
    )


def own_player(state: GameState, seat: int) -> PlayerView:
    """The seat's own entry of `players`: with its hand and deck."""
    return _player(state, state.players[seat], seat)
