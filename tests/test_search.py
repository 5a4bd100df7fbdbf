"""The expert (bots/search.py) and the hints built on it (bots/hints.py): legal, blind
to what the seat cannot see, stoppable, and never a self-harming move first on noise."""

import copy
import math

import pytest
from helpers import another_hand_dealt, set_hand, start, turn_of

from weathering_tui.bots import HeuristicBot, IsmctsBot, SearchBot
from weathering_tui.bots.hints import Stopped, arrange, harms_own_side, hints
from weathering_tui.bots.search import Estimate
from weathering_tui.engine import Setup, apply_chosen, new_game, view_for
from weathering_tui.engine import actions as act
from weathering_tui.sim.simulate import play_game


def turn_views(config="2v1", count=3, first_seed=700):
    found = []
    for seed in range(first_seed, first_seed + 40):
        state, _ = play_game(
            Setup.standard(config, seed=seed), "heuristic", stop_after=30 + seed % 17
        )
        if not state.over and state.pending.kind == "turn":
            found.append(state)
        if len(found) == count:
            return found
    raise AssertionError("too few turns")


def test_the_expert_decides_legally_and_from_its_view_only():
    for n, state in enumerate(turn_views()):
        seat = state.pending.seat
        view = view_for(state, seat)
        action = SearchBot(seed=n, budget=12).choose(view)
        assert action in view.legal
        twin = another_hand_dealt(state, seat)
        assert SearchBot(seed=n, budget=12).choose(view_for(twin, seat)) == action


def other_decisions(count=4):
    """States where a seat decides outside its turn with a choice: a reaction, a discard,
    an exchange, a trade answer... (the first of each kind met)."""
    found = {}
    for seed in range(800, 840):
        game = new_game(Setup.standard("2v2", seed=seed))
        bots = [HeuristicBot(seed + i) for i in range(4)]
        while not game.over and len(found) < count:
            pending = game.pending
            view = view_for(game, pending.seat)
            if pending.kind not in found and pending.kind != "turn" and len(view.legal) > 1:
                found[pending.kind] = copy.deepcopy(game)
            apply_chosen(game, bots[pending.seat].choose(view), view)
        if len(found) >= count:
            return list(found.values())
    raise AssertionError(f"too few kinds of decision: {sorted(found)}")


@pytest.mark.parametrize("bot", [SearchBot, IsmctsBot])
def test_both_searches_decide_outside_their_turn_legally_and_from_the_view_only(bot):
    """A reaction, a discard, a trade answer...: searched (rollouts spent), legal, and
    the same whatever another seat hides."""
    for n, state in enumerate(other_decisions()):
        seat = state.pending.seat
        view = view_for(state, seat)
        if bot is SearchBot:
            assert SearchBot(seed=n, budget=8).rank(view)[0].rollouts > 0, view.pending.kind
        action = bot(seed=n, budget=8).choose(view)
        assert action in view.legal
        twin = another_hand_dealt(state, seat)
        assert bot(seed=n, budget=8).choose(view_for(twin, seat)) == action


def test_successive_halving_spends_the_budget_on_the_survivors():
    state = turn_views(count=1)[0]
    view = view_for(state, state.pending.seat)
    ranked = SearchBot(seed=2, budget=48).rank(view)
    assert len(ranked) >= 4
    counts = [e.rollouts for e in ranked]
    assert sum(counts) <= 48
    assert max(counts) >= 3 * min(counts)  # the last ones met many more worlds
    assert ranked[0].rollouts == max(counts)
    assert ranked[0].margin == 0.0 and ranked[0].gap == 0.0


def test_copies_of_a_card_are_one_candidate():
    state = start("2v1", seed=3)
    set_hand(state, 0, "potager_partage", "potager_partage", "mangroves")
    turn_of(state, 0, ap=10)
    view = view_for(state, 0)
    moves = SearchBot(seed=1).moves(view, view.legal[0])
    plays = [m.card.split("#")[0] for m in moves if isinstance(m, act.PlayCard)]
    assert sorted(plays) == sorted(set(plays))


def test_a_search_asked_to_stop_stops_between_two_rollouts():
    state = turn_views(count=1)[0]
    view = view_for(state, state.pending.seat)
    asked = []

    def should_stop():
        asked.append(1)
        return len(asked) > 2

    with pytest.raises(Stopped):
        SearchBot(seed=2, budget=400).rank(view, should_stop=should_stop)
    assert len(asked) == 3  # asked before each rollout: the third stopped it


