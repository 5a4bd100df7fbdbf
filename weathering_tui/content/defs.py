"""Frozen definitions of the printed material: cards, characters, events, configurations."""

from __future__ import annotations

import attrs

from .effects import Cancel, Effect

CARD_TYPES = ("anthropique", "oceanique", "terrestre", "atmospherique")
SIDES = ("ecologist", "lobbyist")
LABELS = ("balanced", "hard", "deadly")
LEANS = ("ecologists", "lobbyists", "neutral")
TIMINGS = ("own_turn", "reaction")

_in = attrs.validators.in_
_ge = attrs.validators.ge


@attrs.frozen
class Constants:
    start_hand: int = attrs.field(validator=_ge(0))
    start_ap: int = attrs.field(validator=_ge(0))
    ap_cap: int = attrs.field(validator=_ge(1))
    hand_limit: int = attrs.field(validator=_ge(1))
    deck_limit: int = attrs.field(validator=_ge(1))
    mulligan_max: int = attrs.field(validator=_ge(0))
    rounds_per_phase: int = attrs.field(validator=_ge(1))
    draw_cost: int = attrs.field(validator=_ge(0))
    deck_cost: int = attrs.field(validator=_ge(0))
    trade_cost: int = attrs.field(validator=_ge(0))
    level_thresholds: tuple[int, int]
    synergy_min_deck: int = attrs.field(validator=_ge(1))
    single_type_heal: int = attrs.field(validator=_ge(0))
    four_types_draw: int = attrs.field(validator=_ge(0))
    victory_threshold: int = attrs.field(validator=_ge(0))
    discovery_threshold: int = attrs.field(validator=_ge(0))
    action_cards: int = attrs.field(validator=_ge(1))
    event_cards: int = attrs.field(validator=_ge(0))


@attrs.frozen
class Yield:
    """What one side gets in one phase: start-of-turn PA, free draws, discard PA."""

    income: int = attrs.field(validator=_ge(0))
    free_draw: int = attrs.field(validator=_ge(0))
    discard_yield: int = attrs.field(validator=_ge(0))


@attrs.frozen
class SideTable:
    phase1: Yield
    phase2: Yield


@attrs.frozen
class Configuration:
    id: str
    ecologists: int = attrs.field(validator=_ge(1))
    lobbyists: int = attrs.field(validator=_ge(1))
    start_hp: int = attrs.field(validator=[_ge(0), attrs.validators.le(30)])
    recommended_label: str = attrs.field(validator=_in(LABELS))
    ecologist: SideTable
    lobbyist: SideTable

    def table(self, side: str, phase: int) -> Yield:
        sides = self.ecologist if side == "ecologist" else self.lobbyist
        return sides.phase1 if phase == 1 else sides.phase2

    @property
    def players(self) -> int:
        return self.ecologists + self.lobbyists


@attrs.frozen
class PowerLevel:
    cost: int = attrs.field(validator=_ge(0))
    effects: tuple[Effect, ...]


@attrs.frozen
class PowerDef:
    id: str
    name_fr: str
    name_en: str
    timing: str = attrs.field(validator=_in(TIMINGS))
    levels: tuple[PowerLevel, PowerLevel, PowerLevel]
    text_fr: str
    text_en: str
    first_action_only: bool = False
    after_play_card: bool = False
    target_must_hold_cards: bool = False

    def at(self, level: int) -> PowerLevel:
        """The power at level 1, 2 or 3."""
        return self.levels[level - 1]


@attrs.frozen
class CharacterDef:
    id: str
    name: str
    side: str = attrs.field(validator=_in(SIDES))
    stars: int = attrs.field(validator=[_ge(1), attrs.validators.le(3)])
    role_fr: str
    role_en: str
    power: PowerDef
    label: str | None = attrs.field(default=None, validator=attrs.validators.optional(_in(LABELS)))


@attrs.frozen
class CardDef:
    id: str
    name_fr: str
    name_en: str
    type: str = attrs.field(validator=_in(CARD_TYPES))
    cost: int = attrs.field(validator=_ge(0))
    copies: int = attrs.field(validator=_ge(1))
    cartouches: tuple[tuple[Effect, ...], ...]
    text_fr: str
    text_en: str

    def is_cancel(self, index: int) -> bool:
        return any(isinstance(e, Cancel) for e in self.cartouches[index])

    def cancel_effect(self) -> Cancel | None:
        for cartouche in self.cartouches:
            for effect in cartouche:
                if isinstance(effect, Cancel):
                    return effect
        return None


@attrs.frozen
class EventDef:
    id: str
    name_fr: str
    name_en: str
    duration: int = attrs.field(validator=_ge(1))
    copies: int = attrs.field(validator=_ge(1))
    leans: str = attrs.field(validator=_in(LEANS))
    text_fr: str
    text_en: str
    on_reveal: tuple[Effect, ...] = ()
    each_round: tuple[Effect, ...] = ()
    continuous: tuple[Effect, ...] = ()


@attrs.frozen(eq=False)  # compared and hashed by identity: one loaded set of rules
class Content:
    """Everything in `rules/`, validated."""

    constants: Constants
    configurations: dict[str, Configuration]
    characters: dict[str, CharacterDef]
    cards: dict[str, CardDef]
    events: dict[str, EventDef]
