"""The game state: plain attrs records, mutated only by the engine.

Everything here is data (no callables), so a state can be copied, compared and
saved. The resolution machinery is an explicit stack of frames: when an effect
needs a player's decision, the engine sets `pending` and stops; the answer is
the next action, and resolution carries on from the top frame.
"""

from __future__ import annotations

import enum
from typing import Union

import attrs

from ..content import Content
from ..content.effects import Effect

SIDES = ("ecologist", "lobbyist")


@attrs.frozen
class SeatSetup:
    side: str = attrs.field(validator=attrs.validators.in_(SIDES))
    character: str = "random"
    name: str = ""
    human: bool = False
    bot: str = "heuristic"  # who plays the seat when it is not human (the app's choice)


@attrs.frozen
class Setup:
    """What defines a game before any action: configuration, seats, options, seed."""

    configuration: str
    seats: tuple[SeatSetup, ...]
    seed: int = 0
    events: bool = True  # False: mode Découverte (no events)
    ask_every_human: bool = False

    @classmethod
    def standard(cls, configuration: str, seed: int = 0, **options) -> Setup:
        """Seats for `configuration` ("3v2"): Écolos then Lobbyistes, random characters, bots."""
        ecologists, lobbyists = sides_of(configuration)
        seats = tuple(SeatSetup("ecologist") for _ in range(ecologists)) + tuple(
            SeatSetup("lobbyist") for _ in range(lobbyists)
        )
        return cls(configuration=configuration, seats=seats, seed=seed, **options)


def sides_of(configuration: str) -> tuple[int, int]:
    """How many Écolos and Lobbyistes a configuration seats: "3v2" → (3, 2). The one
    reading of a configuration's name (seats are Écolos first, then Lobbyistes)."""
    ecologists, _, lobbyists = configuration.partition("v")
    return int(ecologists), int(lobbyists)


def human_seats(
    ecologists: int, lobbyists: int, humans: int, first: int | None = None
) -> list[int]:
    """Which seats `humans` players take in a game of `ecologists`v`lobbyists` (seats
    are Écolos first): an Écolo, then a Lobbyiste, then the next Écolo, and so on, so
    that two or more humans play on both sides (three humans in a 3v2 were three Écolos
    against two bots). `first`: a seat that is taken first (a table's creator picked
    it), the others following that order."""
    order = []
    for k in range(max(ecologists, lobbyists)):
        if k < ecologists:
            order.append(k)
        if k < lobbyists:
            order.append(ecologists + k)
    if first is not None:
        order.remove(first)
        order.insert(0, first)
    return order[:humans]


@attrs.define
class TurnFlags:
    """What a player has done this turn: the per-turn limits of §12.9, all public."""

    drew: bool = False
    discarded: bool = False
    traded: bool = False
    power_used: bool = False
    played_card: bool = False
    acted: bool = False  # any announced action (Mirai's Prévisions must come first)
    proposed: list[int] = attrs.Factory(list)  # trade partners asked this turn (R111)


@attrs.define
class PlayerState:
    seat: int
    side: str
    character: str
    name: str = ""
    human: bool = False
    ap: int = 0
    stored_ap: int = 0
    hand: list[str] = attrs.Factory(list)
    deck: list[str] = attrs.Factory(list)
    mulligan_done: bool = False
    hand_limit_off: bool = False
    turn: TurnFlags = attrs.Factory(lambda: TurnFlags())  # reset at each own turn (§12.9)
    # Reaction power: once during each player's turn (§5.1), reset at every turn start.
    reaction_used: bool = False
    stats: dict[str, int] = attrs.Factory(dict)

    @property
    def is_ecologist(self) -> bool:
        return self.side == "ecologist"


@attrs.define
class ActiveEvent:
    event: str  # event id
    cards: list[str]  # event card instances (two when a repeat extended it)
    remaining: int


@attrs.define
class RoundMod:
    """An income modifier that lasts until the end of the round (Soulèvements' malus)."""

    seat: int
    amount: int


@attrs.define
class LogEntry:
    """One thing that happened. `data` is public; `secret` is seen only by `audience`."""

    kind: str
    data: dict = attrs.Factory(dict)
    secret: dict = attrs.Factory(dict)
    audience: list[int] = attrs.Factory(list)


class PendingKind(enum.StrEnum):
    """The decisions a game can wait for. Members equal their strings ("turn"…), so views,
    saves and the wire carry the same words as before; every `Pending(...)` passes a member
    (no converter: one is made per decision)."""

    TURN = "turn"
    MULLIGAN = "mulligan"
    REACT = "react"
    TRADE_ANSWER = "trade_answer"
    CHOOSE_DISCARD = "choose_discard"
    CHOOSE_GIVE = "choose_give"
    CHOOSE_TAKE = "choose_take"
    CHOOSE_EXCHANGE = "choose_exchange"
    CHOOSE_OPTION = "choose_option"
    ARRANGE = "arrange"
    SECOND_CARD = "second_card"
    CLAIM_SYNERGY = "claim_synergy"


@attrs.define
class Pending:
    """Who must decide what, right now. `info` is public description only."""

    kind: PendingKind
    seat: int
    info: dict = attrs.Factory(dict)


@attrs.define
class Outcome:
    hp: int
    band: str
    winner: str
    perfect: bool
    reason: str


