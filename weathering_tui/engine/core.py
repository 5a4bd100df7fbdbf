"""`apply`, the resolution loop and `replay`: the one door through which state changes."""

from __future__ import annotations

from . import actions as act
from . import announce, effects, flow
from .common import IllegalAction, card_def, character, constants, effective_cost, power_cost
from .legal import legal_actions
from .state import (
    ArrangeFrame,
    DiscardChoiceFrame,
    EffectsFrame,
    EventWindowFrame,
    ExchangeFrame,
    FinishPlayFrame,
    GameState,
    GiveFrame,
    MulliganFrame,
    OptionFrame,
    OverflowFrame,
    Pending,
    ReactionFrame,
    RoundStartFrame,
    SecondCardFrame,
    Setup,
    TakeFrame,
    TradeAnswerFrame,
    TransitionFrame,
)

# Decisions that resolve on their own when only one option exists (§12.11).
AUTO_KINDS = frozenset(
    {
        "choose_discard",
        "choose_give",
        "choose_take",
        "choose_exchange",
        "choose_option",
        "arrange",
        "second_card",
    }
)

_STEPS = {
    MulliganFrame: flow.step_mulligan,
    RoundStartFrame: flow.step_round_start,
    TransitionFrame: flow.step_transition,
    EventWindowFrame: announce.step_event_window,
    ReactionFrame: announce.step_reaction,
    TradeAnswerFrame: announce.step_trade_answer,
    SecondCardFrame: announce.step_second_card,
    FinishPlayFrame: announce.step_finish_play,
    EffectsFrame: effects.step_effects,
    OverflowFrame: effects.step_overflow,
    DiscardChoiceFrame: effects.step_discard_choice,
    GiveFrame: effects.step_give,
    TakeFrame: effects.step_take,
    ExchangeFrame: effects.step_exchange,
    OptionFrame: effects.step_option,
    ArrangeFrame: effects.step_arrange,
}


def run(state: GameState) -> None:
    """Resolve frames until someone must decide (or the game is over)."""
    while not state.over:
        pending = state.pending
        if pending is not None:
            if pending.kind in AUTO_KINDS:
                options = legal_actions(state, pending.seat)
                if len(options) == 1:
                    state.pending = None
                    _dispatch(state, pending, options[0])
                    continue
            return
        if state.stack:
            frame = state.stack[-1]
            _STEPS[type(frame)](state, frame)
        else:
            state.pending = Pending("turn", state.active)


def apply(state: GameState, action, view=None) -> GameState:
    """Apply one action in place and return the state; an illegal action raises
    `IllegalAction` with a readable reason and changes nothing.

    `view` (optional) is the acting seat's view of this very state: when it is
    current and lists the action, legality is not computed a second time."""
    trusted = (
        view is not None
        and view.version == state.version
        and view.seat == getattr(action, "seat", None)
        and action in view.legal
    )
    if not trusted:
        reason = why_illegal(state, action)
        if reason is not None:
            raise IllegalAction(reason)
    state.version += 1
    pending = state.pending
    state.pending = None
    _dispatch(state, pending, action)
    run(state)
    return state


def replay(setup: Setup, actions, content=None) -> GameState:
    """Rebuild a game from its setup and its action list (determinism, §12.12)."""
    state = flow.new_game(setup, content)
    for action in actions:
        apply(state, action)
    return state


def _dispatch(state: GameState, pending: Pending, action) -> None:  # noqa: C901 - a flat switch
    frame = state.stack[-1] if state.stack else None
    seat = action.seat
    match action:
        case act.Mulligan(cards=cards):
            flow.mulligan(state, frame, seat, cards)
        case act.PlayCard(card=card, cartouche=cartouche, target=target):
            if pending.kind == "second_card":
                state.stack.pop()
                announce.play_card(state, seat, card, cartouche, target, from_discard=True)
            else:
                announce.play_card(state, seat, card, cartouche, target)
        case act.PutInDeck(card=card):
            announce.put_in_deck(state, seat, card)
        case act.Discard(card=card):
            announce.discard(state, seat, card)
        case act.Draw():
            announce.draw(state, seat)
        case act.ProposeTrade(partner=partner):
            announce.propose_trade(state, seat, partner)
        case act.StoreAp(amount=amount):
            announce.store_ap(state, seat, amount)
        case act.UsePower(target=target, card=card):
            announce.use_power(state, seat, target, card)
        case act.EndTurn():
            flow.end_turn(state, seat)
        case act.Pass():
            announce.react_pass(state, frame)
        case act.Cancel(card=card):
            announce.react_cancel(state, frame, seat, card)
        case act.AnswerTrade(accept=accept):
            announce.answer_trade(state, frame, accept)
        case act.ChooseCard(card=card):
            _choose_card(state, pending.kind, frame, card)
        case act.ChooseOption(option=option, target=target):
            effects.choose_option(state, frame, option, target)
        case act.ClaimSynergy(claim=claim):
            flow.claim_synergy(state, frame, seat, claim)
        case act.ArrangeEvents(order=order, bottom=bottom):
            state.stack.pop()
            effects.arrange(state, frame, order, bottom)
        case _:
            raise IllegalAction(f"unknown action {action!r}")


