"""A reaction window answered by everyone at once, applied in seat order (§8.3;
network.md Fairness; `engine.window`)."""

from helpers import find, set_hand, start, turn_of

from weathering_tui.engine import Answers, apply, view_for, window_choices, window_seats
from weathering_tui.engine import actions as act


def lobbyist_draws(ask_every_human=True, humans=(0, 1)):
    """2v1: the Lobbyiste (seat 2) draws; both Écolos hold a Boycott and the PA for it."""
    state = start("2v1", seed=3, characters=["cassy", "amir", "fossilise"])
    for seat in (0, 1):
        state.players[seat].human = seat in humans
        set_hand(state, seat, "boycott", "potager_partage")
        state.players[seat].ap = 4
    state.setup = type(state.setup)(
        state.setup.configuration,
        state.setup.seats,
        seed=state.setup.seed,
        events=False,
        ask_every_human=ask_every_human,
    )
    turn_of(state, 2, ap=5)
    apply(state, act.Draw(2))
    return state


def apply_answers(state, answers: Answers, expired=False) -> None:
    while (answer := answers.next(state, expired)) is not None:
        apply(state, answer)


def cancels(state):
    return [e.data["seat"] for e in state.log if e.kind == "cancel"]


def test_every_seat_the_window_asks_may_answer_at_once_not_only_the_engines_next():
    state = lobbyist_draws()
    assert window_seats(state) == (0, 1) and state.pending.seat == 0
    for seat in (0, 1):
        view = view_for(state, seat)
        assert view.pending.kind == "react" and view.pending.seat == seat
        assert act.Cancel(seat, find(state, seat, "boycott")) in view.legal
    assert view_for(state, 2).pending.kind == "reactions"  # the actor: no seat named
    assert window_choices(state, 2) == []  # an actor never cancels itself


def test_the_first_canceller_in_seat_order_cancels_whoever_spoke_first():
    state = lobbyist_draws()
    answers = Answers()
    late = act.Cancel(1, find(state, 1, "boycott"))
    assert answers.give(state, late)  # seat 1 speaks first
    assert answers.next(state) is None  # seat 0 comes first in the order: wait for it
    assert answers.give(state, act.Cancel(0, find(state, 0, "boycott")))
    apply_answers(state, answers)
    assert cancels(state) == [0]
    assert len(state.players[1].hand) == 2  # seat 1's Boycott was never paid


def test_a_later_seats_cancel_applies_once_the_earlier_let_it_happen():
    state = lobbyist_draws()
    answers = Answers()
    answers.give(state, act.Cancel(1, find(state, 1, "boycott")))
    answers.give(state, act.Pass(0))
    apply_answers(state, answers)
    assert cancels(state) == [1]


def test_when_the_time_is_up_whoever_has_not_answered_lets_it_happen():
    state = lobbyist_draws()
    answers = Answers()
    answers.give(state, act.Pass(1))
    assert answers.next(state) is None
    hand = len(state.players[2].hand)
    apply_answers(state, answers, expired=True)
    assert cancels(state) == [] and state.pending.kind == "turn"
    assert len(state.players[2].hand) == hand + 1  # the draw resolved


def test_an_answer_is_one_of_the_seats_choices_and_the_first_one_stands():
    state = lobbyist_draws()
    answers = Answers()
    assert not answers.give(state, act.Pass(2))  # the actor is not asked
    assert not answers.give(state, act.Cancel(0, "boycott#99"))  # not in hand
    assert answers.give(state, act.Pass(0))
    assert not answers.give(state, act.Cancel(0, find(state, 0, "boycott")))
    assert answers.answered(state) == {0}
    answered = view_for(state, 0, answered=answers.answered(state))
    assert answered.pending.kind == "reactions" and answered.legal == ()


def test_answers_belong_to_their_window_the_next_starts_with_none():
    state = lobbyist_draws()
    answers = Answers()
    answers.give(state, act.Pass(0))
    answers.give(state, act.Pass(1))
    apply_answers(state, answers)
    turn_of(state, 2, ap=5)
    apply(state, act.Draw(2))  # a new window
    assert answers.answered(state) == frozenset()
    assert answers.next(state) is None


def test_without_ask_every_human_only_seats_that_can_cancel_are_asked():
    state = lobbyist_draws(ask_every_human=False)
    set_hand(state, 0, "potager_partage")  # seat 0 can cancel nothing now
    assert window_seats(state) == (1,)
    assert view_for(state, 0).pending.kind == "reactions"
