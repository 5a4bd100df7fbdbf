"""Legality: every legal action for a seat right now, and why any other is refused.

Each rule is stated once, as a predicate that returns a refusal (a code and its
parameters) or None (engine/refusals.py). The legal list is built from those
predicates and `why_illegal` asks the same ones, so the list and the refusal
can never disagree (architecture principle 1). A turn's list, built at every turn
decision, reads a few of them inline (a flag, a partner's hand): tests/test_engine_tables.py
checks it against the predicates at every turn of random games in every configuration.

Copies of one card are interchangeable, so a choice among cards lists one
instance per card id (`distinct`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import cast

from ..content import effects as fx
from . import actions as act
from .announce import reaction_answers
from .common import (
    card_id,
    constants,
    distinct,
    effective_cost,
    level,
    power_cost,
    synergy_of,
    valid_targets,
)
from .effects import option_possible, take_eligible
from .refusals import IllegalAction, explain, refuse
from .state import (
    ArrangeFrame,
    GameState,
    MulliganFrame,
    OptionFrame,
    Pending,
    PendingKind,
    SecondCardFrame,
    TakeFrame,
)
from .tables import tables_for


def legal_actions(state: GameState, seat: int) -> list:
    """The actions `seat` may take now; empty when it is not this seat's decision."""
    pending = state.pending
    if pending is None or pending.seat != seat or state.stage == "over":
        return []
    return _BY_KIND[pending.kind](state, seat)


def why_illegal(state: GameState, action) -> IllegalAction | None:
    """None if `action` is legal now, else the refusal (code and parameters)."""
    if state.over:
        return IllegalAction("game_over")
    pending = state.pending
    if pending is None:
        return IllegalAction("nobody_to_decide")
    if getattr(action, "seat", None) != pending.seat:
        # A reaction window's decider is not public: "waiting for reactions", never who.
        return IllegalAction("not_your_decision", waiting=pending.kind)
    if action in legal_actions(state, pending.seat):
        return None
    refusal = explain(state, pending.kind, action) or refuse("not_an_option")
    return IllegalAction(refusal[0], **refusal[1])


def turn_actions(state: GameState, seat: int) -> list:
    """The legal list of `seat` in its own turn (its decision now: `legal_actions`)."""
    player = state.players[seat]
    tables = tables_for(state)
    hand = distinct(player.hand)
    ap = player.ap
    costs = tables.costs[state.phase, player.side]
    plays = tables.plays[seat]
    out: list = []
    for instance in hand:  # in the hand by construction: only the cost remains to check
        if costs[instance] <= ap:  # cost_refusal, from the table of effective costs
            out.extend(plays[instance])
    # The refusals of a turn's actions, read inline (the one list built at every turn:
    # tests/test_engine_tables.py checks it against the predicates above).
    turn = player.turn
    const = state.content.constants
    phase_two = state.phase == 2
    golden = phase_two and player.side == "ecologist"  # an Écolo in phase 2
    if (  # deck_refusal
        player.side == "ecologist"
        and not phase_two
        and len(player.deck) < const.deck_limit
        and ap >= const.deck_cost
    ):
        out.extend(map(tables.decks[seat].__getitem__, hand))
    if not turn.discarded:  # discard_refusal
        out.extend(map(tables.discards[seat].__getitem__, hand))
    if not (golden or turn.drew) and state.draw_pile and ap >= const.draw_cost:  # draw_refusal
        out.append(tables.draws[seat])
    if not (golden or turn.traded) and ap >= const.trade_cost and hand:  # trade_refusal
        proposals = tables.proposals[seat]
        players = state.players
        proposed = turn.proposed
        for other in tables.others[seat]:  # partner_refusal, read inline (another seat)
            partner = players[other]
            if (
                partner.hand
                and other not in proposed
                and not (phase_two and partner.side == "ecologist")
            ):
                out.append(proposals[other])
    out.extend(tables.store_lists[seat][ap])  # StoreAp of 1 to all its PA
    if not turn.power_used:  # power_refusal, read inline (most powers: not now)
        power = state.content.characters[player.character].power
        if (
            power.timing == "own_turn"
            and ap >= power_cost(state, seat)
            and not (power.first_action_only and turn.acted)
            and not (power.after_play_card and not turn.played_card)
        ):
            out.extend(_power_uses(state, seat, tables))
    out.append(tables.ends[seat])
    return out


def _plays(state: GameState, seat: int, instance: str) -> list:
    """Own-turn plays of a card: every non-cancel cartouche with every valid target."""
    return list(tables_for(state).plays[seat][instance])


