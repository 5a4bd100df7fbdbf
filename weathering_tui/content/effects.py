"""The closed effect vocabulary of rules-reference §6.1.

Each op is a frozen attrs class; in TOML an effect is a table whose `op` key
names the class (the tag). The engine interprets these classes and nothing
else: a card with unusual behaviour gets a new op here, never a special case
on a card id.
"""

from __future__ import annotations

from typing import Union

import attrs

# Who is affected (§6.1). `target:*` is fixed by the acting player when announcing.
TARGET_SELECTORS = ("any_player", "other_player", "lobbyist", "ecologist")
GROUPS = ("all_players", "each_ecologist", "each_lobbyist")
GROUP_SIDE = {"each_ecologist": "ecologist", "each_lobbyist": "lobbyist"}  # a whole side
WHO_VALUES = ("self", *(f"target:{s}" for s in TARGET_SELECTORS), *GROUPS)


def _who(default: str = "self"):
    return attrs.field(default=default, validator=attrs.validators.in_(WHO_VALUES))


def _amount(default: int | None = None, minimum: int = 0):
    validator = attrs.validators.ge(minimum)
    if default is None:
        return attrs.field(validator=validator)
    return attrs.field(default=default, validator=validator)


@attrs.frozen
class Heal:
    amount: int = _amount(minimum=1)


@attrs.frozen
class Damage:
    amount: int = _amount(minimum=1)


@attrs.frozen
class Draw:
    who: str = _who()
    amount: int = _amount(1, minimum=1)


@attrs.frozen
class TakeFromDiscard:
    amount: int = _amount(1, minimum=1)
    exclude: tuple[str, ...] = ()


@attrs.frozen
class DiscardOwn:
    who: str = _who()
    amount: int = _amount(1, minimum=1)


@attrs.frozen
class DiscardRandom:
    who: str = _who()
    amount: int = _amount(1, minimum=1)


@attrs.frozen
class GainAp:
    who: str = _who()
    amount: int = _amount(1, minimum=1)


@attrs.frozen
class LoseAp:
    who: str = _who()
    amount: int = _amount(1, minimum=1)


@attrs.frozen
class GiveCards:
    who: str = _who("target:other_player")
    up_to: int = _amount(1, minimum=1)


@attrs.frozen
class Exchange:
    who: str = _who("target:other_player")
    amount: int = _amount(1, minimum=1)


@attrs.frozen
class Cycle:
    who: str = _who()
    up_to: int = _amount(1, minimum=1)


@attrs.frozen
class DiscardThenDraw:
    discard: int = _amount(minimum=1)
    draw: int = _amount(minimum=1)


@attrs.frozen
class LookHand:
    who: str = _who("target:other_player")


@attrs.frozen
class RevealHand:
    who: str = _who()


@attrs.frozen
class Cancel:
    """Usable only in a reaction window; `events` lets it cancel an event reveal."""

    events: bool = False


@attrs.frozen
class PlayFromDiscard:
    amount: int = _amount(1, minimum=1)


@attrs.frozen
class PeekEvents:
    count: int = _amount(minimum=1)
    reorder: bool = False
    bottom: int = _amount(0)


# Event-only ops.


@attrs.frozen
class IncomeMod:
    who: str = _who()
    amount: int = 0


@attrs.frozen
class SuspendFreeDraw:
    pass


@attrs.frozen
class HealMod:
    amount: int = 0


@attrs.frozen
class DamageMod:
    amount: int = 0


@attrs.frozen
class PlayerChoice:
    who: str = _who("all_players")
    options: tuple[tuple[Effect, ...], ...] = ()


@attrs.frozen
class GroupChoice:
    options: tuple[tuple[Effect, ...], ...] = ()


Effect = Union[  # noqa: UP007 - cattrs needs a runtime Union object
    Heal,
    Damage,
    Draw,
    TakeFromDiscard,
    DiscardOwn,
    DiscardRandom,
    GainAp,
    LoseAp,
    GiveCards,
    Exchange,
    Cycle,
    DiscardThenDraw,
    LookHand,
    RevealHand,
    Cancel,
    PlayFromDiscard,
    PeekEvents,
    IncomeMod,
    SuspendFreeDraw,
    HealMod,
    DamageMod,
    PlayerChoice,
    GroupChoice,
]

