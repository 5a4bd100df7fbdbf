"""clone, action keys and undo (engine/history.py): the rule of taking a move back."""

from __future__ import annotations

import copy
import random

import attrs
import pytest
from helpers import start
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from weathering_tui.content.converter import get_converter
from weathering_tui.engine import (
    IllegalAction,
    Setup,
    action_from_key,
    action_key,
    apply,
    can_undo,
    clone,
    legal_actions,
    new_game,
    replay,
    undo,
    view_for,
)
from weathering_tui.engine import actions as act
from weathering_tui.engine.state import SeatSetup

CONFIGS = ["1v1", "2v1", "3v1", "2v2", "3v2"]
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def human_setup(config: str, seed: int, events: bool, humans=(0,)) -> Setup:
    base = Setup.standard(config, seed=seed, events=events)
    seats = tuple(SeatSetup(s.side, human=seat in humans) for seat, s in enumerate(base.seats))
    return Setup(config, seats, seed=seed, events=events)


def views(state) -> list:
    """Every seat's view, as data, version aside."""
    converter = get_converter()
    out = []
    for seat in range(len(state.players)):
        data = converter.unstructure(view_for(state, seat))
        data.pop("version")
        out.append(data)
    return out


# ------------------------------------------------------------ clone


@SETTINGS
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10_000), min_size=10, max_size=200),
    split=st.integers(0, 200),
)
def test_a_clone_is_equal_and_independent(config, seed, choices, split):
    state = new_game(Setup.standard(config, seed=seed))
    cut = split % len(choices)
    for choice in choices[:cut]:
        if state.over:
            return
        legal = legal_actions(state, state.pending.seat)
        apply(state, legal[choice % len(legal)])
    twin = clone(state)
    assert twin == state
    assert twin.log == state.log and twin.history.actions == state.history.actions
    frozen = copy.deepcopy(state)
    for choice in choices[cut:]:
        if twin.over:
            break
        legal = legal_actions(twin, twin.pending.seat)
        apply(twin, legal[choice % len(legal)])
    assert state == frozen, "playing on a clone changed the original"
    assert state.history.actions == frozen.history.actions
    assert twin == replay(twin.setup, twin.history.actions), "a clone plays as the game would"


# ------------------------------------------------------------ action keys


def positions(config, seed, choices):
    """Random positions of a random game."""
    state = new_game(Setup.standard(config, seed=seed))
    for choice in choices:
        if state.over:
            return
        yield state
        legal = legal_actions(state, state.pending.seat)
        apply(state, legal[choice % len(legal)])


@SETTINGS
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10_000), min_size=5, max_size=120),
)
def test_action_keys_name_each_legal_action_once_whatever_the_hand_order(config, seed, choices):
    rng = random.Random(seed)
    for state in positions(config, seed, choices):
        seat = state.pending.seat
        legal = legal_actions(state, seat)
        keys = [action_key(a) for a in legal]
        assert len(set(keys)) == len(keys), "keys are unique among legal actions"
        for action, key in zip(legal, keys, strict=True):
            assert action_from_key(state, seat, key) == action
        shuffled = clone(state)
        rng.shuffle(shuffled.players[seat].hand)
        assert sorted(action_key(a) for a in legal_actions(shuffled, seat)) == sorted(keys)


def test_an_unknown_key_is_refused():
    state = start("1v1")
    with pytest.raises(IllegalAction) as refusal:
        action_from_key(state, 0, "play_card card=not_a_card")
    assert refusal.value.code == "not_an_option"


def test_a_key_names_the_card_not_its_copy():
    assert action_key(act.PlayCard(0, "tempete#2", 1, 3)) == (
        "play_card card=tempete cartouche=1 target=3"
    )
    assert action_key(act.ChooseCard(1, None)) == "choose_card"
    assert action_key(act.ArrangeEvents(0, (2, 0, 1), 1)) == "arrange order=2.0.1 bottom=1"


# ------------------------------------------------------------ undo