def _choose_card(state: GameState, kind: str, frame, card) -> None:
    if kind == "choose_discard":
        effects.choose_discard(state, frame, card)
    elif kind == "choose_give":
        effects.choose_give(state, frame, card)
    elif kind == "choose_take":
        effects.choose_take(state, frame, card)
    else:
        effects.choose_exchange(state, frame, card)


# ------------------------------------------------------------ reasons


WAITING_FOR = {
    "turn": "play their turn",
    "mulligan": "decide their mulligan",
    "react": "react to an announcement",
    "trade_answer": "answer a trade",
    "choose_discard": "choose a card to discard",
    "choose_give": "choose a card to give",
    "choose_take": "choose a card from the discard pile",
    "choose_exchange": "choose a card to exchange",
    "choose_option": "choose an option",
    "arrange": "arrange the cards they saw",
    "second_card": "play their second card",
    "claim_synergy": "claim a synergy or not",
}


def why_illegal(state: GameState, action) -> str | None:
    """None if `action` is legal now, else a sentence a player can read."""
    if state.over:
        return "the game is over"
    pending = state.pending
    seat = getattr(action, "seat", None)
    if pending is None:
        return "nobody is to decide anything now"
    if seat != pending.seat:
        name = state.players[pending.seat].name
        return (
            f"it is not seat {seat}'s decision: waiting for {name} to {WAITING_FOR[pending.kind]}"
        )
    if isinstance(action, act.Mulligan) and pending.kind == "mulligan":
        return _mulligan_problem(state, action)
    if action in legal_actions(state, seat):
        return None
    return _explain(state, pending, action)


def _mulligan_problem(state: GameState, action: act.Mulligan) -> str | None:
    hand = state.players[action.seat].hand
    if len(set(action.cards)) != len(action.cards):
        return "a card is named twice in the mulligan"
    if len(action.cards) > constants(state).mulligan_max:
        return f"at most {constants(state).mulligan_max} cards go under the pile"
    missing = [c for c in action.cards if c not in hand]
    if missing:
        return f"not in hand: {', '.join(missing)}"
    return None


def _explain(state: GameState, pending: Pending, action) -> str:  # noqa: C901 - one reason per rule
    player = state.players[action.seat]
    name = act.action_name(action)
    expected = WAITING_FOR[pending.kind]
    if (
        pending.kind != "turn"
        and isinstance(
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
        and pending.kind != "second_card"
    ):
        return f"{name} is not possible now: {player.name} must {expected}"
    card = getattr(action, "card", None)
    const = constants(state)
    in_turn = pending.kind == "turn"
    names_card = isinstance(action, act.PlayCard | act.PutInDeck | act.Discard)
    if in_turn and names_card and card not in player.hand:
        return f"{card} is not in {player.name}'s hand"
    if isinstance(action, act.PlayCard) and pending.kind == "turn":
        cost = effective_cost(state, action.seat, card)
        if cost > player.ap:
            return (
                f"{card_def(state, card).name_fr} costs {cost} PA and {player.name} has {player.ap}"
            )
        cartouches = card_def(state, card).cartouches
        if not 0 <= action.cartouche < len(cartouches):
            return f"{card_def(state, card).name_fr} has no cartouche {action.cartouche}"
        if card_def(state, card).is_cancel(action.cartouche):
            return "a cancel cartouche can only be played in reaction to another player's action"
        return "that target is not valid for this card"
    if isinstance(action, act.PutInDeck):
        if not player.is_ecologist:
            return "only Écolos build a deck"
        if state.phase == 2:
            return "decks are built in phase 1 only"
        if len(player.deck) >= const.deck_limit:
            return f"the deck already holds {const.deck_limit} cards"
        return f"putting a card in the deck costs {const.deck_cost} PA"
    if isinstance(action, act.Discard):
        return "the discard action is once per turn"
    if isinstance(action, act.Draw):
        if state.phase == 2 and player.is_ecologist:
            return "Écolos cannot draw in phase 2 (golden rule)"
        if player.turn.drew:
            return "the draw action is once per turn"
        if not state.draw_pile:
            return "the draw pile is empty"
        return f"drawing costs {const.draw_cost} PA"
    if isinstance(action, act.ProposeTrade):
        if player.turn.traded:
            return "one trade per turn as initiator"
        if state.phase == 2:
            return "Écolos can neither start nor accept a trade in phase 2"
        return "a trade needs 1 PA and a card in each hand"
    if isinstance(action, act.StoreAp):
        return f"{player.name} can store 1 to {player.ap} PA"
    if isinstance(action, act.UsePower):
        power = character(state, action.seat).power
        if power.timing == "reaction":
            return f"{power.name_fr} is used in reaction to another player's action"
        if player.turn.power_used:
            return "the power is once per turn"
        if player.ap < power_cost(state, action.seat):
            return f"{power.name_fr} costs {power_cost(state, action.seat)} PA"
        if power.first_action_only and player.turn.acted:
            return f"{power.name_fr} must be the first action of the turn"
        if power.after_play_card and not player.turn.played_card:
            return f"{power.name_fr} needs a card played this turn first"
        return f"that target or card is not valid for {power.name_fr}"
    if isinstance(action, act.Cancel):
        return "that cancellation is not available (cost, card or power already used)"
    if isinstance(action, act.ChooseCard):
        return "that card cannot be chosen here"
    return f"{name} is not a legal answer now: {player.name} must {expected}"


__all__ = ["IllegalAction", "apply", "legal_actions", "replay", "run", "why_illegal"]
