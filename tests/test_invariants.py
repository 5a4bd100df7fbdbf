"""Engine invariants under any sequence of legal actions (hypothesis)."""

import copy

from helpers import all_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from weathering_tui.engine import IllegalAction, Setup, apply, legal_actions, new_game
from weathering_tui.engine import actions as act

CONFIGS = ["1v1", "2v1", "3v1", "4v1", "2v2", "3v2"]


def check_invariants(state, cards, stored_before):
    zones = all_cards(state)
    assert sorted(zones) == cards, "cards are conserved"
    assert 0 <= state.hp <= 30
    for player in state.players:
        assert 0 <= player.ap <= 10
        assert player.stored_ap >= stored_before[player.seat], "stored PA never decrease"
    events = state.event_pile + state.event_discard + state.events_removed
    events += [c for a in state.active_events for c in a.cards]
    events += [f.card for f in state.stack if type(f).__name__ == "EventWindowFrame"]
    assert len(events) == len(set(events)) == (20 if state.setup.events else 0)


def illegal_probe(state, choice: int):
    """An action that is certainly not legal now."""
    seat = state.pending.seat
    other = (seat + 1) % len(state.players)
    probes = [
        act.EndTurn(other),
        act.PlayCard(seat, "not_a_card#1"),
        act.StoreAp(seat, 11),
        act.Pass(other),
        act.ChooseCard(seat, "not_a_card#9"),
    ]
    legal = legal_actions(state, seat)
    probes = [p for p in probes if p not in legal]
    return probes[choice % len(probes)]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32),
    events=st.booleans(),
    choices=st.lists(st.integers(0, 10_000), min_size=50, max_size=400),
)
def test_any_sequence_of_legal_actions_keeps_the_invariants(config, seed, events, choices):
    state = new_game(Setup.standard(config, seed=seed, events=events))
    cards = sorted(all_cards(state))
    assert len(cards) == 76
    for i, choice in enumerate(choices):
        if state.over:
            break
        legal = legal_actions(state, state.pending.seat)
        assert legal, "someone always has something to do"
        stored = [p.stored_ap for p in state.players]
        if i % 17 == 0:
            before = copy.deepcopy(state)
            probe = illegal_probe(state, choice)
            try:
                apply(state, probe)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{probe} was accepted")
            assert state == before, "an illegal action changes nothing"
        apply(state, legal[choice % len(legal)])
        check_invariants(state, cards, stored)
