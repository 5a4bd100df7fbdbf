"""Rebuilding a world from a view works at any decision, mid-effect included
(engine.determinize): the sampled state shows the deciding seat exactly its view, the
resolution stack in the view hides what the seat has not seen, and a sampled state
plays on to the end."""

import random
from collections import Counter

import attrs

from weathering_tui.bots import HeuristicBot, RandomBot
from weathering_tui.content import default_content
from weathering_tui.engine import Setup, apply, apply_chosen, clone, new_game, view_for
from weathering_tui.engine.determinize import determinize
from weathering_tui.engine.resolving import HIDDEN
from weathering_tui.engine.state import ArrangeFrame, ExchangeFrame, PendingKind, ReactionFrame
from weathering_tui.engine.window import window_seats
from weathering_tui.engine.wire import view_from_json, view_to_json

CONTENT = default_content()


def decision_views(config: str, seed: int):
    """(state, seat, view) at every decision of a game, for every seat asked: in a
    reaction window each seat the window asks. Heuristic bots on even seeds, random
    bots (who wander into every corner of the rules) on odd ones."""
    state = new_game(Setup.standard(config, seed=seed))
    kind = RandomBot if seed % 2 else HeuristicBot
    bots = [kind(seed * 10 + i) for i in range(len(state.players))]
    while not state.over:
        deciding = state.pending.seat
        asked = window_seats(state) if state.pending.kind == "react" else (deciding,)
        for seat in asked:
            view = view_for(state, seat, with_log=False)
            if view.legal:
                yield state, seat, view
        view = view_for(state, deciding, with_log=False)
        apply_chosen(state, bots[deciding].choose(view), view)


def test_a_world_rebuilt_at_any_decision_shows_the_seat_its_own_view():
    rng = random.Random(7)
    kinds: Counter = Counter()
    per_config: Counter = Counter()
    for config in CONTENT.configurations:
        for seed in range(10):
            for _, seat, view in decision_views(config, seed):
                sample = determinize(view, CONTENT, rng)
                # A sampled state has no past: no log, nothing to take back.
                assert view_for(sample, seat, with_log=False) == attrs.evolve(view, can_undo=False)
                if view.pending.kind == "react":  # the sampled window asks this seat now
                    window = sample.stack[-1]
                    assert window.order[window.index] == sample.pending.seat == seat
                kinds[view.pending.kind] += 1
                per_config[config] += 1
    assert sum(kinds.values()) >= 10_000, kinds
    assert min(per_config.values()) >= 1_000, per_config
    every_kind = {"turn", "react", "mulligan", "choose_discard", "choose_exchange",
                  "trade_answer", "choose_option", "choose_take", "choose_give",
                  "claim_synergy", "arrange"}  # fmt: skip
    assert every_kind <= set(kinds), kinds


def test_a_world_rebuilt_from_a_view_off_the_wire_waits_for_a_pending_kind():
    """A view read off the wire names its decision with a plain string; the state
    rebuilt from it holds the PendingKind member, as one the engine made does."""
    rng = random.Random(3)
    seen = set()
    for _, _, view in decision_views("3v2", 1):
        wired = view_from_json(view_to_json(view))
        assert type(wired.pending.kind) is str
        sample = determinize(wired, CONTENT, rng)
        assert type(sample.pending.kind) is PendingKind
        assert sample.pending.kind == view.pending.kind
        seen.add(sample.pending.kind)
    assert {PendingKind.TURN, PendingKind.REACT, PendingKind.MULLIGAN} <= seen


def test_a_sampled_world_plays_on_to_the_end_from_any_decision():
    """Every 25th decision: each legal move applied in a sampled world, then random play
    to the end (a hidden card left unfilled would fail at once)."""
    rng = random.Random(8)
    played = 0
    for config in CONTENT.configurations:
        for seed in range(2):
            for i, (_, _seat, view) in enumerate(decision_views(config, seed)):
                if i % 25:
                    continue
                sample = determinize(view, CONTENT, rng)
                for action in view.legal:
                    world = clone(sample)
                    apply(world, action)
                    bots = [RandomBot(n) for n in range(len(world.players))]
                    while not world.over:
                        apply(
                            world,
                            bots[world.pending.seat].choose(view_for(world, world.pending.seat)),
                        )
                    played += 1
    assert played >= 300


