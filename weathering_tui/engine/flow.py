"""Setup, rounds, turns, the transition and the end of the game (§3, §4, §9)."""

from __future__ import annotations

import attrs

from ..content import Content, default_content
from . import rng
from .common import (
    GAUGE_MAX,
    IllegalAction,
    band_for,
    configuration,
    constants,
    draw_cards,
    free_draw_suspended,
    gain_ap,
    heal,
    income,
    log,
    nobody_can_play,
    synergy_of,
    threshold,
)
from .effects import push_effects
from .state import (
    ActiveEvent,
    EventWindowFrame,
    GameState,
    MulliganFrame,
    Outcome,
    OverflowFrame,
    Pending,
    PlayerState,
    RoundStartFrame,
    Setup,
    TransitionFrame,
    TurnFlags,
)
from .tables import tables_of


def _check_setup(setup: Setup, content: Content) -> None:
    if setup.configuration not in content.configurations:
        raise IllegalAction("unknown_configuration", configuration=setup.configuration)
    config = content.configurations[setup.configuration]
    sides = [s.side for s in setup.seats]
    expected = ["ecologist"] * config.ecologists + ["lobbyist"] * config.lobbyists
    if sides != expected:
        raise IllegalAction(
            "seat_order",
            configuration=config.id,
            ecologists=config.ecologists,
            lobbyists=config.lobbyists,
        )
    chosen = [s.character for s in setup.seats if s.character != "random"]
    if len(set(chosen)) != len(chosen):
        raise IllegalAction("character_twice")
    for seat in setup.seats:
        if seat.character == "random":
            continue
        char = content.characters.get(seat.character)
        if char is None:
            raise IllegalAction("unknown_character", character=seat.character)
        if char.side != seat.side:
            raise IllegalAction("character_side", character=char.id, side=seat.side)


LABELS = ("balanced", "hard", "deadly")  # ⚖️ 🔥 ☠️, from the fairest (§2.2)


def with_difficulty(setup: Setup, difficulty: str, content: Content | None = None) -> Setup:
    """The setup with its "random" Lobbyiste seats dealt for a difficulty (§2.2, [RB 191]):
    the game is as hard as its harshest Lobbyiste label. `difficulty` is a label id, a
    Lobbyiste character id, or "" for any character. With no Lobbyiste chosen, the first
    is dealt among the characters of that label and a second one gets a ⚖️ partner; a
    Lobbyiste already chosen sets the difficulty itself, and the others get ⚖️ partners.
    The deal follows the seed, and the setup names every character it dealt."""
    content = content or default_content()
    if not difficulty:
        return setup
    lobbyists = [c for c in content.characters.values() if c.side == "lobbyist"]
    if difficulty in content.characters:
        wanted = [difficulty]
    elif difficulty in LABELS:
        wanted = [c.id for c in lobbyists if c.label == difficulty]
    else:
        raise IllegalAction("unknown_character", character=difficulty)
    taken = {s.character for s in setup.seats if s.character != "random"}
    chose_one = any(
        content.characters[c].side == "lobbyist" for c in taken if c in content.characters
    )
    state_rng = rng.seed_state(setup.seed ^ 0x5EED_D1FF)
    seats = []
    for seat in setup.seats:
        if seat.side == "lobbyist" and seat.character == "random":
            pool = [c for c in wanted if c not in taken] if not chose_one else []
            if not pool:  # a partner: ⚖️, so that the label chosen stays the game's
                pool = [c.id for c in lobbyists if c.label == "balanced" and c.id not in taken]
            state_rng, k = rng.below(state_rng, len(pool))
            seat = attrs.evolve(seat, character=pool[k])
            taken.add(pool[k])
            chose_one = True
        seats.append(seat)
    return attrs.evolve(setup, seats=tuple(seats))


def difficulty_of(setup: Setup, content: Content | None = None) -> str | None:
    """The game's difficulty label (the harshest Lobbyiste's), None while one is random."""
    content = content or default_content()
    labels = []
    for seat in setup.seats:
        if seat.side == "lobbyist":
            if seat.character == "random":
                return None
            labels.append(content.characters[seat.character].label)
    return max(labels, key=LABELS.index) if labels else None