def estimate(name, win, score, gap=0.0, margin=0.0):
    return Estimate(name, win, score, 10, margin, gap)


def test_a_self_harming_move_is_not_first_on_noise():
    ranked = [
        estimate("harm", 0.6, 12.0),
        estimate("good", 0.55, 11.0, gap=1.0, margin=3.0),  # 1 ± 3: cannot be told apart
        estimate("other", 0.4, 8.0, gap=4.0, margin=1.0),
    ]
    moves, tied, why, _ = arrange(ranked, lambda a: a == "harm")
    # "harm" under "good" would show 60 % under 55 %: it is left out, not listed lower.
    assert [m.action for m in moves] == ["good", "other"]
    assert tied and why is None


def test_a_self_harming_move_with_a_lower_share_is_listed_under_the_first():
    ranked = [
        estimate("good", 0.6, 12.0),
        estimate("harm", 0.5, 11.0, gap=1.0, margin=3.0),
    ]
    moves, tied, _, _ = arrange(ranked, lambda a: a == "harm")
    assert [m.action for m in moves] == ["good", "harm"] and tied


def test_moves_that_cannot_be_told_apart_are_listed_by_their_share():
    """The search ranks by mean score on the worlds each met: tied moves may come in an
    order whose shares go up ('44 %' above '56 %', seen in play). Listed by share."""
    ranked = [
        estimate("a", 0.44, 10.5),
        estimate("b", 0.56, 10.2, gap=0.3, margin=2.0),
        estimate("c", 0.50, 10.0, gap=0.5, margin=2.0),
        Estimate("d", 1.0, 14.0, 4, math.inf, 0.0),  # dropped after 4 deals: no share shown
    ]
    moves, tied, _, _ = arrange(ranked, lambda a: False)
    assert tied and [m.action for m in moves] == ["b", "c", "a", "d"]
    shares = [m.win for m in moves[:3]]
    assert shares == sorted(shares, reverse=True)


def test_a_self_harming_move_stays_first_when_the_search_is_sure_and_says_why():
    ranked = [estimate("harm", 0.8, 15.0), estimate("good", 0.4, 9.0, gap=6.0, margin=2.0)]
    moves, tied, why, gap = arrange(ranked, lambda a: a == "harm")
    assert [m.action for m in moves] == ["harm", "good"]
    assert not tied and why == "hint.why_harm" and gap == 6


def test_moves_the_search_cannot_tell_apart_are_said_to_be_tied():
    ranked = [estimate("a", 0.5, 10.0), estimate("b", 0.5, 10.0, gap=0.0, margin=math.inf)]
    assert arrange(ranked, lambda a: False)[1] is True
    sure = [estimate("a", 0.7, 14.0), estimate("b", 0.3, 6.0, gap=8.0, margin=2.0)]
    assert arrange(sure, lambda a: False)[1] is False


@pytest.mark.parametrize(
    "ecologist_harm",
    ["megafeux", "matraquage_publicitaire"],  # −PV; every Écolo loses 2 PA
)
def test_a_card_against_the_ecologists_hurts_an_ecologist_and_helps_a_lobbyist(ecologist_harm):
    state = start("2v1", seed=3)
    for seat in (0, 2):
        set_hand(state, seat, ecologist_harm, "eoliennes")
        turn_of(state, seat, ap=10)
        view = view_for(state, seat)
        by_card = {a.card.split("#")[0]: a for a in view.legal if isinstance(a, act.PlayCard)}
        harmful = {c for c, a in by_card.items() if harms_own_side(SearchBot(seed=1), view, a)}
        assert harmful == ({ecologist_harm} if seat == 0 else {"eoliennes"})


def test_hints_carry_their_interval_and_are_blind_to_hidden_cards():
    state = turn_views(count=1, first_seed=730)[0]
    seat = state.pending.seat
    found = hints(view_for(state, seat, with_log=False), budget=16)
    assert 1 <= len(found) <= 3
    for h in found:
        assert h.action in view_for(state, seat).legal
        if h.win is not None:
            assert h.low <= h.win <= h.high
    twin = copy.deepcopy(state)
    other = next(p for p in twin.players if p.seat != seat and p.hand)
    twin.draw_pile[: len(other.hand)], other.hand = other.hand, twin.draw_pile[: len(other.hand)]
    again = hints(view_for(twin, seat, with_log=False), budget=16)
    assert again == found


