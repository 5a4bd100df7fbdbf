"""Resolution of the effect vocabulary (§6.1) and of the choice frames it opens."""

from __future__ import annotations

from ..content import effects as fx
from . import rng
from .common import (
    card_id,
    constants,
    damage,
    discard_from_hand,
    draw_cards,
    gain_ap,
    heal,
    log,
    lose_ap,
    ordered_from,
    receive,
    seats_for,
    tell,
    valid_targets,
)
from .state import (
    ArrangeFrame,
    DiscardChoiceFrame,
    EffectsFrame,
    ExchangeFrame,
    GameState,
    GiveFrame,
    OptionFrame,
    OverflowFrame,
    Pending,
    PendingKind,
    RoundMod,
    TakeFrame,
)


def push_effects(state, actor, effects, source, target=None) -> None:
    if effects:
        state.stack.append(EffectsFrame(tuple(effects), source, actor, target))


def step_effects(state: GameState, frame: EffectsFrame) -> None:
    if frame.index >= len(frame.effects):
        state.stack.pop()
        return
    effect = frame.effects[frame.index]
    frame.index += 1
    resolve(state, effect, frame.actor, frame.target, frame.source)


def resolve(state: GameState, effect, actor, target, source) -> None:  # noqa: C901 - one op per branch
    """Resolve one op. An op with no valid target is simply lost [RB 249]."""
    stack = state.stack
    match effect:
        case fx.Heal(amount=amount):
            heal(state, amount, source, actor)
        case fx.Damage(amount=amount):
            damage(state, amount, source, actor)
        case fx.Draw(who=who, amount=amount):
            for seat in seats_for(state, who, actor, target):
                draw_cards(state, seat, amount, source)
            stack.append(OverflowFrame(actor))
        case fx.TakeFromDiscard(amount=amount, exclude=exclude):
            stack.append(OverflowFrame(actor))
            stack.append(TakeFrame(actor, amount, tuple(exclude), source))
        case fx.DiscardOwn(who=who, amount=amount):
            for seat in reversed(seats_for(state, who, actor, target)):
                stack.append(DiscardChoiceFrame(seat, amount, source))
        case fx.DiscardRandom(who=who, amount=amount):
            for seat in seats_for(state, who, actor, target):
                hand = state.players[seat].hand
                for _ in range(min(amount, len(hand))):
                    state.rng, k = rng.below(state.rng, len(hand))
                    discard_from_hand(state, seat, hand[k], f"{source}:random")
        case fx.GainAp(who=who, amount=amount):
            for seat in seats_for(state, who, actor, target):
                got = gain_ap(state, seat, amount)
                if state.keep_log:
                    log(state, "gain_ap", seat=seat, amount=got, source=source)
        case fx.LoseAp(who=who, amount=amount):
            for seat in seats_for(state, who, actor, target):
                lost = lose_ap(state, seat, amount)
                if state.keep_log:
                    log(state, "lose_ap", seat=seat, amount=lost, source=source)
        case fx.GiveCards(who=who, up_to=up_to):
            for seat in seats_for(state, who, actor, target):
                stack.append(OverflowFrame(actor))
                stack.append(GiveFrame(actor, seat, up_to, source=source))
        case fx.Exchange(who=who):
            for seat in seats_for(state, who, actor, target):
                stack.append(OverflowFrame(actor))
                stack.append(ExchangeFrame(actor, seat, source))
        case fx.Cycle(who=who, up_to=up_to):
            stack.append(OverflowFrame(actor))
            for seat in reversed(seats_for(state, who, actor, target)):
                stack.append(
                    DiscardChoiceFrame(seat, up_to, source, optional=True, draw_as_many=True)
                )
        case fx.DiscardThenDraw(discard=n_discard, draw=n_draw):
            stack.append(OverflowFrame(actor))
            stack.append(DiscardChoiceFrame(actor, n_discard, source, then_draw=n_draw))
        case fx.LookHand(who=who):
            for seat in seats_for(state, who, actor, target):
                hand = list(state.players[seat].hand)
                tell(state, actor, "look_hand", {"hand": hand}, target=seat, source=source)
        case fx.RevealHand(who=who):
            for seat in seats_for(state, who, actor, target):
                log(
                    state,
                    "reveal_hand",
                    seat=seat,
                    hand=list(state.players[seat].hand),
                    source=source,
                )
        case fx.PeekEvents(count=count, reorder=reorder, bottom=bottom):
            _peek(state, actor, count, reorder, bottom > 0, source)
        case fx.IncomeMod(who=who, amount=amount):
            for seat in seats_for(state, who, actor, target):
                state.round_mods.append(RoundMod(seat, amount))
                log(state, "income_mod", seat=seat, amount=amount, source=source)
        case fx.PlayerChoice(who=who, options=options):
            seats = seats_for(state, who, actor, target)
            stack.append(OptionFrame(seats, options, source))
        case fx.GroupChoice(options=options):
            ecologists = [p.seat for p in state.players if p.is_ecologist]
            deciders = ordered_from(state, ecologists, None)[:1]
            stack.append(OptionFrame(deciders, options, source, group=True))
        case _:
            # cancel and play_from_discard are resolved by the reaction and power
            # machinery; the continuous modifiers act through common.income & co.
            pass