def setup_game(setup: Setup, content: Content | None = None) -> GameState:
    """Set up a game (§3.2); the resolution loop then runs it to the first mulligan."""
    content = content or default_content()
    _check_setup(setup, content)
    config = content.configurations[setup.configuration]
    const = content.constants
    state_rng = rng.seed_state(setup.seed)

    # Random characters first, in seat order, among those of the side not already taken (§12.12).
    taken = {s.character for s in setup.seats if s.character != "random"}
    players = []
    for seat, seat_setup in enumerate(setup.seats):
        char_id = seat_setup.character
        if char_id == "random":
            pool = [
                c.id
                for c in content.characters.values()
                if c.side == seat_setup.side and c.id not in taken
            ]
            state_rng, k = rng.below(state_rng, len(pool))
            char_id = pool[k]
            taken.add(char_id)
        players.append(
            PlayerState(
                seat=seat,
                side=seat_setup.side,
                character=char_id,
                name=seat_setup.name or content.characters[char_id].name,
                human=seat_setup.human,
            )
        )

    tables = tables_of(content, setup.configuration)
    event_pile: list[str] = []
    if setup.events:
        event_pile = list(tables.event_copies)  # every event's copies, in the rules' order
        state_rng = rng.shuffle(state_rng, event_pile)
    draw_pile = list(tables.card_copies)  # every card's copies, in the rules' order
    state_rng = rng.shuffle(state_rng, draw_pile)

    state = GameState(
        setup=setup,
        rng=state_rng,
        hp=config.start_hp,
        start_hp=config.start_hp,
        players=players,
        draw_pile=draw_pile,
        event_pile=event_pile,
        content=content,
    )
    log(
        state,
        "setup",
        configuration=config.id,
        hp=state.hp,
        characters=[p.character for p in players],
        events=setup.events,
    )
    for player in players:
        draw_cards(state, player.seat, const.start_hand, "setup")
    for player in players:
        player.ap = const.start_ap
    state.stack.append(MulliganFrame())
    return state


def step_mulligan(state: GameState, frame: MulliganFrame) -> None:
    if frame.next_seat >= len(state.players):
        state.stack.pop()
        start_round(state)
        return
    state.pending = Pending("mulligan", frame.next_seat, {"max": constants(state).mulligan_max})


def mulligan_pick(state: GameState, frame: MulliganFrame, seat: int, card: str | None) -> None:
    """One pick of the mulligan: a card to put back, or None when the seat is done.
    Done: the picks go under the pile in the order picked, then as many are drawn (§3.2.7)."""
    if card is not None:
        frame.picked.append(card)
        return
    player = state.players[seat]
    cards, frame.picked = frame.picked, []
    for instance in cards:
        player.hand.remove(instance)
        state.draw_pile.insert(0, instance)
    player.mulligan_done = True
    log(state, "mulligan", seat=seat, count=len(cards))
    if cards:
        draw_cards(state, seat, len(cards), "mulligan")
    frame.next_seat += 1


# ------------------------------------------------------------ rounds


def start_round(state: GameState) -> None:
    state.round += 1
    state.phase = 1 if state.round <= constants(state).rounds_per_phase else 2
    state.stage = "play"
    in_phase = state.round - (state.phase - 1) * constants(state).rounds_per_phase
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
    event_id = card.partition("#")[0]
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
            state.pending = Pending("claim_synergy", seat, {})
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
    types = sorted(state.content.cards[c.partition("#")[0]].type for c in state.players[seat].deck)
    log(state, "synergy", seat=seat, synergy=kind, types=types)
    if kind == "single_type":  # no event acts during the transition (R75)
        heal(state, const.single_type_heal, "synergy", None, events=False)
    else:
        pile = state.draw_pile
        drawn = [pile.pop() for _ in range(min(const.four_types_draw, len(pile)))]
        state.players[seat].deck.extend(drawn)
        log(
            state,
            "synergy_cards",
            secret={"cards": drawn},
            audience=[seat],
            seat=seat,
            count=len(drawn),
        )


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