OP_NAMES: dict[type, str] = {
    Heal: "heal",
    Damage: "damage",
    Draw: "draw",
    TakeFromDiscard: "take_from_discard",
    DiscardOwn: "discard_own",
    DiscardRandom: "discard_random",
    GainAp: "gain_ap",
    LoseAp: "lose_ap",
    GiveCards: "give_cards",
    Exchange: "exchange",
    Cycle: "cycle",
    DiscardThenDraw: "discard_then_draw",
    LookHand: "look_hand",
    RevealHand: "reveal_hand",
    Cancel: "cancel",
    PlayFromDiscard: "play_from_discard",
    PeekEvents: "peek_events",
    IncomeMod: "income_mod",
    SuspendFreeDraw: "suspend_free_draw",
    HealMod: "heal_mod",
    DamageMod: "damage_mod",
    PlayerChoice: "player_choice",
    GroupChoice: "group_choice",
}
OPS_BY_NAME = {name: cls for cls, name in OP_NAMES.items()}

# Ops that only make sense as event effects, never on a card or a power.
EVENT_ONLY_OPS = frozenset(
    {"income_mod", "suspend_free_draw", "heal_mod", "damage_mod", "player_choice", "group_choice"}
)
# Ops that an event may carry as continuous modifiers.
CONTINUOUS_OPS = frozenset({"income_mod", "suspend_free_draw", "heal_mod", "damage_mod"})


def op_name(effect: Effect) -> str:
    return OP_NAMES[type(effect)]


def aimed(effect: Effect) -> bool:
    """Whether the effect falls on the player chosen as its target (`who = "target:*"`)."""
    return getattr(effect, "who", "").startswith("target:")


HARMS = "harms"  # the target loses PA or cards at random
HELPS = "helps"  # the target draws, is given cards or gains PA


def _treats(effect) -> str | None:
    """How an effect treats the players it falls on: HARMS, HELPS, or None."""
    if isinstance(effect, LoseAp | DiscardRandom):
        return HARMS
    if isinstance(effect, Draw | GiveCards | GainAp):  # (Green tax's 3 PA)
        return HELPS
    return None


def aim(effects) -> str | None:
    """How a list of effects treats the player chosen as its target: HARMS, HELPS, or
    None (no target, or a fair swap). One home for the rule the target dialog (harmful
    effects aim at an opponent first, and ask before hitting one's own side), the
    expert's candidates and the hints all follow."""
    for effect in effects:
        if aimed(effect) and (treats := _treats(effect)) is not None:
            return treats
    return None


def gauge_swing(effects, heal_mod: int = 0, damage_mod: int = 0) -> int:
    """What effects do to the gauge: their heals minus their damage, each with the active
    events' modifier and none below 0 (as the engine resolves them). One home for the
    heuristic's reading of a card and the own-side rule (engine/harm.py)."""
    swing = 0
    for effect in effects:
        if isinstance(effect, Heal):
            swing += max(0, effect.amount + heal_mod)
        elif isinstance(effect, Damage):
            swing -= max(0, effect.amount + damage_mod)
    return swing


def against_side(effects, side: str) -> bool:
    """Whether effects that fall on a whole side (`who = "each_ecologist"`…, no target
    chosen) work against `side`, as `aim` reads a target: a blow at `side`, or a gift
    to the other (Advertising blitz played by an Écolo costs every Écolo 2 PA)."""
    for effect in effects:
        group = GROUP_SIDE.get(getattr(effect, "who", ""))
        if group is not None and _treats(effect) == (HARMS if group == side else HELPS):
            return True
    return False


def target_selector(effects) -> str | None:
    """The `target:*` selector named by a list of effects, if any (at most one per list)."""
    for effect in effects:
        if aimed(effect):
            return effect.who.removeprefix("target:")
    return None
