"""Rounds, turns, the transition and the end of the game (§3, §4, §9); a game's setup and
its mulligan are in engine/setup.py."""

from __future__ import annotations

from .common import (
    GAUGE_MAX,
    band_for,
    card_id,
    configuration,
    constants,
    draw_cards,
    free_draw_suspended,
    gain_ap,
    heal,
    income,
    log,
    nobody_can_play,
    round_in_phase,
    synergy_of,
    take_top,
    tell,
    threshold,
)
from .effects import push_effects
from .state import (
    ActiveEvent,
    EventWindowFrame,
    GameState,
    Outcome,
    OverflowFrame,
    Pending,
    PendingKind,
    RoundStartFrame,
    TransitionFrame,
    TurnFlags,
)

# ------------------------------------------------------------ rounds


def start_round(state: GameState) -> None:
    state.round += 1
    state.phase = 1 if state.round <= constants(state).rounds_per_phase else 2
    state.stage = "play"
    in_phase = round_in_phase(state.round, state.phase, constants(state).rounds_per_phase)
    log(state, "round", round=state.round, phase=state.phase, in_phase=in_phase)
    state.stack.append(RoundStartFrame())


def step_round_start(state: GameState, frame: RoundStartFrame) -> None:
    if frame.stage == 0:
        frame.stage = 1
        if state.setup.events and state.event_pile:
            card = state.event_pile.pop()
            log(state, "event_revealed", card=card)
            state.stack.append(EventWindowFrame(card, list(range(len(state.players)))))
        return
    if frame.stage == 1:
        frame.stage = 2
        for active in reversed(state.active_events):
            push_effects(state, None, state.content.events[active.event].each_round, active.event)
        return
    state.stack.pop()
    begin_turn(state, 0)


def finish_event(state: GameState, card: str, cancelled_by: int | None) -> None:
    """After the event window: remove a cancelled event, else extend or activate it (§3.3)."""
    event_id = card_id(card)
    event = state.content.events[event_id]
    if cancelled_by is not None:
        state.events_removed.append(card)
        log(state, "event_cancelled", card=card, seat=cancelled_by)
        return
    for active in state.active_events:
        if active.event == event_id:
            active.remaining += event.duration
            active.cards.append(card)
            log(state, "event_extended", event=event_id, remaining=active.remaining)
            return
    state.active_events.append(ActiveEvent(event_id, [card], event.duration))
    log(state, "event_active", event=event_id, remaining=event.duration)
    push_effects(state, None, event.on_reveal, event_id)


def begin_turn(state: GameState, seat: int) -> None:
    """Start-of-turn income and free draws: steps, not actions, so no window (§3.4)."""
    state.active = seat
    for other in state.players:
        other.reaction_used = False
    player = state.players[seat]
    player.turn = TurnFlags()
    gained = gain_ap(state, seat, income(state, seat))
    if state.keep_log:
        log(state, "turn", seat=seat, round=state.round, income=gained, ap=player.ap)
    table = configuration(state).table(player.side, state.phase)
    if table.free_draw and not free_draw_suspended(state):
        draw_cards(state, seat, table.free_draw, "free_draw")
        state.stack.append(OverflowFrame(seat))


def end_turn(state: GameState, seat: int) -> None:
    if state.keep_log:
        log(state, "end_turn", seat=seat)
    if nobody_can_play(state):
        end_game(state, "nobody_can_play")
        return
    if seat + 1 < len(state.players):
        begin_turn(state, seat + 1)
    else:
        end_round(state)


def end_round(state: GameState) -> None:
    """Event upkeep, then the transition, the end of the game or the next round."""
    for active in list(state.active_events):
        active.remaining -= 1
        if active.remaining <= 0:
            state.active_events.remove(active)
            state.event_discard.extend(active.cards)
            log(state, "event_expired", event=active.event)
    state.round_mods.clear()
    state.hp_by_round.append(state.hp)
    if not state.draw_pile and not state.pile_empty_round:
        state.pile_empty_round = state.round
    state.active = -1
    log(state, "round_end", round=state.round, hp=state.hp)
    if nobody_can_play(state):
        end_game(state, "nobody_can_play")
        return
    rounds = constants(state).rounds_per_phase
    if state.round == rounds:
        state.stage = "transition"
        log(state, "transition")
        state.stack.append(TransitionFrame())
    elif state.round >= 2 * rounds:
        end_game(state, "last_round")
    else:
        start_round(state)


# ------------------------------------------------------------ transition


def step_transition(state: GameState, frame: TransitionFrame) -> None:
    ecologists = [p.seat for p in state.players if p.is_ecologist]
    while frame.index < len(ecologists):
        seat = ecologists[frame.index]
        # Everyone whose deck is big enough is asked (deck sizes are public): asking only
        # those whose hidden deck qualifies would tell the table which decks do.
        if len(state.players[seat].deck) >= constants(state).synergy_min_deck:
            state.pending = Pending(PendingKind.CLAIM_SYNERGY, seat, {})
            return
        frame.index += 1
    state.stack.pop()
    _prepare_phase_two(state)
    if state.hp in (0, GAUGE_MAX):
        end_game(state, "end_of_phase")
    else:
        start_round(state)


def claim_synergy(state: GameState, frame: TransitionFrame, seat: int, claim: bool) -> None:
    frame.index += 1
    if not claim:
        log(state, "synergy_declined", seat=seat)
        return
    const = constants(state)
    kind = synergy_of(state, seat)
    types = sorted(state.content.cards[card_id(c)].type for c in state.players[seat].deck)
    log(state, "synergy", seat=seat, synergy=kind, types=types)
    if kind == "single_type":  # no event acts during the transition (R75)
        heal(state, const.single_type_heal, "synergy", None, events=False)
    else:
        drawn = take_top(state, const.four_types_draw)
        state.players[seat].deck.extend(drawn)
        tell(state, seat, "synergy_cards", {"cards": drawn}, count=len(drawn))


def _prepare_phase_two(state: GameState) -> None:
    """Écolos discard their hands (no PA) and take their whole deck in hand (§4.1.2)."""
    for player in state.players:
        if not player.is_ecologist:
            continue
        discarded = list(player.hand)
        state.discard_pile.extend(discarded)
        player.hand = list(player.deck)
        player.deck = []
        player.hand_limit_off = True
        log(
            state,
            "prepare",
            seat=player.seat,
            discarded=discarded,
            hand_count=len(player.hand),
        )


# ------------------------------------------------------------ end


def outcome_for(state: GameState, reason: str) -> Outcome:
    band, winner = band_for(state.hp, threshold(state))
    return Outcome(state.hp, band, winner, state.hp in (0, GAUGE_MAX), reason)


def end_game(state: GameState, reason: str) -> None:
    state.outcome = outcome_for(state, reason)
    state.stage = "over"
    state.stack.clear()
    state.pending = None
    state.active = -1
    if len(state.hp_by_round) < state.round:
        state.hp_by_round.append(state.hp)
    log(
        state,
        "game_over",
        reason=reason,
        hp=state.hp,
        band=state.outcome.band,
        winner=state.outcome.winner,
        perfect=state.outcome.perfect,
    )
