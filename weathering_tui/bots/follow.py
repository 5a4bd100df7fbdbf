"""What a move leads to in its seat's own turn, played on as a search's simulated games
play it: a review's "the expert: discard Cyclone (+1 PA) · then play Reforestation"
says why the discard was worth more than ending the turn.

A search judges a move by playing the game on with heuristic bots on every seat
(bots/expert.py `rollout`): the moves that follow it in the same turn are part of what
it measured. `follow_up` does not read the search's own games (it keeps none): it plays
those few moves again, with the same heuristic, on `WORLDS` fresh worlds sampled from
the seat's view alone (engine.determinize), and keeps the sequence most of them share.
Only moves made with what the seat knew are named: a card it held or one in the discard
pile, never a card a sampled world let it draw or take; the sequence stops there, at
the end of the turn, and after `steps` moves. So what it says depends on the view only
(the same scrambled hidden cards give the same words)."""

from __future__ import annotations

import random
from collections import Counter

from .. import engine
from ..engine import LeanView, View, action_key, apply, apply_chosen
from ..engine import actions as act
from .heuristic import HeuristicBot

WORLDS = 8  # worlds played on; a sequence is named when more than half of them share it
STEPS = 2  # moves named at most after the one judged
GUARD = 60  # engine decisions played at most on a world (reactions, effect choices)


def follow_up(
    view: View, action, content, seed: int, worlds: int = WORLDS, steps: int = STEPS
) -> tuple:
    """The seat's next moves of the same turn after `action` (a move of its turn), as the
    heuristic plays them on most of `worlds` worlds sampled from `view`; () when the
    move ends the turn, is not a move of the turn, or the worlds do not agree."""
    pending = view.pending
    if pending is None or pending.kind != "turn" or isinstance(action, act.EndTurn):
        return ()
    known = set(view.me.hand or ()) | set(view.discard_pile)
    rng = random.Random(seed)
    counts: Counter[tuple] = Counter()
    moves_of: dict[tuple, tuple] = {}
    for _ in range(worlds):
        world = random.Random(rng.randrange(1 << 62))
        state = engine.determinize(view, content, world)
        state.keep_log = False
        apply(state, action)
        moves = _played_on(state, view.seat, known, content, world.randrange(1 << 30), steps)
        key = tuple(action_key(m) for m in moves)
        counts[key] += 1
        moves_of.setdefault(key, moves)
    key, seen = max(counts.items(), key=lambda item: item[1])  # ties: the first seen
    return moves_of[key] if 2 * seen > worlds else ()


def _played_on(state, seat: int, known: set, content, seed: int, steps: int) -> tuple:
    """The seat's moves of this turn on `state`, the other decisions answered by
    heuristic bots, until the turn passes or a move names a card the seat did not know."""
    bots: dict[int, HeuristicBot] = {}
    moves: list = []
    for _ in range(GUARD):
        pending = state.pending
        if state.over or pending is None or len(moves) >= steps:
            break
        if pending.kind == "turn" and pending.seat != seat:
            break  # the turn has passed
        bot = bots.setdefault(pending.seat, HeuristicBot(seed + pending.seat, content))
        lean = LeanView(state, pending.seat)
        chosen = bot.choose(lean)
        if pending.kind == "turn":
            if isinstance(chosen, act.EndTurn):
                break
            card = getattr(chosen, "card", None)
            if card is not None and card not in known:
                break
            moves.append(chosen)
        apply_chosen(state, chosen, lean)
    return tuple(moves)