def _power_uses(state: GameState, seat: int, tables) -> list:
    """The targets (or discard-pile cards) of a power that may be used now."""
    player = state.players[seat]
    power = state.content.characters[player.character].power
    if power.after_play_card:
        cost = power_cost(state, seat)
        uses = tables.powers_on_card[seat]
        return [uses[c] for c in _playable_from_discard(state, seat, player.ap - cost, tables)]
    effects = power.at(level(state, seat)).effects
    targets = tables.targets(tables.selector(effects), seat)
    if power.target_must_hold_cards:
        targets = [t for t in targets if t is not None and state.players[t].hand]
    uses = tables.powers[seat]
    return [uses[t] for t in targets]


def _playable_from_discard(state: GameState, seat: int, ap_left: int, tables) -> list[str]:
    """The discard-pile cards (one copy each) Trésor de guerre may play: those the PA
    left pay for, with a cartouche that is not a cancel (one its owner's turn may play)."""
    costs = tables.costs[state.phase, state.players[seat].side]  # effective costs
    playable = tables.own_turn_cartouches
    return [c for c in distinct(state.discard_pile) if costs[c] <= ap_left and playable(card_id(c))]


# ------------------------------------------------------------ other decisions


def _mulligan(state: GameState, seat: int) -> list:
    """A pick list: one card at a time to put back (at most the maximum), then done."""
    frame = cast(MulliganFrame, state.stack[-1])
    out = []
    if len(frame.picked) < constants(state).mulligan_max:
        rest = list(state.players[seat].hand)
        for instance in frame.picked:
            rest.remove(instance)
        choices = tables_for(state).choices[seat]
        out = [choices[c] for c in distinct(rest)]
    return out + [act.ChooseCard(seat, None)]


def _react(state: GameState, seat: int) -> list:
    return reaction_answers(state, seat, cast(Pending, state.pending).info.get("action") == "event")


def _trade_answer(state: GameState, seat: int) -> list:
    return [act.AnswerTrade(seat, True), act.AnswerTrade(seat, False)]


def _hand_choice(state: GameState, seat: int) -> list:
    choices = tables_for(state).choices[seat]
    return [choices[c] for c in distinct(state.players[seat].hand)]


def _choose_discard(state: GameState, seat: int) -> list:
    out = _hand_choice(state, seat)
    if cast(Pending, state.pending).info.get("optional"):
        out.append(act.ChooseCard(seat, None))
    return out


def _choose_give(state: GameState, seat: int) -> list:
    return _hand_choice(state, seat) + [act.ChooseCard(seat, None)]


def _choose_take(state: GameState, seat: int) -> list:
    choices = tables_for(state).choices[seat]
    return [choices[c] for c in distinct(take_eligible(state, cast(TakeFrame, state.stack[-1])))]


def _choose_option(state: GameState, seat: int) -> list:
    frame = cast(OptionFrame, state.stack[-1])
    out = []
    for index, option in enumerate(frame.options):
        if not option_possible(state, seat, option):
            continue
        for target in valid_targets(state, fx.target_selector(option), seat):
            out.append(act.ChooseOption(seat, index, target))
    return out


def _arrange(state: GameState, seat: int) -> list:
    frame = cast(ArrangeFrame, state.stack[-1])
    indices = range(len(frame.seen))
    out = [act.ArrangeEvents(seat, order) for order in permutations(indices)]
    if frame.bottom:
        for bottom in indices:
            rest = [i for i in indices if i != bottom]
            out.extend(act.ArrangeEvents(seat, order, bottom) for order in permutations(rest))
    return out


def _second_card(state: GameState, seat: int) -> list:
    instance = cast(SecondCardFrame, state.stack[-1]).card
    if effective_cost(state, seat, instance) > state.players[seat].ap:
        return []
    return _plays(state, seat, instance)


def _claim(state: GameState, seat: int) -> list:
    if synergy_of(state, seat) is None:  # asked all the same, to keep the deck's secret
        return [act.ClaimSynergy(seat, False)]
    return [act.ClaimSynergy(seat, True), act.ClaimSynergy(seat, False)]


_BY_KIND: dict[PendingKind, Callable[[GameState, int], list]] = {
    PendingKind.TURN: turn_actions,
    PendingKind.MULLIGAN: _mulligan,
    PendingKind.REACT: _react,
    PendingKind.TRADE_ANSWER: _trade_answer,
    PendingKind.CHOOSE_DISCARD: _choose_discard,
    PendingKind.CHOOSE_GIVE: _choose_give,
    PendingKind.CHOOSE_TAKE: _choose_take,
    PendingKind.CHOOSE_EXCHANGE: _hand_choice,
    PendingKind.CHOOSE_OPTION: _choose_option,
    PendingKind.ARRANGE: _arrange,
    PendingKind.SECOND_CARD: _second_card,
    PendingKind.CLAIM_SYNERGY: _claim,
}
