"""Small rules helpers shared by the engine modules: lookups, costs, PA, cards, log."""

from __future__ import annotations

import functools
from collections.abc import Callable

from ..content.defs import CardDef, CharacterDef, Configuration, Constants
from ..content.effects import GROUP_SIDE, DamageMod, HealMod, IncomeMod, SuspendFreeDraw
from .state import GameState, LogEntry

GAUGE_MAX = 30
BANDS = (  # §9.2, checked from the top down; None means "the victory threshold"
    ("grand_soleil", "ecologists", 30),
    ("ensoleille", "ecologists", 20),
    ("eclaircies", "ecologists", None),
    ("orageux", "lobbyists", 10),
    ("tourmente", "lobbyists", 1),
    ("effondrement", "lobbyists", 0),
)
# Secret log entries that tell their audience nothing new: the actor's own announcement.
OWN_SECRETS = frozenset({"announce", "decked"})


class _CardIds(dict):
    """Card copy -> its card: 'mangroves#2' -> 'mangroves', each worked out once."""

    def __missing__(self, instance: str) -> str:
        cid = self[instance] = instance.partition("#")[0]
        return cid


# 'mangroves#2' -> 'mangroves'. The engine asks this constantly: a dict's own lookup,
# with no Python call once a copy has been seen.
card_id: Callable[[str], str] = _CardIds().__getitem__


def copies_of(record) -> list[str]:
    """A card's (or an event's) copies as a game names them: 'mangroves#1', 'mangroves#2'…"""
    return [f"{record.id}#{n}" for n in range(1, record.copies + 1)]


def card_def(state: GameState, instance: str) -> CardDef:
    return state.content.cards[card_id(instance)]


def character(state: GameState, seat: int) -> CharacterDef:
    return state.content.characters[state.players[seat].character]


def constants(state: GameState) -> Constants:
    return state.content.constants


def configuration(state: GameState) -> Configuration:
    return state.content.configurations[state.setup.configuration]


def round_in_phase(round_: int, phase: int, rounds_per_phase: int) -> int:
    """The round's number within its phase, 1 to `rounds_per_phase` (the one numbering
    a player is shown: "phase 2, round 3"); 0 before the first round."""
    return round_ - (phase - 1) * rounds_per_phase if round_ else 0


def threshold(state: GameState) -> int:
    """The Écolos win at this many PV or more (Découverte has its own threshold, §9.2)."""
    const = constants(state)
    return const.victory_threshold if state.setup.events else const.discovery_threshold


def band_for(hp: int, goal: int) -> tuple[str, str]:
    """The outcome band (and its winning side) of a gauge at `hp` with threshold `goal`."""
    for band, winner, floor in BANDS:
        bound = goal if floor is None else floor
        if hp >= bound and (winner == "ecologists") == (hp >= goal):
            return band, winner
    raise AssertionError(f"no band for {hp}")  # unreachable: the last band starts at 0


def level_for(state: GameState, stored: int) -> int:
    second, third = state.content.constants.level_thresholds
    return 3 if stored >= third else 2 if stored >= second else 1


def level(state: GameState, seat: int) -> int:
    return level_for(state, state.players[seat].stored_ap)


def power_cost(state: GameState, seat: int) -> int:
    player = state.players[seat]
    power = state.content.characters[player.character].power
    return power.levels[level_for(state, player.stored_ap) - 1].cost  # power.at(level)


def frugal_cost(printed: int, phase: int, side: str) -> int:
    """Printed cost, minus 1 for an Écolo in phase 2 (frugality, minimum 0) [RB 124].
    The one statement of the rule: the engine, the bots and the app all ask here."""
    if phase == 2 and side == "ecologist":
        return max(0, printed - 1)
    return printed


def effective_cost(state: GameState, seat: int, instance: str) -> int:
    printed = state.content.cards[card_id(instance)].cost
    return frugal_cost(printed, state.phase, state.players[seat].side)


def distinct(cards: list[str]) -> list[str]:
    """One instance per card id, in order: copies of a card are interchangeable choices."""
    if len(cards) < 2 or len(set(map(card_id, cards))) == len(cards):
        return list(cards)  # no two copies of a card: the common case
    first: dict[str, str] = {}  # card -> its first copy, in order of first copies
    for instance in cards:
        first.setdefault(card_id(instance), instance)
    return list(first.values())


