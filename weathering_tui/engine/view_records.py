"""The records of a view (`view.View` and its parts): plain data that nothing writes to,
so that a view goes through the project's converter to JSON and back unchanged."""

from __future__ import annotations

import attrs

from . import actions as act
from .state import Frame, LogEntry, Outcome

SPECTATOR = -1  # the seat of a public view: no hand, no decision

# A view is a snapshot that nothing writes to. Its records are not frozen only because a
# frozen attrs class sets each field through object.__setattr__: three times slower, and
# a view is built for every decision of every simulated game. So each record is a plain
# `@attrs.define` (mutable, compared field by field, slotted), written out on each class:
# the type checker's attrs support does not see through an alias of the decorator.


@attrs.define
class TurnView:
    """What a player has done this turn (all public)."""

    drew: bool = False
    discarded: bool = False
    traded: bool = False
    power_used: bool = False
    played_card: bool = False
    acted: bool = False
    proposed: tuple[int, ...] = ()


@attrs.define
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


@attrs.define
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


@attrs.define
class SynergyView:
    """The viewing Écolo's deck towards a synergy (§4.1)."""

    types: tuple[tuple[str, int], ...]  # (type, cards of that type), every type listed
    min_deck: int
    qualifies: str | None  # "single_type", "four_types" or None


@attrs.define
class EventView:
    event: str
    remaining: int
    copies: int
    cards: tuple[str, ...] = ()


@attrs.define
class PendingView:
    """A decision as this seat may know it. In a reaction window each seat it asks sees
    its own "react" prompt (all at once: `engine.window`); the other seats see kind
    "reactions" and seat -1: waiting for reactions, never for whom."""

    kind: str
    seat: int
    info: dict
    cause: str | None = None  # the card, event, power or rule that caused the decision
    mine: dict = attrs.Factory(dict)  # facts only the deciding seat may see


@attrs.define
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
    # Mid-effect, what resolution holds, as every seat may know it (engine/resolving.py):
    # the announced cards awaiting resolution and the stack's frames, cards unseen hidden.
    limbo: tuple[str, ...] = ()
    resolving: tuple[Frame, ...] = ()

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


@attrs.define
class Decision:
    """The part of a seat's view that a decision alone needs: the pending decision and
    the legal actions. A bot that looks at nothing else (the random bot) is given this
    instead of a whole view, which costs a fraction to build."""

    seat: int
    version: int
    pending: PendingView | None
    legal: tuple[act.Action, ...]