def _peek(state: GameState, seat: int, count: int, reorder: bool, bottom: bool, source) -> None:
    pile_name = "events" if state.setup.events else "draw"
    pile = state.event_pile if state.setup.events else state.draw_pile
    seen = list(reversed(pile[-count:])) if count else []
    tell(state, seat, "peek", {"cards": seen}, pile=pile_name, count=len(seen), source=source)
    if reorder and (len(seen) > 1 or (bottom and seen)):
        state.stack.append(ArrangeFrame(seat, seen, bottom, pile_name, source))


def step_arrange(state: GameState, frame: ArrangeFrame) -> None:
    state.pending = Pending(
        PendingKind.ARRANGE,
        frame.seat,
        {"count": len(frame.seen), "bottom": frame.bottom, "source": frame.source},
    )


def arrange(state: GameState, frame: ArrangeFrame, order, bottom) -> None:
    """Mirai puts the seen cards back in the chosen order, maybe one at the bottom."""
    pile = state.event_pile if frame.pile == "events" else state.draw_pile
    del pile[len(pile) - len(frame.seen) :]
    top_down = [frame.seen[i] for i in order]
    pile.extend(reversed(top_down))
    if bottom is not None:
        pile.insert(0, frame.seen[bottom])
    log(
        state,
        "arrange",
        seat=frame.seat,
        pile=frame.pile,
        reordered=list(order) != sorted(order),
        bottom=bottom is not None,
    )


# ------------------------------------------------------------ choice frames


def step_overflow(state: GameState, frame: OverflowFrame) -> None:
    """§12.1: after an op, every hand above the limit discards down to it, from the actor on."""
    state.stack.pop()
    limit = constants(state).hand_limit
    over = [p.seat for p in state.players if len(p.hand) > limit and not p.hand_limit_off]
    if not over:  # (most times)
        return
    for seat in reversed(ordered_from(state, over, frame.actor)):
        state.stack.append(DiscardChoiceFrame(seat, 0, "overflow"))


def step_discard_choice(state: GameState, frame: DiscardChoiceFrame) -> None:
    player = state.players[frame.seat]
    if frame.reason == "overflow":
        limit = constants(state).hand_limit
        frame.remaining = 0 if player.hand_limit_off else max(0, len(player.hand) - limit)
    if frame.remaining <= 0 or not player.hand:
        _finish_discard_choice(state, frame)
        return
    if not frame.optional and len(player.hand) <= frame.remaining:
        for instance in list(player.hand):
            discard_from_hand(state, frame.seat, instance, frame.reason)
            frame.discarded += 1
        _finish_discard_choice(state, frame)
        return
    state.pending = Pending(
        PendingKind.CHOOSE_DISCARD,
        frame.seat,
        {"remaining": frame.remaining, "optional": frame.optional, "reason": frame.reason},
    )


def choose_discard(state: GameState, frame: DiscardChoiceFrame, instance: str | None) -> None:
    if instance is None:
        frame.remaining = 0
        return
    discard_from_hand(state, frame.seat, instance, frame.reason)
    frame.discarded += 1
    frame.remaining -= 1


def _finish_discard_choice(state: GameState, frame: DiscardChoiceFrame) -> None:
    state.stack.pop()
    to_draw = frame.then_draw + (frame.discarded if frame.draw_as_many else 0)
    if to_draw:
        draw_cards(state, frame.seat, to_draw, frame.reason)


def step_give(state: GameState, frame: GiveFrame) -> None:
    if frame.remaining <= 0 or not state.players[frame.seat].hand:
        state.stack.pop()
        log(state, "give_done", seat=frame.seat, target=frame.target, count=frame.given)
        return
    state.pending = Pending(
        PendingKind.CHOOSE_GIVE,
        frame.seat,
        {"target": frame.target, "remaining": frame.remaining, "source": frame.source},
    )