@SETTINGS
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32),
    events=st.booleans(),
    choices=st.lists(st.integers(0, 10_000), min_size=20, max_size=250),
)
def test_undo_gives_the_game_replayed_without_the_action(config, seed, events, choices):
    state = new_game(human_setup(config, seed, events))
    before = {}  # the state just before each action, by its index in the history
    undone = 0
    for choice in choices:
        if state.over:
            break
        seat = state.pending.seat
        if can_undo(state, seat) and choice % 3 == 0:
            back = undo(state, seat)
            index = len(back.history.actions)
            assert back.history.actions == state.history.actions[:index]
            assert state.history.actions[index].seat == seat
            expected = before[index]
            assert views(back) == views(expected), "undo shows what a replay shows"
            assert back.rng == expected.rng, "undo keeps the random state"
            assert back == replay(back.setup, back.history.actions)
            state = back
            undone += 1
            continue
        before[len(state.history.actions)] = clone(state)
        legal = legal_actions(state, seat)
        apply(state, legal[choice % len(legal)])


def started(config: str, humans=(0,), characters=None, events=False):
    """A game at round 1, seat 0 to play, reached by actions only (undo replays them)."""
    setup = human_setup(config, 0, events, humans)
    if characters:
        seats = tuple(
            attrs.evolve(s, character=c) for s, c in zip(setup.seats, characters, strict=True)
        )
        setup = attrs.evolve(setup, seats=seats)
    state = new_game(setup)
    for seat in range(len(state.players)):
        apply(state, act.ChooseCard(seat, None))
    return state


def settle(state) -> None:
    """The reaction windows now open: every seat lets it happen."""
    while state.pending.kind == "react":
        apply(state, act.Pass(state.pending.seat))


def deck_placement(state, seat: int):
    return next(a for a in legal_actions(state, seat) if isinstance(a, act.PutInDeck))


def test_undo_takes_back_a_deck_placement_and_the_unseen_passes_after_it():
    state = started("2v1")
    before = views(state)
    placement = deck_placement(state, 0)
    card = placement.card
    apply(state, placement)
    while state.pending.seat != 0:  # the bots let it happen, unseen
        apply(state, act.Pass(state.pending.seat))
    assert card in state.players[0].deck
    assert can_undo(state, 0)
    back = undo(state, 0)
    assert views(back) == before
    assert not can_undo(back, 0), "nothing of this turn is left to take back"
    with pytest.raises(IllegalAction) as refusal:
        undo(back, 0)
    assert refusal.value.code == "cannot_undo"


def test_no_undo_across_a_draw():
    state = start("1v1")
    apply(state, act.StoreAp(0, 1))
    assert can_undo(state, 0)
    apply(state, act.Draw(0))
    assert not can_undo(state, 0), "the drawn card came out"


def test_no_undo_of_an_ended_turn():
    state = start("1v1")
    apply(state, act.EndTurn(0))
    seat = state.pending.seat
    assert not can_undo(state, 0) and not can_undo(state, seat)


def test_no_undo_across_an_event():
    state = start("1v1", events=True)
    while state.round < 2:  # round 2 starts with an event revealed
        seat = state.pending.seat
        legal = legal_actions(state, seat)
        apply(state, next((a for a in legal if isinstance(a, act.EndTurn)), legal[0]))
    assert not can_undo(state, state.pending.seat)


@pytest.mark.parametrize(
    ("character", "events", "what"),
    [("cassy", False, "random discard"), ("mirai", True, "peek"), ("amir", False, "look")],
)
def test_no_undo_across_a_random_discard_a_peek_or_a_look_at_a_hand(character, events, what):
    state = started("1v1", characters=(character, "random"), events=events)
    while state.pending.seat != 0 or state.pending.kind != "turn":  # round 1's event
        apply(state, legal_actions(state, state.pending.seat)[0])
    power = next(a for a in legal_actions(state, 0) if isinstance(a, act.UsePower))
    apply(state, power)
    while state.pending.seat != 0:  # the Lobbyiste bot lets it happen, unseen
        apply(state, act.Pass(state.pending.seat))
    if state.pending.kind != "turn":  # Mirai's reordering: her own decision
        apply(state, legal_actions(state, 0)[0])
    assert state.players[0].turn.power_used
    assert not can_undo(state, 0), f"the {what} came out"


