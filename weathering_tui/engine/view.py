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

import attrs

from ..content.defs import CARD_TYPES
from . import actions as act
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
    threshold,
)
from .flow import synergy_of
from .legal import legal_actions
from .rewind import can_undo
from .state import GameState, LogEntry, Outcome
from .window import window_choices, window_seats

SPECTATOR = -1  # the seat of a public view: no hand, no decision

# A view is a snapshot that nothing writes to. Its records are not frozen only because a
# frozen attrs class sets each field through object.__setattr__: three times slower, and
# a view is built for every decision of every simulated game.
_record = attrs.define(frozen=False, eq=True, slots=True)


@_record
class TurnView:
    """What a player has done this turn (all public)."""

    drew: bool = False
    discarded: bool = False
    traded: bool = False
    power_used: bool = False
    played_card: bool = False
    acted: bool = False
    proposed: tuple[int, ...] = ()


@_record
class PlayerView:
    seat: int
    side: str
    character: str
    name: str
    human: bool
    ap: int
    stored_ap: int
    level: int
    power_cost: int  # the power's cost at the current level
    hand_count: int
    deck_count: int
    hand: tuple[str, ...] | None = None  # only for the viewing seat
    deck: tuple[str, ...] | None = None
    turn: TurnView = TurnView()
    reaction_used: bool = False
    mulligan_done: bool = False
    hand_limit_off: bool = False
    stats: dict = attrs.Factory(dict)  # public counts for the end of the game


@_record
class HandCard:
    """One card (each copy) of the viewing seat's hand and what it allows right now.

    The actions name one instance per card: copies are interchangeable, so the action
    listed for a second copy may name the first."""

    instance: str
    card: str
    cost: int  # effective cost now (frugality included)
    printed_cost: int
    plays: tuple[act.PlayCard, ...] = ()
    put_in_deck: act.PutInDeck | None = None
    discard: act.Discard | None = None
    choose: act.ChooseCard | None = None  # in a choice among the hand's cards

    @property
    def playable(self) -> bool:
        return bool(self.plays)


@_record
class SynergyView:
    """The viewing Écolo's deck towards a synergy (§4.1)."""

    types: tuple[tuple[str, int], ...]  # (type, cards of that type), every type listed
    min_deck: int
    qualifies: str | None  # "single_type", "four_types" or None


@_record
class EventView:
    event: str
    remaining: int
    copies: int
    cards: tuple[str, ...] = ()


@_record
class PendingView:
    """A decision as this seat may know it. In a reaction window each seat it asks sees
    its own "react" prompt (all at once: `engine.window`); the other seats see kind
    "reactions" and seat -1: waiting for reactions, never for whom."""

    kind: str
    seat: int
    info: dict
    cause: str | None = None  # the card, event, power or rule that caused the decision
    mine: dict = attrs.Factory(dict)  # facts only the deciding seat may see


@_record
class View:
    seat: int
    version: int
    configuration: str
    events_enabled: bool
    round: int  # 1–10 across the game
    phase: int
    round_in_phase: int  # "phase P, round r of rounds_per_phase": the one numbering shown
    rounds_per_phase: int
    stage: str
    active: int
    hp: int
    start_hp: int
    gauge_max: int
    threshold: int  # the Écolos win at this many PV or more
    band: str  # the outcome band the gauge is in now
    hand_limit: int
    deck_limit: int
    ap_cap: int
    discard_yield: int  # the PA this seat's discard action gives now
    level_thresholds: tuple[int, int]  # stored PA that reach levels 2 and 3
    heal_mod: int  # added to every heal now (active events), before the 0 floor
    damage_mod: int  # added to every damage now
    players: tuple[PlayerView, ...]
    hand: tuple[HandCard, ...]
    # What each card this seat could pay for now costs it (hand, and the discard pile for
    # a power that plays from it): frugality and every modifier applied.
    costs: dict[str, int]
    synergy: SynergyView | None
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
    legal: tuple[act.Action, ...]
    log: tuple[LogEntry, ...]
    outcome: Outcome | None
    # This seat may take its last move back now (engine/rewind.py states the rule).
    can_undo: bool = False

    @property
    def me(self) -> PlayerView:
        return self.players[self.seat]

    def cost(self, instance: str) -> int:
        """This seat's cost for a card it holds (or may play from the discard pile)."""
        return self.costs[instance]

    @property
    def spectator(self) -> bool:
        return self.seat == SPECTATOR

    @property
    def deciding(self) -> bool:
        """True when this seat has a decision to make now."""
        return bool(self.legal)


@_record
class Decision:
    """The part of a seat's view that a decision alone needs: the pending decision and
    the legal actions. A bot that looks at nothing else (the random bot) is given this
    instead of a whole view, which costs a fraction to build."""

    seat: int
    version: int
    pending: PendingView | None
    legal: tuple[act.Action, ...]


def decision_for(state: GameState, seat: int) -> Decision:
    asked, legal = _decision(state, seat, ())
    return Decision(seat, state.version, _pending(state, seat, asked), tuple(legal))


def _decision(state: GameState, seat: int, answered: Collection[int]) -> tuple[bool, list]:
    """Whether the open reaction window asks this seat, and what the seat may do now."""
    pending = state.pending
    if pending is not None and pending.kind == "react":
        asked = seat in window_seats(state) and seat not in answered
        return asked, window_choices(state, seat) if asked else []
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
        plays, deck, discard, choose = [], None, None, None
        for a in by_card.get(cid, ()):
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
    info = dict(pending.info)
    cause = info.get("reason") or info.get("source")
    if pending.kind == "react":
        cause = info.get("card") or info.get("action")
        if not asked:
            return PendingView("reactions", SPECTATOR, info, cause)
        return PendingView("react", seat, info, cause)
    mine = {}
    if pending.kind == "mulligan" and pending.seat == seat and state.stack:
        mine = {"picked": list(state.stack[-1].picked)}
    return PendingView(pending.kind, pending.seat, info, cause, mine)


def view_for(
    state: GameState, seat: int, with_log: bool = True, answered: Collection[int] = ()
) -> View:
    """What `seat` may see now (SPECTATOR for the public view). In a reaction window
    every seat it asks sees its own prompt at once, until it has `answered` (a table
    collects the answers: `engine.window`); the others wait for "reactions"."""
    const = constants(state)
    goal = threshold(state)
    asked, legal = _decision(state, seat, answered)
    hand = _hand_cards(state, seat, legal) if seat >= 0 else ()
    rounds = const.rounds_per_phase
    in_phase = state.round - (state.phase - 1) * rounds if state.round else 0
    return View(
        seat=seat,
        version=state.version,
        configuration=state.setup.configuration,
        events_enabled=state.setup.events,
        round=state.round,
        phase=state.phase,
        round_in_phase=in_phase,
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
        discard_yield=discard_yield(state, seat) if 0 <= seat < len(state.players) else 0,
        level_thresholds=tuple(const.level_thresholds),
        heal_mod=heal_mod(state),
        damage_mod=damage_mod(state),
        players=tuple(_player(state, p, seat) for p in state.players),
        hand=hand,
        costs=_costs(state, seat, hand, legal) if seat >= 0 else {},
        synergy=_synergy(state, seat) if seat >= 0 else None,
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
        pending=_pending(state, seat, asked),
        legal=tuple(legal),
        log=tuple(visible_entry(e, seat) for e in state.log) if with_log else (),
        outcome=state.outcome,
        can_undo=seat >= 0 and can_undo(state, seat),
    )