def choose_give(state: GameState, frame: GiveFrame, instance: str | None) -> None:
    if instance is None:
        frame.remaining = 0
        return
    state.players[frame.seat].hand.remove(instance)
    receive(state, frame.target, [instance])
    frame.given += 1
    frame.remaining -= 1
    log(
        state,
        "give",
        secret={"card": instance},
        audience=[frame.seat, frame.target],
        seat=frame.seat,
        target=frame.target,
    )


def take_eligible(state: GameState, frame: TakeFrame) -> list[str]:
    return [c for c in state.discard_pile if card_id(c) not in frame.exclude]


def step_take(state: GameState, frame: TakeFrame) -> None:
    if frame.remaining <= 0 or not take_eligible(state, frame):
        state.stack.pop()
        if frame.remaining > 0:
            log(state, "effect_lost", seat=frame.seat, op="take_from_discard")
        return
    state.pending = Pending(
        PendingKind.CHOOSE_TAKE, frame.seat, {"remaining": frame.remaining, "source": frame.source}
    )


def choose_take(state: GameState, frame: TakeFrame, instance: str) -> None:
    state.discard_pile.remove(instance)
    receive(state, frame.seat, [instance])
    frame.remaining -= 1
    log(state, "take_from_discard", seat=frame.seat, card=instance)


def step_exchange(state: GameState, frame: ExchangeFrame) -> None:
    """Both participants choose blind, then the cards swap at once [RB 263]."""
    while frame.stage < 2:
        seat = frame.first if frame.stage == 0 else frame.second
        if state.players[seat].hand:
            state.pending = Pending(
                PendingKind.CHOOSE_EXCHANGE,
                seat,
                {"with": _partner(frame, seat), "reason": frame.reason},
            )
            return
        frame.stage += 1
    state.stack.pop()
    first, second = state.players[frame.first], state.players[frame.second]
    if frame.pick_first is not None:
        first.hand.remove(frame.pick_first)
    if frame.pick_second is not None:
        second.hand.remove(frame.pick_second)
    receive(state, frame.second, [frame.pick_first] if frame.pick_first else [])
    receive(state, frame.first, [frame.pick_second] if frame.pick_second else [])
    if state.keep_log or not state.headless:  # (headless: no log, and no undo to stop)
        gave = {
            str(frame.first): frame.pick_first or "",
            str(frame.second): frame.pick_second or "",
        }
        log(
            state,
            "exchange",
            secret={"gave": gave},
            audience=[frame.first, frame.second],
            seats=[frame.first, frame.second],
            reason=frame.reason,
        )


def _partner(frame: ExchangeFrame, seat: int) -> int:
    return frame.second if seat == frame.first else frame.first


def choose_exchange(state: GameState, frame: ExchangeFrame, instance: str) -> None:
    if frame.stage == 0:
        frame.pick_first = instance
    else:
        frame.pick_second = instance
    frame.stage += 1


def option_possible(state: GameState, seat: int, option) -> bool:
    """Can this seat carry out the option? (player_choice/group_choice, §6.1)."""
    player = state.players[seat]
    for effect in option:
        if isinstance(effect, fx.LoseAp) and effect.who == "self" and player.ap == 0:
            return False
        discards = isinstance(effect, fx.DiscardOwn | fx.DiscardRandom)
        if discards and effect.who == "self" and not player.hand:
            return False
        selector = fx.target_selector([effect])
        if selector is not None and not valid_targets(state, selector, seat):
            return False
    return True


def step_option(state: GameState, frame: OptionFrame) -> None:
    while frame.index < len(frame.seats):
        seat = frame.seats[frame.index]
        if any(option_possible(state, seat, option) for option in frame.options):
            state.pending = Pending(
                PendingKind.CHOOSE_OPTION, seat, {"source": frame.source, "group": frame.group}
            )
            return
        log(state, "effect_lost", seat=seat, op="choice", source=frame.source)
        frame.index += 1
    state.stack.pop()


def choose_option(state: GameState, frame: OptionFrame, option: int, target) -> None:
    seat = frame.seats[frame.index]
    frame.index += 1
    log(
        state,
        "option",
        seat=seat,
        source=frame.source,
        option=option,
        target=target if target is not None else -1,
    )
    push_effects(state, seat, frame.options[option], frame.source, target)
