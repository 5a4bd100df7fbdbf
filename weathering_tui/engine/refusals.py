"""Why an action is refused: `IllegalAction` and every refusal code (`REFUSALS`, with
the parameters each carries: the UI has a sentence for each); each rule of a turn
stated once, as a predicate that returns a refusal (a code and its parameters) or
None; and `explain`, the refusal of an action missing from the legal list, from the
same predicates. engine/legal.py builds the legal list from them, so the list and the
refusal can never disagree (architecture principle 1)."""

from __future__ import annotations

import types
from typing import cast, get_args

from ..content import effects as fx
from . import actions as act
from .common import (
    card_def,
    card_id,
    character,
    constants,
    effective_cost,
    power_cost,
)
from .state import GameState, MulliganFrame, PendingKind


class IllegalAction(Exception):
    """An action that is not legal now; the state was left untouched.

    `code` names the rule (one of `REFUSALS`) and `params` its values; the app
    renders them in the player's language, so the engine writes no prose."""

    def __init__(self, code: str, **params):
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        if not self.params:
            return self.code
        values = ", ".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return f"{self.code} ({values})"


# Every refusal code, with the parameters it carries (the UI has a sentence for each).
REFUSALS: dict[str, tuple[str, ...]] = {
    "game_over": (),
    "nobody_to_decide": (),
    "not_your_decision": ("waiting",),
    "wrong_decision": ("expected",),
    "card_not_in_hand": ("card",),
    "card_cost": ("card", "cost", "ap"),
    "no_cartouche": ("card",),
    "cancel_in_reaction": ("card",),
    "bad_target": (),
    "deck_ecologists_only": (),
    "deck_phase_one": (),
    "deck_full": ("limit",),
    "deck_cost": ("cost",),
    "discard_once": (),
    "draw_golden_rule": (),
    "draw_once": (),
    "draw_pile_empty": (),
    "draw_cost": ("cost",),
    "trade_once": (),
    "trade_phase_two": (),
    "trade_cost": ("cost",),
    "trade_needs_cards": (),
    "trade_partner_twice": ("partner",),
    "trade_bad_partner": (),
    "store_range": ("ap",),
    "power_in_reaction": ("power",),
    "power_once": (),
    "power_cost": ("power", "cost"),
    "power_first_action": ("power",),
    "power_needs_play": ("power",),
    "power_bad_choice": ("power",),
    "cancel_unavailable": (),
    "card_not_choosable": (),
    "mulligan_full": ("max",),
    "not_an_option": (),
    "cannot_undo": (),
    "offline": (),  # a remote session's: the link to the table is down, nothing was sent
    "storage": (),  # a table's: it could not save what was asked (an undo), nothing changed
    "paused": (),  # a table's: it cannot save right now, so it takes no move meanwhile
    "unknown_configuration": ("configuration",),
    "seat_order": ("configuration", "ecologists", "lobbyists"),
    "character_twice": (),
    "unknown_character": ("character",),
    "character_side": ("character", "side"),
}


# A refusal not yet raised: (code, params). The legal list only asks whether there is
# one, so building it must cost little; `why_illegal` turns it into an IllegalAction.
Refusal = tuple[str, dict] | None


def refuse(code: str, **params) -> tuple[str, dict]:
    return code, params


# ------------------------------------------------------------ the rules of a turn


def play_refusal(state: GameState, seat: int, card: str) -> Refusal:
    if card not in state.players[seat].hand:
        return refuse("card_not_in_hand", card=card)
    return cost_refusal(state, seat, card)


def cost_refusal(state: GameState, seat: int, card: str) -> Refusal:
    """A card costs its effective cost, which the player must have."""
    ap = state.players[seat].ap
    cost = effective_cost(state, seat, card)
    if cost > ap:
        return refuse("card_cost", card=card, cost=cost, ap=ap)
    return None


def deck_refusal(state: GameState, seat: int) -> Refusal:
    player = state.players[seat]
    const = state.content.constants
    if not player.is_ecologist:
        return refuse("deck_ecologists_only")
    if state.phase == 2:
        return refuse("deck_phase_one")
    if len(player.deck) >= const.deck_limit:
        return refuse("deck_full", limit=const.deck_limit)
    if player.ap < const.deck_cost:
        return refuse("deck_cost", cost=const.deck_cost)
    return None


def discard_refusal(state: GameState, seat: int) -> Refusal:
    return refuse("discard_once") if state.players[seat].turn.discarded else None


def draw_refusal(state: GameState, seat: int) -> Refusal:
    player = state.players[seat]
    if state.phase == 2 and player.is_ecologist:
        return refuse("draw_golden_rule")
    if player.turn.drew:
        return refuse("draw_once")
    if not state.draw_pile:
        return refuse("draw_pile_empty")
    cost = state.content.constants.draw_cost
    if player.ap < cost:
        return refuse("draw_cost", cost=cost)
    return None


def trade_refusal(state: GameState, seat: int) -> Refusal:
    player = state.players[seat]
    if state.phase == 2 and player.is_ecologist:
        return refuse("trade_phase_two")
    if player.turn.traded:
        return refuse("trade_once")
    cost = state.content.constants.trade_cost
    if player.ap < cost:
        return refuse("trade_cost", cost=cost)
    if not player.hand:
        return refuse("trade_needs_cards")
    return None