def ordered_from(state: GameState, members, start: int | None) -> list[int]:
    """Members in seat order starting at `start` (or the first seat), wrapping round."""
    n = len(state.players)
    origin = 0 if start is None else start
    return sorted(members, key=lambda s: (s - origin) % n)


def seats_after(n: int, seat: int) -> list[int]:
    """The other seats of `n`, in seat order after `seat`, wrapping round."""
    return [(seat + k) % n for k in range(1, n)]


def seats_for(state: GameState, who: str, actor: int | None, target: int | None) -> list[int]:
    """The seats an effect's `who` names, in resolution order (§6.1)."""
    if who == "self":
        return [] if actor is None else [actor]
    if who.startswith("target:"):
        return [] if target is None else [target]
    if who == "all_players":
        members = [p.seat for p in state.players]
    else:
        side = GROUP_SIDE[who]
        members = [p.seat for p in state.players if p.side == side]
    return ordered_from(state, members, actor)


def valid_targets(state: GameState, selector: str | None, seat: int) -> list[int | None]:
    return seats_named([p.side for p in state.players], selector, seat)


def seats_named(sides, selector: str | None, seat: int) -> list[int | None]:
    """The seats a target selector lets `seat` aim at, seats being numbered in order and
    `sides` giving each one's side (None: the effect has no target)."""
    if selector is None:
        return [None]
    if selector == "any_player":
        return list(range(len(sides)))
    if selector == "other_player":
        return [s for s in range(len(sides)) if s != seat]
    return [s for s, side in enumerate(sides) if side == selector]


def log(state: GameState, kind: str, secret=None, audience=(), **data) -> None:
    """Append an entry (when the game keeps a log) and count what hidden it reveals. A
    step taken at every action may ask `state.keep_log` before calling, to spare building
    an entry nobody keeps, but only for an entry with no secret: a secret counts, kept
    or not (no undo across it)."""
    if secret and kind not in OWN_SECRETS:
        state.history.reveals += 1  # something hidden came out: no undo across it
    if state.keep_log:
        state.log.append(LogEntry(kind, data, secret or {}, list(audience)))


def tell(state: GameState, seat: int, kind: str, secret: dict, **data) -> None:
    """A log entry whose secret only `seat` sees (the seat it names)."""
    log(state, kind, secret=secret, audience=[seat], seat=seat, **data)


def bump(state: GameState, seat: int, stat: str, amount: int = 1) -> None:
    stats = state.players[seat].stats
    stats[stat] = stats.get(stat, 0) + amount


# ------------------------------------------------------------ modifiers


def _continuous(state: GameState):
    for active in state.active_events:
        yield from state.content.events[active.event].continuous


def heal_mod(state: GameState) -> int:
    return mods(state)[0]


def damage_mod(state: GameState) -> int:
    return mods(state)[1]


def mods(state: GameState) -> tuple[int, int]:
    """The active events' heal and damage modifiers, summed (plain loops: the bots ask
    at every decision)."""
    heals = damages = 0
    each = _event_mods(state.content)
    for active in state.active_events:
        heal_by, damage_by = each[active.event]
        heals += heal_by
        damages += damage_by
    return heals, damages


@functools.cache
def _event_mods(content) -> dict[str, tuple[int, int]]:
    """Each event's own heal and damage modifiers, summed over its continuous effects."""
    out = {}
    for event in content.events.values():
        heals = damages = 0
        for effect in event.continuous:
            if isinstance(effect, HealMod):
                heals += effect.amount
            elif isinstance(effect, DamageMod):
                damages += effect.amount
        out[event.id] = (heals, damages)
    return out


def free_draw_suspended(state: GameState) -> bool:
    if not state.active_events:  # (most rounds of a game of few events)
        return False
    return any(isinstance(e, SuspendFreeDraw) for e in _continuous(state))


