"""Every legal action for a seat right now (architecture principle 1).

Copies of one card are interchangeable, so a choice among cards lists one
instance per card id (`distinct`).
"""

from __future__ import annotations

from itertools import combinations, permutations

from ..content import effects as fx
from . import actions as act
from .announce import cancel_options
from .common import (
    card_def,
    character,
    constants,
    distinct,
    effective_cost,
    level,
    power_cost,
    valid_targets,
)
from .effects import option_possible, take_eligible
from .state import GameState


def legal_actions(state: GameState, seat: int) -> list:
    """The actions `seat` may take now; empty when it is not this seat's decision."""
    pending = state.pending
    if pending is None or pending.seat != seat or state.over:
        return []
    return _BY_KIND[pending.kind](state, seat)


def _turn(state: GameState, seat: int) -> list:
    player = state.players[seat]
    const = constants(state)
    phase2_ecologist = state.phase == 2 and player.is_ecologist
    hand = distinct(player.hand)
    out: list = []
    for instance in hand:
        if effective_cost(state, seat, instance) <= player.ap:
            out.extend(_plays(state, seat, instance))
    if (
        player.is_ecologist
        and state.phase == 1
        and len(player.deck) < const.deck_limit
        and player.ap >= const.deck_cost
    ):
        out.extend(act.PutInDeck(seat, c) for c in hand)
    if not player.turn.discarded:
        out.extend(act.Discard(seat, c) for c in hand)
    if (
        not player.turn.drew
        and player.ap >= const.draw_cost
        and state.draw_pile
        and not phase2_ecologist
    ):
        out.append(act.Draw(seat))
    if (
        not player.turn.traded
        and player.ap >= const.trade_cost
        and player.hand
        and not phase2_ecologist
    ):
        for other in state.players:
            if other.seat == seat or not other.hand:
                continue
            if state.phase == 2 and other.is_ecologist:
                continue
            out.append(act.ProposeTrade(seat, other.seat))
    out.extend(act.StoreAp(seat, n) for n in range(1, player.ap + 1))
    out.extend(_powers(state, seat))
    out.append(act.EndTurn(seat))
    return out


def _plays(state: GameState, seat: int, instance: str) -> list:
    """Own-turn plays of a card: every non-cancel cartouche with every valid target."""
    out = []
    for index, cartouche in enumerate(card_def(state, instance).cartouches):
        if any(isinstance(e, fx.Cancel) for e in cartouche):
            continue
        for target in valid_targets(state, fx.target_selector(cartouche), seat):
            out.append(act.PlayCard(seat, instance, index, target))
    return out


def _powers(state: GameState, seat: int) -> list:
    player = state.players[seat]
    power = character(state, seat).power
    cost = power_cost(state, seat)
    if power.timing != "own_turn" or player.turn.power_used or player.ap < cost:
        return []
    if power.first_action_only and player.turn.acted:
        return []
    effects = power.at(level(state, seat)).effects
    if power.after_play_card:
        if not player.turn.played_card:
            return []
        return [
            act.UsePower(seat, card=c)
            for c in distinct(state.discard_pile)
            if _playable_from_discard(state, seat, c, player.ap - cost)
        ]
    targets = valid_targets(state, fx.target_selector(effects), seat)
    if power.target_must_hold_cards:
        targets = [t for t in targets if t is not None and state.players[t].hand]
    return [act.UsePower(seat, target=t) for t in targets]


def _playable_from_discard(state: GameState, seat: int, instance: str, ap_left: int) -> bool:
    if effective_cost(state, seat, instance) > ap_left:
        return False
    return any(
        not any(isinstance(e, fx.Cancel) for e in cartouche)
        for cartouche in card_def(state, instance).cartouches
    )


def _mulligan(state: GameState, seat: int) -> list:
    hand = state.players[seat].hand
    limit = min(constants(state).mulligan_max, len(hand))
    return [act.Mulligan(seat, combo) for k in range(limit + 1) for combo in combinations(hand, k)]


def _react(state: GameState, seat: int) -> list:
    event = state.pending.info.get("action") == "event"
    return [act.Pass(seat)] + [act.Cancel(seat, c) for c in cancel_options(state, seat, event)]


def _trade_answer(state: GameState, seat: int) -> list:
    return [act.AnswerTrade(seat, True), act.AnswerTrade(seat, False)]


def _hand_choice(state: GameState, seat: int) -> list:
    return [act.ChooseCard(seat, c) for c in distinct(state.players[seat].hand)]


def _choose_discard(state: GameState, seat: int) -> list:
    out = _hand_choice(state, seat)
    if state.pending.info.get("optional"):
        out.append(act.ChooseCard(seat, None))
    return out


def _choose_give(state: GameState, seat: int) -> list:
    return _hand_choice(state, seat) + [act.ChooseCard(seat, None)]


def _choose_take(state: GameState, seat: int) -> list:
    return [act.ChooseCard(seat, c) for c in distinct(take_eligible(state, state.stack[-1]))]


def _choose_option(state: GameState, seat: int) -> list:
    frame = state.stack[-1]
    out = []
    for index, option in enumerate(frame.options):
        if not option_possible(state, seat, option):
            continue
        for target in valid_targets(state, fx.target_selector(option), seat):
            out.append(act.ChooseOption(seat, index, target))
    return out


def _arrange(state: GameState, seat: int) -> list:
    frame = state.stack[-1]
    indices = range(len(frame.seen))
    out = [act.ArrangeEvents(seat, order) for order in permutations(indices)]
    if frame.bottom:
        for bottom in indices:
            rest = [i for i in indices if i != bottom]
            out.extend(act.ArrangeEvents(seat, order, bottom) for order in permutations(rest))
    return out


def _second_card(state: GameState, seat: int) -> list:
    instance = state.stack[-1].card
    if effective_cost(state, seat, instance) > state.players[seat].ap:
        return []
    return _plays(state, seat, instance)


def _claim(state: GameState, seat: int) -> list:
    return [act.ClaimSynergy(seat, True), act.ClaimSynergy(seat, False)]


_BY_KIND = {
    "turn": _turn,
    "mulligan": _mulligan,
    "react": _react,
    "trade_answer": _trade_answer,
    "choose_discard": _choose_discard,
    "choose_give": _choose_give,
    "choose_take": _choose_take,
    "choose_exchange": _hand_choice,
    "choose_option": _choose_option,
    "arrange": _arrange,
    "second_card": _second_card,
    "claim_synergy": _claim,
}
