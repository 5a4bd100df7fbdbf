"""A reaction window answered by everyone at once, applied in seat order (§8.3;
network.md Fairness; `engine.window`)."""

import copy
import random

from helpers import find, pull, set_hand, start, turn_of

from weathering_tui.bots import RandomBot
from weathering_tui.engine import (
    Answers,
    Setup,
    apply,
    new_game,
    unable_seats,
    view_for,
    window_choices,
    window_seats,
)
from weathering_tui.engine import actions as act
from weathering_tui.engine.announce import cancel_options
from weathering_tui.engine.state import EventWindowFrame, SeatSetup


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


# ------------------------------------------------------------ who cannot cancel, as all see


def test_r8_a_seat_without_the_pa_for_any_cancel_is_unable_whatever_it_holds():
    state = lobbyist_draws()  # Cassy and Amir: no reaction power; Boycott costs 2
    assert unable_seats(state) == ()
    state.players[0].ap = 1
    assert unable_seats(state) == (0,)
    assert cancel_options(state, 0, event=False) == []  # (with a Boycott in hand)
    state.players[1].hand.clear()
    assert unable_seats(state) == (0, 1)  # no card at all, whatever the PA


def test_r8_a_reaction_power_within_reach_keeps_a_seat_able_until_it_is_used():
    state = start("1v1", seed=3, characters=["priya", "fossilise"], ask_every_human=True)
    state.players[0].human = True  # asked in every window, whatever it holds
    turn_of(state, 1, ap=5)
    state.players[0].hand.clear()
    state.players[0].ap = 4  # Objection costs 4 at level 1
    apply(state, act.Draw(1))
    assert unable_seats(state) == ()
    state.players[0].reaction_used = True
    assert unable_seats(state) == (0,)


def test_r8_every_copy_of_the_cancel_cards_in_the_discard_pile_leaves_nobody_able():
    state = lobbyist_draws()
    cancels = [c for c in state.content.cards.values() if c.cancel_effect() is not None]
    state.discard_pile.extend([pull(state, c.id) for c in cancels for _ in range(c.copies)])
    for seat in (0, 1):
        set_hand(state, seat, "potager_partage")
        state.players[seat].ap = 10
    assert unable_seats(state) == (0, 1)


def redealt(state, rng):
    """The same game with every hand dealt again from the hands and the draw pile
    (counts kept): what no seat sees of the others' hands changed."""
    other = copy.deepcopy(state)
    other.content = state.content
    pool = [c for p in other.players for c in p.hand] + other.draw_pile
    rng.shuffle(pool)
    for player in other.players:
        player.hand[:] = [pool.pop() for _ in player.hand]
    other.draw_pile[:] = pool
    return other


def test_r8_who_is_unable_is_told_by_public_facts_and_never_hides_a_cancel():
    """Over many windows of random games where every human is asked: a seat said unable
    has no cancel in hand, and the same seats are unable whatever the hands hold."""
    rng = random.Random(5)
    windows = unable = able = 0
    games = (  # both reaction powers (Objection, Business as usual) in each
        ("1v1", 1, ["priya", "fossilise"]),
        ("2v1", 3, ["thomas", "priya", "fossilise"]),
        ("3v2", 4, ["priya", "cassy", "amir", "fossilise", "insatiable"]),
    )
    for config, seed, characters in games:
        eco, lob = (int(n) for n in config.split("v"))
        sides = ["ecologist"] * eco + ["lobbyist"] * lob
        seats = tuple(
            SeatSetup(side, char, human=True) for side, char in zip(sides, characters, strict=True)
        )
        state = new_game(Setup(config, seats, seed=seed, ask_every_human=True))
        bots = {s: RandomBot(seed * 10 + s) for s in range(len(seats))}
        while not state.over:
            if state.pending.kind == "react":
                windows += 1
                event = isinstance(state.stack[-1], EventWindowFrame)
                said = unable_seats(state)
                unable += len(said)
                able += len(window_seats(state)) - len(said)
                for seat in said:
                    assert cancel_options(state, seat, event) == []
                if windows % 4 == 0:  # (a copy of the game costs: one window in four)
                    assert unable_seats(redealt(state, rng)) == said
            seat = state.pending.seat
            apply(state, bots[seat].choose(view_for(state, seat, with_log=False)))
    assert windows > 500 and unable > 100 and able > 100  # both answers, often
