"""Behaviour hides what cards hide (network.md, Fairness; rules-reference §8.3, §12.11).

For many random positions, a second world is made that differs only in what one seat
cannot see: the other hands and decks, the bottom of the draw pile and the event pile
below the next cards. Both worlds are then played on with the same choices, and the
seat's whole sequence of views and prompts must be the same in both.
"""

import copy
import random

import pytest

from weathering_tui.bots import RandomBot
from weathering_tui.engine import (
    SPECTATOR,
    Setup,
    apply,
    legal_actions,
    new_game,
    view_for,
    window_choices,
    window_seats,
)
from weathering_tui.engine import actions as act

CANCELS = ("boycott", "manifestation")
# The seat under test takes only actions that cannot reveal another seat's cards to it
# (a played card may make others discard or show cards: what they show then differs).
QUIET = (
    act.PutInDeck,
    act.Discard,
    act.Draw,
    act.StoreAp,
    act.EndTurn,
    act.Pass,
    act.Cancel,
    act.ChooseCard,
    act.ChooseOption,
    act.ClaimSynergy,
)


class Revealing(Exception):
    """Another seat must now show a card (a chosen discard, an exchange): the worlds may
    rightly differ from here on, so the comparison stops."""


def public_choice(state, seat):
    """What another seat does, the same in both worlds: nothing that shows its cards."""
    pending = state.pending
    kind = pending.kind
    legal = legal_actions(state, seat)
    if kind == "turn":
        return act.EndTurn(seat)
    if kind == "react":
        return act.Pass(seat)
    if kind == "trade_answer":
        return act.AnswerTrade(seat, False)
    if kind == "claim_synergy":
        return act.ClaimSynergy(seat, False)
    if kind in ("mulligan", "choose_give") or (
        kind == "choose_discard" and act.ChooseCard(seat, None) in legal
    ):
        return act.ChooseCard(seat, None)
    if kind in ("choose_option", "choose_take", "arrange", "second_card"):
        return legal[0]
    raise Revealing(kind)


def hidden_from(state, seat) -> set[str]:
    """The cards the two worlds may hold differently: other hands and decks, the draw
    pile below its top 20 cards and the event pile below its next three."""
    cards = set(state.draw_pile[:-20]) | set(state.event_pile[:-3])
    for player in state.players:
        if player.seat != seat:
            cards |= set(player.hand) | set(player.deck)
    return cards


def names(value) -> set[str]:
    if isinstance(value, str):
        return {value} if "#" in value else set()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return set().union(*(names(v) for v in value)) if value else set()
    return set()


def observed(state, seat, rng, steps=60):
    """The seat's views as its screen would show them: one per change it can see.
    A view waiting on someone else's reaction is not shown (its outcome comes next).
    It stops where the rules show the table one of the cards the worlds differ in (an
    automatic discard, a revealed event): from there the worlds rightly differ."""
    seen = []
    hidden_windows = 0
    hidden = hidden_from(state, seat)
    for _ in range(steps):
        logged = len(state.log)
        view = view_for(state, seat)
        if view.pending is not None and view.pending.kind == "reactions":
            hidden_windows += 1
        elif not seen or seen[-1] != view:
            seen.append(view)
        if state.over:
            break
        deciding = state.pending.seat
        if deciding == seat:
            options = [a for a in view.legal if isinstance(a, QUIET)]
            action = rng.choice(options)
        else:
            try:
                action = public_choice(state, deciding)
            except Revealing:
                break
        apply(state, action)
        if any(names(e.data) & hidden for e in state.log[logged:]):
            break
    return seen, hidden_windows


def other_world(state, seat, rng):
    """The same game, but every other hand and deck swapped for cards from the bottom of
    the draw pile (counts kept), and the event pile shuffled below its next three cards."""
    other = copy.deepcopy(state)
    other.content = state.content
    pile = other.draw_pile
    for player in other.players:
        if player.seat == seat:
            continue
        for zone in (player.hand, player.deck):
            old = list(zone)
            fresh = [pile.pop(0) for _ in old]  # the bottom of the pile (top is the end)
            zone[:] = fresh
            pile[:0] = old
    rest, top = other.event_pile[:-3], other.event_pile[-3:]
    rng.shuffle(rest)
    other.event_pile[:] = rest + top
    return other


def arm_opponents(state, seat):
    """Give the seat's opponents the cancel cards of the pile (and PA to pay for them)."""
    side = state.players[seat].side
    for player in state.players:
        if player.side == side or player.seat == seat:
            continue
        for instance in list(state.draw_pile[: len(state.draw_pile) // 2]):
            if instance.partition("#")[0] in CANCELS and player.hand:
                state.draw_pile.remove(instance)
                state.draw_pile.insert(0, player.hand.pop())
                player.hand.append(instance)
        player.ap = max(player.ap, 4)


def positions(config, count):
    """Random positions of `config` where some seat is about to play its turn."""
    rng = random.Random(config)
    found = 0
    seed = 0
    while found < count:
        seed += 1
        state = new_game(Setup.standard(config, seed=seed))
        bots = [RandomBot(seed * 10 + i) for i in range(len(state.players))]
        stop = rng.randrange(10, 160)
        for _ in range(stop):
            if state.over:
                break
            seat = state.pending.seat
            apply(state, bots[seat].choose(view_for(state, seat, with_log=False)))
        if state.over or state.pending.kind != "turn" or len(state.draw_pile) < 20:
            continue
        found += 1
        yield state


@pytest.mark.parametrize("config", ["1v1", "2v1", "2v2", "3v2"])
def test_a_seat_sees_the_same_game_whatever_the_others_hide(config):
    asked_somewhere = 0
    for state in positions(config, 12):
        seat = state.pending.seat
        arm_opponents(state, seat)
        world = other_world(state, seat, random.Random(seat))
        assert view_for(world, seat) == view_for(state, seat)  # the seat cannot tell them apart
        first, windows_a = observed(state, seat, random.Random(7))
        second, windows_b = observed(world, seat, random.Random(7))
        assert [v.version for v in first] == [v.version for v in second]
        assert first == second
        asked_somewhere += windows_a + windows_b
    # The positions did exercise hidden reaction windows: opponents holding a cancel
    # were asked in one world and not in the other, and nothing showed it.
    assert asked_somewhere > 0


def test_spectators_see_no_decider_in_a_reaction_window():
    """Every seat the window asks sees its own prompt at once; the others (and
    spectators) see "reactions" and no seat."""
    checked = 0
    for seed in range(30):
        state = new_game(Setup.standard("2v2", seed=seed))
        bots = [RandomBot(seed * 4 + i) for i in range(4)]
        while not state.over:
            pending = state.pending
            if pending.kind == "react":
                asked = window_seats(state)
                assert pending.seat == asked[0]  # the engine asks them in that order
                for seat in [SPECTATOR, *range(4)]:
                    view = view_for(state, seat)
                    shown = view.pending
                    if seat not in asked:
                        assert (shown.kind, shown.seat) == ("reactions", SPECTATOR)
                        assert view.legal == ()
                    else:
                        assert (shown.kind, shown.seat) == ("react", seat)
                        assert view.legal == tuple(window_choices(state, seat))
                        assert view.legal[0] == act.Pass(seat)
                        answered = view_for(state, seat, answered={seat})
                        assert (answered.pending.kind, answered.legal) == ("reactions", ())
                checked += 1
            view = view_for(state, pending.seat, with_log=False)
            apply(state, bots[pending.seat].choose(view))
    assert checked >= 10
