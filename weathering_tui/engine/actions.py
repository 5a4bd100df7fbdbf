"""Every decision a player can make is one of these frozen actions (architecture principle 1).

`seat` is always the deciding seat. Cards are named by instance id
(``"<card id>#<copy>"``); targets are seat numbers.
"""

from __future__ import annotations

from typing import Union

import attrs


@attrs.frozen
class PlayCard:
    seat: int
    card: str
    cartouche: int = 0
    target: int | None = None


@attrs.frozen
class PutInDeck:
    seat: int
    card: str


@attrs.frozen
class Discard:
    seat: int
    card: str


@attrs.frozen
class Draw:
    seat: int


@attrs.frozen
class ProposeTrade:
    seat: int
    partner: int


@attrs.frozen
class StoreAp:
    seat: int
    amount: int


@attrs.frozen
class UsePower:
    """Use an own-turn power; `card` names the discard-pile card for Trésor de guerre."""

    seat: int
    target: int | None = None
    card: str | None = None


@attrs.frozen
class EndTurn:
    seat: int


@attrs.frozen
class Pass:
    """Let the announced action or revealed event resolve."""

    seat: int


@attrs.frozen
class Cancel:
    """Cancel in a reaction window with a cancel card from hand, or the reaction power (None)."""

    seat: int
    card: str | None = None


@attrs.frozen
class AnswerTrade:
    seat: int
    accept: bool


@attrs.frozen
class ChooseCard:
    """A card chosen inside an effect, or one card to put back in the mulligan; None stops
    an optional choice ("up to") and ends the mulligan's picks."""

    seat: int
    card: str | None = None


@attrs.frozen
class ChooseOption:
    seat: int
    option: int
    target: int | None = None


@attrs.frozen
class ClaimSynergy:
    seat: int
    claim: bool


@attrs.frozen
class ArrangeEvents:
    """Mirai: new top-down order of the seen cards (indices), and the one sent to the bottom."""

    seat: int
    order: tuple[int, ...]
    bottom: int | None = None


Action = Union[  # noqa: UP007 - cattrs needs a runtime Union object
    PlayCard,
    PutInDeck,
    Discard,
    Draw,
    ProposeTrade,
    StoreAp,
    UsePower,
    EndTurn,
    Pass,
    Cancel,
    AnswerTrade,
    ChooseCard,
    ChooseOption,
    ClaimSynergy,
    ArrangeEvents,
]

ACTION_NAMES: dict[type, str] = {
    PlayCard: "play_card",
    PutInDeck: "put_in_deck",
    Discard: "discard",
    Draw: "draw",
    ProposeTrade: "trade",
    StoreAp: "store_ap",
    UsePower: "use_power",
    EndTurn: "end_turn",
    Pass: "pass",
    Cancel: "cancel",
    AnswerTrade: "answer_trade",
    ChooseCard: "choose_card",
    ChooseOption: "choose_option",
    ClaimSynergy: "claim_synergy",
    ArrangeEvents: "arrange",
}


def action_name(action) -> str:
    return ACTION_NAMES[type(action)]