def income(state: GameState, seat: int) -> int:
    """Start-of-turn PA: the configuration value plus every modifier, minimum 0 (§7.2)."""
    player = state.players[seat]
    base = configuration(state).table(player.side, state.phase).income
    mods = 0
    if state.active_events:
        for effect in _continuous(state):
            if isinstance(effect, IncomeMod) and _who_includes(effect.who, player.side):
                mods += effect.amount
    for mod in state.round_mods:
        if mod.seat == seat:
            mods += mod.amount
    return max(0, base + mods)


def _who_includes(who: str, side: str) -> bool:
    return who == "all_players" or GROUP_SIDE.get(who) == side


# ------------------------------------------------------------ PA, gauge, cards


def gain_ap(state: GameState, seat: int, amount: int) -> int:
    """Give PA from the reserve, capped; the excess goes back to the reserve [RB 52]."""
    player = state.players[seat]
    gained = max(0, min(amount, constants(state).ap_cap - player.ap))
    player.ap += gained
    return gained


def lose_ap(state: GameState, seat: int, amount: int) -> int:
    player = state.players[seat]
    lost = min(amount, player.ap)
    player.ap -= lost
    return lost


def heal(state: GameState, amount: int, source: str, seat: int | None, events: bool = True) -> None:
    """Restore PV up to the gauge's top; `events`: as the events at work modify it (not
    during the transition: R75)."""
    amount = max(0, amount + (heal_mod(state) if events else 0))
    before = state.hp
    state.hp = min(GAUGE_MAX, state.hp + amount)
    if seat is not None:
        bump(state, seat, "healed", state.hp - before)
    if state.keep_log:
        log(state, "heal", source=source, amount=state.hp - before, hp=state.hp)


def damage(state: GameState, amount: int, source: str, seat: int | None) -> None:
    amount = max(0, amount + damage_mod(state))
    before = state.hp
    state.hp = max(0, state.hp - amount)
    if seat is not None:
        bump(state, seat, "damaged", before - state.hp)
    if state.keep_log:
        log(state, "damage", source=source, amount=before - state.hp, hp=state.hp)


def receive(state: GameState, seat: int, cards: list[str]) -> None:
    """Cards arrive in a hand; receiving any card switches the hand limit back on [RB 71]."""
    if cards:
        player = state.players[seat]
        player.hand.extend(cards)
        player.hand_limit_off = False


def take_top(state: GameState, amount: int) -> list[str]:
    """Up to `amount` cards off the top of the pile; an empty pile gives nothing and is
    never reshuffled [RB 72]."""
    pile = state.draw_pile
    return [pile.pop() for _ in range(min(amount, len(pile)))]


def draw_cards(state: GameState, seat: int, amount: int, reason: str) -> list[str]:
    """Draw from the top into the hand (`take_top`)."""
    drawn = take_top(state, amount)
    receive(state, seat, drawn)
    if state.keep_log or not state.headless:  # (headless: no log, and no undo to stop)
        tell(state, seat, "draw", {"cards": drawn}, count=len(drawn), wanted=amount, reason=reason)
    return drawn


def discard_from_hand(state: GameState, seat: int, instance: str, reason: str) -> None:
    """A discard by effect, overflow or event: public, and never yields PA [RB 73]."""
    state.players[seat].hand.remove(instance)
    state.discard_pile.append(instance)
    if state.keep_log:
        log(state, "discard", seat=seat, card=instance, reason=reason, ap=0)


def nobody_can_play(state: GameState) -> bool:
    """§9.1.3: empty pile, empty hands, and no Écolo deck waiting for the transition."""
    if state.draw_pile or any(p.hand for p in state.players):
        return False
    return state.phase == 2 or all(not p.deck for p in state.players)


def synergy_of(state: GameState, seat: int) -> str | None:
    """The synergy a deck qualifies for: 'single_type', 'four_types' or None (§4.1)."""
    deck = state.players[seat].deck
    if len(deck) < constants(state).synergy_min_deck:
        return None
    types = {state.content.cards[card_id(c)].type for c in deck}
    if len(types) == 1:
        return "single_type"
    if len(types) == 4:
        return "four_types"
    return None


def discard_yield(state: GameState, seat: int) -> int:
    """The PA the discard action gives this seat now (its side's row, this phase)."""
    return configuration(state).table(state.players[seat].side, state.phase).discard_yield