def test_the_resolution_stack_in_a_view_hides_what_the_seat_has_not_seen():
    """Scramble every hidden card of the real state (other hands, decks, the piles, the
    blind picks, the peeked cards, a card announced into a deck): `limbo` and
    `resolving` are the same. And they travel through the wire unchanged."""
    checked = Counter()
    for config in ("2v2", "3v2", "1v1"):
        for seed in range(6):
            for state, seat, view in decision_views(config, seed):
                if not view.resolving:
                    continue
                for frame in state.stack:
                    if (
                        isinstance(frame, ReactionFrame)
                        and frame.announcement.kind == "put_in_deck"
                    ):
                        assert HIDDEN in view.limbo and frame.announcement.card not in view.limbo
                        checked["decked"] += 1
                    if isinstance(frame, ExchangeFrame) and frame.pick_first is not None:
                        checked["exchange"] += 1
                    if isinstance(frame, ArrangeFrame):
                        checked["arrange"] += 1
                for public in view.resolving:
                    if isinstance(public, ExchangeFrame):
                        assert public.pick_first in (None, HIDDEN)
                        assert public.pick_second in (None, HIDDEN)
                    if isinstance(public, ArrangeFrame):
                        assert set(public.seen) <= {HIDDEN}
                    if isinstance(public, ReactionFrame):
                        assert public.index == 0  # how far the window got: who was asked
                twin = _scrambled(state, seat)
                again = view_for(twin, seat, with_log=False)
                assert (again.limbo, again.resolving) == (view.limbo, view.resolving)
                assert view_from_json(view_to_json(view)) == view
                checked["views"] += 1
    assert checked["views"] >= 200 and checked["decked"] and checked["exchange"], checked


def _scrambled(state, seat):
    """The state with every card `seat` has not seen swapped with another such card,
    and every reaction window moved on (how far it got is not seen either)."""
    twin = clone(state)
    decked = {
        f.announcement.card
        for f in twin.stack
        if isinstance(f, ReactionFrame) and f.announcement.kind == "put_in_deck"
    }
    announced = {f.announcement.card for f in twin.stack if isinstance(f, ReactionFrame)}
    unseen = [
        c
        for p in twin.players
        if p.seat != seat
        for c in p.hand + p.deck
        if c not in announced - decked  # a discard announced names its card in hand
    ]
    unseen += twin.draw_pile + sorted(decked)
    swap = dict(zip(unseen, random.Random(len(unseen)).sample(unseen, len(unseen)), strict=True))
    for p in twin.players:
        if p.seat != seat:
            p.hand = [swap.get(c, c) for c in p.hand]
            p.deck = [swap.get(c, c) for c in p.deck]
    twin.draw_pile = [swap.get(c, c) for c in twin.draw_pile]
    twin.limbo = [swap.get(c, c) for c in twin.limbo]
    for i, frame in enumerate(twin.stack):
        if isinstance(frame, ReactionFrame):
            card = frame.announcement.card
            twin.stack[i] = ReactionFrame(
                attrs.evolve(frame.announcement, card=swap.get(card, card)),
                frame.order,
                (frame.index + 1) % (len(frame.order) + 1),
            )
        elif isinstance(frame, ExchangeFrame):
            frame.pick_first = swap.get(frame.pick_first, frame.pick_first)
            frame.pick_second = swap.get(frame.pick_second, frame.pick_second)
        elif isinstance(frame, ArrangeFrame) and frame.seat != seat:
            frame.seen = [swap.get(c, c) for c in frame.seen]
    return twin