def test_hint_slots_bound_the_hints_thinking_at_once_and_a_waiting_one_can_stop(tmp_path):
    """Slots are locked files: with every slot held, another hint waits, and a hint
    dismissed while it waits stops (Stopped) instead of waiting on."""
    from weathering_tui.bots import hints as hints_module

    held = [hints_module.HintSlot(folder=tmp_path) for _ in range(hints_module.hint_slots())]
    for slot in held:
        slot.__enter__()
    asked = []

    def stop():
        asked.append(1)
        return len(asked) > 3

    with pytest.raises(Stopped), hints_module.HintSlot(stop, folder=tmp_path):
        raise AssertionError("no slot was free")
    held[0].__exit__(None, None, None)
    with hints_module.HintSlot(folder=tmp_path) as slot:
        assert slot.fd is not None  # a slot freed is taken
    for other in held[1:]:
        other.__exit__(None, None, None)


def test_a_hint_thread_thinks_at_low_priority():
    import os
    import threading

    from weathering_tui.bots.hints import background_priority

    seen = []
    # (the test itself may run under `nice`: the thread's own priority is what moves)
    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def work():
        background_priority()
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen and seen[0] >= 10
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before  # that one only


def test_a_slot_folder_another_user_could_write_is_not_used(tmp_path):
    """In a shared /tmp another user could make the slots' folder first and hold every
    slot: a folder that is not this user's alone bounds nothing, and the hint goes on."""
    from weathering_tui.bots import hints as hints_module

    shared = tmp_path / "slots"
    shared.mkdir()
    shared.chmod(0o777)
    with hints_module.HintSlot(folder=shared) as slot:
        assert slot.fd is None
    assert list(shared.iterdir()) == []


def test_an_anchored_search_keeps_the_heuristic_move_to_the_end_and_leaves_it_only_on_evidence():
    for n, state in enumerate(turn_views(count=3, first_seed=760)):
        view = view_for(state, state.pending.seat)
        choice = HeuristicBot(n).choose(view)
        ranked = SearchBot(seed=n, budget=24, anchor=math.inf).rank(view)
        assert ranked[0].action == choice  # never beaten beyond an infinite margin
        assert ranked[0].rollouts == max(e.rollouts for e in ranked)  # met every world
        loose = SearchBot(seed=n, budget=24, anchor=0.0).rank(view)
        mine = next(e for e in loose if e.action == choice)
        assert mine.rollouts == max(e.rollouts for e in loose)


def test_confirming_plays_the_finalists_again_and_only_them():
    """`confirm`: rollouts beyond the budget for the moves the halving kept to the end,
    so the chance a hint shows rests on more deals; the moves dropped earlier keep
    theirs."""
    state = turn_views(count=1)[0]
    view = view_for(state, state.pending.seat)
    plain = SearchBot(seed=3, budget=24, candidates=4).rank(view)
    confirmed = SearchBot(seed=3, budget=24, candidates=4, confirm=20).rank(view)
    finalists = [e for e in plain if e.rollouts == plain[0].rollouts]
    assert len(finalists) == 2
    more = {repr(e.action): e.rollouts for e in confirmed}
    for e in plain:
        extra = 10 if e in finalists else 0
        assert more[repr(e.action)] == e.rollouts + extra, (e.action, e.rollouts)


def test_a_scaled_budget_spends_fewer_rollouts_early_and_more_late():
    """`scaled`: the budget times the mean rounds left over a game divided by those left
    now (a rollout's length): each decision's work (rollouts × their length) is then
    about a default decision's on average, where the default's falls as the game goes."""
    import attrs

    from weathering_tui.bots.search import _scale

    state = turn_views(count=1)[0]
    view = view_for(state, state.pending.seat)
    early, late = attrs.evolve(view, round=1), attrs.evolve(view, round=10)
    assert _scale(early) == pytest.approx(5.5 / 10) and _scale(late) == 4.0
    assert _scale(attrs.evolve(view, round=0)) == 0.5  # the mulligan: the floor
    # rollouts × rounds left: the same in every round but the last (capped at 4)
    work = [_scale(attrs.evolve(view, round=r)) * (11 - r) for r in range(1, 10)]
    assert work == pytest.approx([5.5] * 9)
    spent = {}
    for name, at in (("early", early), ("late", late)):
        ranked = SearchBot(seed=2, budget=40, scaled=True).rank(at)
        spent[name] = sum(e.rollouts for e in ranked)
    plain = sum(e.rollouts for e in SearchBot(seed=2, budget=40).rank(early))
    assert spent["early"] <= 22 < plain <= 40 < spent["late"] <= 160