def partner_refusal(state: GameState, seat: int, partner: int) -> Refusal:
    """A partner: another seat holding a card, not an Écolo in phase 2, asked once a turn."""
    if not 0 <= partner < len(state.players) or partner == seat:
        return refuse("trade_bad_partner")
    other = state.players[partner]
    if state.phase == 2 and other.is_ecologist:
        return refuse("trade_phase_two")
    if not other.hand:
        return refuse("trade_needs_cards")
    if partner in state.players[seat].turn.proposed:
        return refuse("trade_partner_twice", partner=partner)
    return None


def power_refusal(state: GameState, seat: int) -> Refusal:
    player = state.players[seat]
    power = state.content.characters[player.character].power
    if power.timing != "own_turn":
        return refuse("power_in_reaction", power=power.id)
    if player.turn.power_used:
        return refuse("power_once")
    cost = power_cost(state, seat)
    if player.ap < cost:
        return refuse("power_cost", power=power.id, cost=cost)
    if power.first_action_only and player.turn.acted:
        return refuse("power_first_action", power=power.id)
    if power.after_play_card and not player.turn.played_card:
        return refuse("power_needs_play", power=power.id)
    return None


def explain(state: GameState, kind: PendingKind, action) -> Refusal:  # noqa: C901 - one rule a branch
    """The refusal of an action that is not in the legal list, from the same predicates."""
    seat = action.seat
    turn_action = isinstance(
        action,
        act.PlayCard
        | act.PutInDeck
        | act.Discard
        | act.Draw
        | act.ProposeTrade
        | act.StoreAp
        | act.UsePower
        | act.EndTurn,
    )
    if turn_action and kind != "turn" and not (kind == "second_card" and _is_play(action)):
        return refuse("wrong_decision", expected=kind)
    card = getattr(action, "card", None)
    names_card = isinstance(action, act.PlayCard | act.PutInDeck | act.Discard)
    if names_card and kind == "turn" and card not in state.players[seat].hand:
        return refuse("card_not_in_hand", card=card)
    match action:
        case act.PlayCard(card=played):
            refusal = play_refusal(state, seat, played) if kind == "turn" else None
            if refusal is not None:
                return refusal
            cartouches = card_def(state, played).cartouches if _known(state, played) else ()
            if not 0 <= action.cartouche < len(cartouches):
                return refuse("no_cartouche", card=played)
            if any(isinstance(e, fx.Cancel) for e in cartouches[action.cartouche]):
                return refuse("cancel_in_reaction", card=played)
            ap = state.players[seat].ap
            if kind == "second_card" and effective_cost(state, seat, played) > ap:
                cost = effective_cost(state, seat, played)
                return refuse("card_cost", card=played, cost=cost, ap=ap)
            return refuse("bad_target")
        case act.PutInDeck():
            return deck_refusal(state, seat)
        case act.Discard():
            return discard_refusal(state, seat)
        case act.Draw():
            return draw_refusal(state, seat)
        case act.ProposeTrade(partner=partner):
            return trade_refusal(state, seat) or partner_refusal(state, seat, partner)
        case act.StoreAp():
            return refuse("store_range", ap=state.players[seat].ap)
        case act.UsePower():
            power = character(state, seat).power
            return power_refusal(state, seat) or refuse("power_bad_choice", power=power.id)
        case act.Cancel():
            return refuse("cancel_unavailable")
        case act.ChooseCard() if kind == "mulligan":
            frame = cast(MulliganFrame, state.stack[-1])
            limit = constants(state).mulligan_max
            if card is not None and len(frame.picked) >= limit:
                return refuse("mulligan_full", max=limit)
            return refuse("card_not_choosable")
        case act.ChooseCard():
            return refuse("card_not_choosable")
    if kind not in _ANSWERS or not isinstance(action, _ANSWERS[kind]):
        return refuse("wrong_decision", expected=kind)
    return None


def _is_play(action) -> bool:
    return isinstance(action, act.PlayCard)


def _known(state: GameState, card) -> bool:
    return isinstance(card, str) and card_id(card) in state.content.cards


# The kind of action that answers each decision (a class, or a union of classes; a turn's
# any action: act.Action's classes, as a tuple isinstance reads alike).
_ANSWERS: dict[PendingKind, type | types.UnionType | tuple[type, ...]] = {
    PendingKind.MULLIGAN: act.ChooseCard,
    PendingKind.REACT: act.Pass | act.Cancel,
    PendingKind.TRADE_ANSWER: act.AnswerTrade,
    PendingKind.CHOOSE_DISCARD: act.ChooseCard,
    PendingKind.CHOOSE_GIVE: act.ChooseCard,
    PendingKind.CHOOSE_TAKE: act.ChooseCard,
    PendingKind.CHOOSE_EXCHANGE: act.ChooseCard,
    PendingKind.CHOOSE_OPTION: act.ChooseOption,
    PendingKind.ARRANGE: act.ArrangeEvents,
    PendingKind.SECOND_CARD: act.PlayCard,
    PendingKind.CLAIM_SYNERGY: act.ClaimSynergy,
    PendingKind.TURN: get_args(act.Action),
}
