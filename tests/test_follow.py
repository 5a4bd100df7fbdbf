"""bots/follow.py: the moves a review says the expert's move leads to in the same turn
are played with what the seat knew (its hand, the discard pile), and depend on its view
alone (the cards it could not see dealt again: the same moves)."""

import random

from test_history import scrambled

from weathering_tui.bots.follow import follow_up
from weathering_tui.content import default_content
from weathering_tui.engine import action_key, apply, legal_actions, view_for
from weathering_tui.engine import actions as act
from weathering_tui.sim.simulate import play_game, setup_for

CONTENT = default_content()


def turn_positions(count=40):
    """(state, view) at turn decisions of heuristic games, in every configuration."""
    found = []
    for k in range(count):
        config = ("1v1", "2v1", "3v2")[k % 3]
        state, _ = play_game(setup_for(config, 300 + k), "heuristic", stop_after=10 + 3 * k)
        while not state.over and state.pending.kind != "turn":
            apply(state, legal_actions(state, state.pending.seat)[0])
        if not state.over:
            found.append((state, view_for(state, state.pending.seat, with_log=False)))
    return found


def test_the_moves_named_are_made_with_cards_the_seat_knew():
    named = 0
    for n, (_, view) in enumerate(turn_positions(90)):  # one takes a card with a power
        known = set(view.me.hand) | set(view.discard_pile)
        for action in view.legal:
            if isinstance(action, act.EndTurn):
                assert follow_up(view, action, CONTENT, n) == ()
                continue
            then = follow_up(view, action, CONTENT, n, steps=4)
            named += bool(then)
            for move in then:
                assert move.seat == view.seat
                assert getattr(move, "card", None) in known | {None}, (view.seat, move)
                assert not isinstance(move, act.EndTurn)
    assert named > 50  # (not a test of nothing)


def test_the_moves_named_depend_on_the_seat_s_view_alone():
    rng = random.Random(5)
    for n, (state, view) in enumerate(turn_positions(18)):
        twin = view_for(scrambled(state, view.seat, rng), view.seat, with_log=False)
        for action in view.legal[:6]:
            said = follow_up(view, action, CONTENT, n)
            assert [action_key(m) for m in said] == [
                action_key(m) for m in follow_up(twin, action, CONTENT, n)
            ]


def test_a_hint_says_its_plan_after_the_first_move_and_keeps_it_across_the_child():
    from weathering_tui.bots.hint_child import _parse, to_json
    from weathering_tui.bots.hints import hint_seed, hints
    from weathering_tui.words import Tr
    from weathering_tui.words.describe import hint_notes, move_label

    tr = Tr("en")
    planned = 0
    for _, view in turn_positions(12):
        found = hints(view, CONTENT, budget=12, confirm=4, horizon=None)
        assert found.then == follow_up(view, found[0].action, CONTENT, hint_seed(view))
        assert _parse(to_json(found).encode()) == found  # what the child sends, whole
        if found.then:
            planned += 1
            said = " · ".join(move_label(tr, view, m).rstrip(".") for m in found.then)
            assert tr("hint.then", moves=said) in hint_notes(tr, view, found)
    assert planned >= 2
