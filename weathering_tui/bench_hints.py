"""`python -m weathering_tui.bench hints [POSITIONS]`: can a player trust the hints?

Positions are turn decisions from seeded heuristic games (1v1, 2v1, 3v2 in turn). For
each, in one run:

- the hint of before (pimc: 5 candidates × 12 rollouts, ranked by win share), and the
  hint of now (bots/hints.py: the expert's successive halving, 36 rollouts);
- a reference 16 times deeper than the hint of now: every candidate of either hint and
  every distinct legal move the expert considers, each played out on the same 48 worlds
  (flat, no halving: every move's estimate has the same weight).

It prints, for each hint: how often its first move is the reference's best, how many
points of the reference's win chance following it costs on average, how often the win
chance it shows is within 5 points of the reference's estimate for that move, and the
time a hint takes (the two measured side by side in the same process).
"""

from __future__ import annotations

import random
import statistics
import time

REFERENCE_WORLDS = 48


def positions(count: int):
    from .engine import Setup, apply, legal_actions, view_for
    from .sim.simulate import play_game

    found = []
    seed = 5000
    while len(found) < count:
        config = ("1v1", "2v1", "3v2")[len(found) % 3]
        state, _ = play_game(
            Setup.standard(config, seed=seed), "heuristic", stop_after=15 + seed % 60
        )
        seed += 1
        while not state.over and state.pending.kind != "turn":
            apply(state, legal_actions(state, state.pending.seat)[0])
        if state.over:
            continue
        view = view_for(state, state.pending.seat, with_log=False)
        if len(view.legal) > 2:
            found.append(view)
    return found


def _reference(view, moves: list, content) -> dict:
    """Each move's win share over the same REFERENCE_WORLDS sampled worlds."""
    from .bots.expert import rollout
    from .engine import clone, determinize

    wins = {i: 0 for i in range(len(moves))}
    rng = random.Random(view.version * 7 + view.seat)
    for _ in range(REFERENCE_WORLDS):
        world = random.Random(rng.randrange(1 << 62))
        sample = determinize(view, content, world)
        sample.keep_log = False
        after = world.getstate()
        for i, move in enumerate(moves):
            world.setstate(after)
            _, won = rollout(view, clone(sample), move, world, content, lean=True)
            wins[i] += won
    return {i: wins[i] / REFERENCE_WORLDS for i in wins}


def judge(view) -> dict:
    import zlib

    from .bots.expert import ExpertBot
    from .bots.hints import hints
    from .bots.search import SearchBot
    from .content import default_content
    from .engine import action_key

    content = default_content()
    seed = zlib.crc32(f"{view.seat}:{view.version}:{view.round}:{len(view.legal)}".encode())
    started = time.perf_counter()
    before = ExpertBot(seed, content, rollouts=12, candidates=5).rank(view)
    before.sort(key=lambda r: -(r.win if r.win is not None else 0.0))
    before_seconds = time.perf_counter() - started
    started = time.perf_counter()
    now = hints(view, content)
    now_seconds = time.perf_counter() - started
    moves, keys = [], []
    pool = [r.action for r in before] + [h.action for h in now]
    pool += SearchBot(seed, content).moves(view, before[0].action)
    for move in pool:
        if action_key(move) not in keys:
            keys.append(action_key(move))
            moves.append(move)
    deep = _reference(view, moves, content)
    best = max(deep.values())

    def verdict(action, shown):
        i = keys.index(action_key(action))
        return {
            "agrees": deep[i] == best,
            "cost": 100 * (best - deep[i]),
            "off": None if shown is None else 100 * abs(shown - deep[i]),
        }

    return {
        "before": verdict(before[0].action, before[0].win),
        "now": verdict(now[0].action, now[0].win),
        "tied": now.tied,
        "seconds": (before_seconds, now_seconds),
    }


def bench_hints(count: int = 24, workers: int = 2) -> None:
    import multiprocessing

    views = positions(count)
    context = multiprocessing.get_context("fork")
    with context.Pool(workers) as pool:
        results = pool.map(judge, views, chunksize=1)
    print(
        f"hints on {len(results)} positions (1v1, 2v1, 3v2) against a reference of every "
        f"move on the same {REFERENCE_WORLDS} worlds:"
    )
    for name, label in (("before", "pimc, 5 × 12"), ("now", "expert, 36")):
        rows = [r[name] for r in results]
        agree = sum(r["agrees"] for r in rows) / len(rows)
        cost = statistics.mean(r["cost"] for r in rows)
        offs = [r["off"] for r in rows if r["off"] is not None]
        within = sum(o <= 5 for o in offs) / len(offs) if offs else 0.0
        mean_off = statistics.mean(offs) if offs else 0.0
        print(
            f"  {name} ({label}): first move is the reference's best in {agree:.0%}; "
            f"following it costs {cost:.1f} points of win chance on average; the chance "
            f"shown is within 5 points in {within:.0%} (off by {mean_off:.1f} on average)"
        )
    tied = sum(r["tied"] for r in results)
    print(f"  now: {tied} of {len(results)} hints say the first moves cannot be told apart")
    before = sum(r["seconds"][0] for r in results)
    now = sum(r["seconds"][1] for r in results)
    print(
        f"  time per hint: before {before / len(results):.2f} s, now {now / len(results):.2f} s "
        f"({now / before:.2f}×, side by side in the same processes)"
    )
