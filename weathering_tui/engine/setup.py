"""A game's setup (§3): the setup checked, the difficulty's characters, the piles
shuffled, the starting hands, and the mulligan that opens the game."""

from __future__ import annotations

import attrs

from ..content import Content, default_content
from ..content.defs import LABELS  # ⚖️ 🔥 ☠️, from the fairest (§2.2)
from . import rng
from .common import constants, draw_cards, log
from .flow import start_round
from .refusals import IllegalAction
from .state import GameState, MulliganFrame, Pending, PendingKind, PlayerState, Setup
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
    state.pending = Pending(
        PendingKind.MULLIGAN, frame.next_seat, {"max": constants(state).mulligan_max}
    )


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
