"""What a move does against its player's own side: one rule for the confirmation a
player is asked before such a move (tui/screens/game_flow.py), the order a target's
choices are offered in (words/describe.py `aimed_well_first`), and the hints and the
review, which never put such a move first unless the search is sure (bots/hints.py).

A move works against its side when it moves the gauge the other side's way (a card's
heals and damage, as they would count now), falls on the player's whole side (every
Écolo loses PA, played by an Écolo), or aims a blow at the player or an ally, or a gift
at an opponent. Read from the seat's view: nothing hidden decides it.
"""

from __future__ import annotations

from ..content import effects as fx
from . import actions as act
from .common import card_id
from .view_records import View


def target_effects(content, view: View, action) -> tuple:
    """The effects a card played or a power used applies (what decides its aim)."""
    match action:
        case act.PlayCard(card=card, cartouche=index):
            return tuple(content.cards[card_id(card)].cartouches[index])
        case act.UsePower():
            me = view.me
            return tuple(content.characters[me.character].power.at(me.level).effects)
    return ()


def against_own_side(content, view: View, action) -> bool:
    """A harmful effect aimed at the player or an ally, or a gift aimed at an opponent."""
    target = getattr(action, "target", None)
    if target is None or not 0 <= target < len(view.players):
        return False
    aim = fx.aim(target_effects(content, view, action))
    ally = view.players[target].side == view.me.side
    return aim == (fx.HARMS if ally else fx.HELPS)


def gauge_against_own_side(content, view: View, action) -> bool:
    """A card whose heals and damage together move the gauge the other side's way, as
    they would now (with the active events' heal and damage modifiers, none below 0)."""
    if not isinstance(action, act.PlayCard) or not 0 <= view.seat < len(view.players):
        return False
    cartouche = content.cards[card_id(action.card)].cartouches[action.cartouche]
    swing = fx.gauge_swing(cartouche, view.heal_mod, view.damage_mod)
    return swing < 0 if view.me.side == "ecologist" else swing > 0


def side_against_own_side(content, view: View, action) -> bool:
    """A card or power whose effects on a whole side work against the player's own
    (`fx.against_side`: every Écolo loses PA, played by an Écolo)."""
    if not 0 <= view.seat < len(view.players):
        return False
    return fx.against_side(target_effects(content, view, action), view.me.side)


def own_side_harm(content, view: View, action) -> str | None:
    """How a move works against the player's own side, as the confirmation says it:
    "gauge", "side" (a whole side's PA or cards), "self", "ally" or "gift"; None when
    it does not."""
    if gauge_against_own_side(content, view, action):
        return "gauge"
    if side_against_own_side(content, view, action):
        return "side"
    if against_own_side(content, view, action):
        if view.players[action.target].side != view.me.side:
            return "gift"
        return "self" if action.target == view.seat else "ally"
    return None