def test_no_undo_across_another_humans_decision():
    state = started("2v1", humans=(0, 1))
    apply(state, act.StoreAp(0, 1))
    settle(state)
    apply(state, act.ProposeTrade(0, 1))
    settle(state)
    assert state.pending.kind == "trade_answer" and state.pending.seat == 1
    apply(state, act.AnswerTrade(1, False))  # refused: nothing came out but a decision
    assert state.pending.seat == 0
    assert not can_undo(state, 0)


def test_a_pass_in_a_reaction_window_is_no_decision():
    """Where a seat is asked only when it holds a cancel (here: not every human is asked),
    whether a window opens depends on its cards: its pass must not change what may be
    taken back (test_undo_rules: a human's pass where every human is asked)."""
    state = started("1v1", humans=(0, 1))
    placement = deck_placement(state, 0)
    apply(state, placement)
    if state.pending.kind == "react":
        apply(state, act.Pass(1))
    assert can_undo(state, 0)


def test_only_the_seat_that_decides_now_may_undo():
    state = start("1v1")
    apply(state, act.StoreAp(0, 1))
    assert can_undo(state, 0) and not can_undo(state, 1)


# ------------------------------------------------------------ hidden information


def scrambled(state, seat: int, rng: random.Random):
    """The same game for `seat` with every card it cannot see dealt again: the other
    hands and the draw pile shuffled together (counts kept; cards the log named
    publicly stay where they are)."""
    twin = clone(state)
    public = set()
    for entry in state.log:
        for value in entry.data.values():
            if isinstance(value, str) and "#" in value:
                public.add(value)
    others = [p for p in twin.players if p.seat != seat]
    pool = [c for p in others for c in p.hand if c not in public] + list(twin.draw_pile)
    rng.shuffle(pool)
    for p in others:
        keep = [c for c in p.hand if c in public]
        take = len(p.hand) - len(keep)
        p.hand, pool = keep + pool[:take], pool[take:]
    twin.draw_pile = pool
    return twin


@SETTINGS
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10_000), min_size=5, max_size=150),
)
def test_a_seats_view_is_the_same_whatever_the_cards_it_cannot_see(config, seed, choices):
    """can_undo included: what a seat may take back never depends on hidden cards.
    (Reaction windows are left out: whether one opens depends on what its seats hold,
    and the screens and the server never show that moment: test_fairness.)"""
    rng = random.Random(seed)
    converter = get_converter()
    for state in positions(config, seed, choices):
        if state.pending.kind == "react":
            continue
        for seat in range(len(state.players)):
            twin = scrambled(state, seat, rng)
            mine = converter.unstructure(view_for(state, seat))
            assert converter.unstructure(view_for(twin, seat)) == mine
            assert can_undo(twin, seat) == can_undo(state, seat)


def test_a_hint_is_a_legal_move_and_the_same_whatever_the_cards_it_cannot_see():
    from weathering_tui.bots.hints import hints
    from weathering_tui.sim.simulate import play_game

    checked = 0
    for seed in range(40):
        state, _ = play_game(Setup.standard("2v1", seed=seed), "heuristic", stop_after=25 + seed)
        if state.over or state.pending.kind != "turn":
            continue
        seat = state.pending.seat
        view = view_for(state, seat, with_log=False)
        ranked = hints(view)
        assert 1 <= len(ranked) <= 3
        assert all(r.action in view.legal for r in ranked)
        assert all(r.win is None or 0 <= r.win <= 1 for r in ranked)
        twin = scrambled(state, seat, random.Random(seed))
        assert [p.hand for p in twin.players] != [p.hand for p in state.players]
        assert [r.action for r in hints(view_for(twin, seat, with_log=False))] == [
            r.action for r in ranked
        ]
        checked += 1
        if checked == 3:
            return
    raise AssertionError("too few turns to check")