@attrs.define(eq=True)
class Announcement:
    """An announced, paid action waiting for its reaction window (§8.3). Never changed
    once made; not frozen only because a frozen record sets each field through
    object.__setattr__, and one is made for every announced action."""

    kind: str
    actor: int
    card: str | None = None
    cartouche: int = 0
    target: int | None = None
    amount: int = 0
    level: int = 1
    cost: int = 0
    from_discard: bool = False


@attrs.define
class History:
    """The actions applied so far, and how far back the last decider may go."""

    actions: list = attrs.Factory(list)
    floor: int = 0  # actions before this index can no longer be taken back
    owner: int | None = None  # the seat whose decisions stand after the floor
    reveals: int = 0  # secret log entries so far: something hidden came out

    def copy(self) -> History:
        return History(list(self.actions), self.floor, self.owner, self.reveals)


# ---------------------------------------------------------------- frames


@attrs.define
class MulliganFrame:
    next_seat: int = 0
    picked: list[str] = attrs.Factory(list)  # cards the deciding seat puts back, in order


@attrs.define
class RoundStartFrame:
    stage: int = 0


@attrs.define
class EventWindowFrame:
    card: str
    order: list[int]
    index: int = 0


@attrs.define
class EffectsFrame:
    effects: tuple[Effect, ...]
    source: str
    actor: int | None = None  # None for an event
    target: int | None = None
    index: int = 0


@attrs.define
class OverflowFrame:
    actor: int | None = None


@attrs.define
class DiscardChoiceFrame:
    seat: int
    remaining: int
    reason: str
    optional: bool = False
    then_draw: int = 0
    draw_as_many: bool = False
    discarded: int = 0


@attrs.define
class GiveFrame:
    seat: int
    target: int
    remaining: int
    given: int = 0
    source: str = ""  # the card or power that asks (shown as the decision's cause)


@attrs.define
class TakeFrame:
    seat: int
    remaining: int
    exclude: tuple[str, ...] = ()
    source: str = ""


@attrs.define
class ExchangeFrame:
    first: int
    second: int
    reason: str
    pick_first: str | None = None
    pick_second: str | None = None
    stage: int = 0


@attrs.define
class OptionFrame:
    seats: list[int]
    options: tuple[tuple[Effect, ...], ...]
    source: str
    group: bool = False
    index: int = 0


@attrs.define
class ArrangeFrame:
    seat: int
    seen: list[str]
    bottom: bool
    pile: str  # "events" or "draw"
    source: str = ""


@attrs.define
class ReactionFrame:
    announcement: Announcement
    order: list[int]
    index: int = 0


@attrs.define
class TradeAnswerFrame:
    initiator: int
    partner: int


@attrs.define
class SecondCardFrame:
    seat: int
    card: str


@attrs.define
class FinishPlayFrame:
    card: str
    actor: int


@attrs.define
class TransitionFrame:
    index: int = 0


Frame = Union[  # noqa: UP007 - cattrs needs a runtime Union object
    MulliganFrame,
    RoundStartFrame,
    EventWindowFrame,
    EffectsFrame,
    OverflowFrame,
    DiscardChoiceFrame,
    GiveFrame,
    TakeFrame,
    ExchangeFrame,
    OptionFrame,
    ArrangeFrame,
    ReactionFrame,
    TradeAnswerFrame,
    SecondCardFrame,
    FinishPlayFrame,
    TransitionFrame,
]


@attrs.define
class GameState:
    setup: Setup
    rng: int
    hp: int
    start_hp: int
    players: list[PlayerState]
    draw_pile: list[str]  # top of the pile is the END of the list
    event_pile: list[str]  # top is the end
    round: int = 0
    phase: int = 1
    stage: str = "mulligan"  # mulligan, play, transition, over
    active: int = -1
    discard_pile: list[str] = attrs.Factory(list)  # top is the end
    limbo: list[str] = attrs.Factory(list)  # announced cards awaiting resolution
    active_events: list[ActiveEvent] = attrs.Factory(list)
    event_discard: list[str] = attrs.Factory(list)
    events_removed: list[str] = attrs.Factory(list)
    round_mods: list[RoundMod] = attrs.Factory(list)
    stack: list[Frame] = attrs.Factory(list)
    pending: Pending | None = None
    log: list[LogEntry] = attrs.Factory(list)
    hp_by_round: list[int] = attrs.Factory(list)
    pile_empty_round: int = 0  # first round that ended with an empty draw pile, 0 if never
    outcome: Outcome | None = None
    version: int = 0  # number of actions applied; a view names the version it shows
    content: Content = attrs.field(default=None, eq=False, repr=False)
    # A headless simulation that nobody reads the log of turns it off (never saved).
    keep_log: bool = attrs.field(default=True, eq=False, repr=False)
    # A headless game (`engine.headless`: a simulation, a rollout) keeps no log and no
    # history either: nobody undoes in it (never saved).
    headless: bool = attrs.field(default=False, eq=False, repr=False)
    # The actions applied and what may be taken back (engine/history.py); never saved:
    # a save holds its actions, and loading replays them.
    history: History = attrs.field(factory=History, eq=False, repr=False)

    @property
    def over(self) -> bool:
        return self.stage == "over"

    def player(self, seat: int) -> PlayerState:
        return self.players[seat]
