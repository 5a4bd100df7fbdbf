"""A seat's view never holds another hand, a deck, the draw pile order or the random state."""

import json

import pytest

from weathering_tui.content.converter import get_converter
from weathering_tui.engine import Setup, view_for
from weathering_tui.sim.simulate import play_game


def card_ids(value) -> set[str]:
    found = set()
    if isinstance(value, str):
        if "#" in value:
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= card_ids(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= card_ids(item)
    return found


def check_view(state, seat):
    view = view_for(state, seat)
    data = get_converter().unstructure(view)
    log = data.pop("log")
    others = set()
    for player in state.players:
        if player.seat != seat:
            others |= set(player.hand) | set(player.deck)
    hidden_piles = set(state.draw_pile) | set(state.event_pile)
    public, mine = set(), set()
    for entry in state.log:
        public |= card_ids(entry.data)
        if seat in entry.audience:
            mine |= card_ids(entry.secret)
    outside_log = card_ids(data)
    # A card announced for discard is public while it waits in its owner's hand (§12.6).
    assert not (outside_log & others) - public, "another hand or deck in the view"
    assert not outside_log & hidden_piles, "a hidden pile in the view"
    assert "rng" not in json.dumps(data) and str(state.rng) not in json.dumps(data)

    assert not public & set(state.draw_pile), "the draw pile order is public"
    assert not public & set(state.event_pile), "the event pile order is public"
    for entry in log:
        if entry["secret"]:
            assert seat in entry["audience"], f"a secret of {entry['kind']} leaked"
    assert card_ids(log) & others <= public | mine


@pytest.mark.parametrize("config", ["1v1", "2v1", "3v1", "4v1", "2v2", "3v2"])
def test_no_seat_sees_what_it_may_not(config):
    for seed in range(8):
        for events in (True, False):
            setup = Setup.standard(config, seed=seed, events=events)
            state, actions = play_game(setup, "random", stop_after=40 + 30 * seed)
            for seat in range(len(state.players)):
                check_view(state, seat)
