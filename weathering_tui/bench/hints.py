"""`python -m weathering_tui.bench hints [POSITIONS] [--deep D]`: can a player trust the
hints?

Positions are turn decisions from seeded heuristic games (1v1, 2v1, 3v2 in turn). For
each, in one run:

- the hint of before (pimc: 5 candidates × 12 rollouts, ranked by win share), the
  expert's successive halving on 36 rollouts to the end (`now`), and the hint shown
  today (`judged`, bots/hints.py: 480 rollouts to the end, then 270 more for the two
  moves kept to the end);
- a reference: every candidate of the hints and every distinct legal move the expert
  considers, each played out to the end on the same 48 worlds (flat, no halving), then
  the three best of them and the hints' first moves on 192 more (about twice a hint's
  rollouts); or, with `--deep D`, D times a hint's rollouts, a fifth of them on every
  move and the rest on the moves compared.

It prints, for each hint: how often its first move is the reference's best (and how
often it is the best or a move the reference cannot tell from it, a paired 95 % interval
on its worlds), how many points of the reference's win chance following it costs on
average, how often the win chance it shows is within 5 points of the reference's
estimate for that move, and the time a hint takes (the two measured side by side in the
same process).

And how far the reference itself can be trusted (without `--deep`, which would double
the run): a second reference as deep, on other worlds, is asked the same; how often its
best move is the first's, and how often its estimate of the shown move is within 5
points of the first's, bound what any hint can score against one reference.
"""

from __future__ import annotations

import random
import statistics
import time

REFERENCE_WORLDS = 48
FOCUS_WORLDS = 192
DEPTH = 0  # `hints N --deep D`: a reference of D hints' rollouts (0: the worlds above)


def positions(count: int):
    from ..engine import Setup, apply, legal_actions, view_for
    from ..sim.simulate import play_game

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


def _reference(view, moves: list, content, focus: set[int], seed: int, target: int = 0) -> tuple:
    """Each move's win share over the same REFERENCE_WORLDS sampled worlds; then the
    best three of them and the moves in `focus` (the hints' first moves) on
    FOCUS_WORLDS more, so the moves the verdicts compare are measured within about
    ±3 points (48 worlds alone: ±7, the reference's noise would be read as the hint's).
    Returns (share by move, the moves measured on every world, outcomes by move: one
    per world, the same worlds for every move)."""
    from ..bots.expert import rollout
    from ..engine import clone, determinize

    outcomes: dict[int, list[float]] = {i: [] for i in range(len(moves))}
    rng = random.Random(seed)

    def play(worlds: int, chosen: list[int]) -> None:
        for _ in range(worlds):
            world = random.Random(rng.randrange(1 << 62))
            sample = determinize(view, content, world)
            sample.keep_log = False
            after = world.getstate()
            for i in chosen:
                world.setstate(after)
                _, won = rollout(view, clone(sample), moves[i], world, content, lean=True)
                outcomes[i].append(float(won))

    # `target` (rollouts in all; 0: the worlds above): a fifth of it on every move, the
    # rest on the moves compared (`DEPTH`: a reference so many hints deep)
    worlds = max(REFERENCE_WORLDS, round(0.2 * target / len(moves)))
    play(worlds, list(range(len(moves))))
    first = sorted(outcomes, key=lambda i: -sum(outcomes[i]))[:3]
    chosen = sorted(set(first) | focus)
    play(max(FOCUS_WORLDS, (target - worlds * len(moves)) // len(chosen)), chosen)
    shares = {i: statistics.mean(o) for i, o in outcomes.items()}
    return shares, set(first) | focus, outcomes


def told_apart(better: list[float], worse: list[float]) -> bool:
    """`better` beats `worse` on the same worlds beyond noise (a paired 95 % interval on
    the difference that stays above 0)."""
    diffs = [a - b for a, b in zip(better, worse, strict=True)]
    margin = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return statistics.mean(diffs) - margin > 0


def judge(view) -> dict:
    from ..bots.expert import ExpertBot
    from ..bots.hints import BUDGET, CONFIRM, hint_seed, hints
    from ..bots.search import SearchBot
    from ..content import default_content
    from ..engine import action_key

    content = default_content()
    seed = hint_seed(view)
    started = time.perf_counter()
    before = ExpertBot(seed, content, rollouts=12, candidates=5).rank(view)
    before.sort(key=lambda r: -(r.win if r.win is not None else 0.0))
    before_seconds = time.perf_counter() - started
    started = time.perf_counter()
    # the hint of an earlier release: 36 rollouts to the end, nothing confirmed
    now = hints(view, content, budget=36, horizon=None, confirm=0)
    now_seconds = time.perf_counter() - started
    started = time.perf_counter()
    judged = hints(view, content)  # the hint a player is shown
    judged_seconds = time.perf_counter() - started
    moves, keys = [], []
    pool = [r.action for r in before] + [h.action for h in now] + [h.action for h in judged]
    pool += SearchBot(seed, content).moves(view, before[0].action)
    for move in pool:
        if action_key(move) not in keys:
            keys.append(action_key(move))
            moves.append(move)
    focus = {keys.index(action_key(h[0].action)) for h in (before, now, judged)}
    base = view.version * 7 + view.seat
    target = DEPTH * (BUDGET + CONFIRM) if DEPTH else 0
    deep, measured, outcomes = _reference(view, moves, content, focus, base, target)
    best_move = max(measured, key=lambda i: deep[i])
    best = deep[best_move]
    shown = keys.index(action_key(judged[0].action))
    rollouts = sum(len(o) for o in outcomes.values())
    if DEPTH:  # (a second reference that deep would double the run)
        self_agrees, self_off = None, None
    else:  # A second reference, as deep, on other worlds: how far the first can be trusted.
        again, measured_again, _ = _reference(view, moves, content, focus, base + 1_000_003)
        self_agrees = max(measured_again, key=lambda i: again[i]) == best_move
        self_off = 100 * abs(again[shown] - deep[shown])

    def verdict(action, shown):
        i = keys.index(action_key(action))
        return {
            "agrees": deep[i] == best,
            "alike": deep[i] == best or not told_apart(outcomes[best_move], outcomes[i]),
            "cost": 100 * (best - deep[i]),
            "off": None if shown is None else 100 * abs(shown - deep[i]),
        }

    return {
        "before": verdict(before[0].action, before[0].win),
        "now": verdict(now[0].action, now[0].win),
        "judged": verdict(judged[0].action, judged[0].win),
        "tied": now.tied,
        "judged_tied": judged.tied,
        "seconds": (before_seconds, now_seconds, judged_seconds),
        "self_agrees": self_agrees,
        "self_off": self_off,
        "reference_rollouts": rollouts,
    }


def bench_hints(count: int = 24, workers: int = 2) -> None:
    import multiprocessing

    from ..bots.hints import BUDGET, CONFIRM

    views = positions(count)
    context = multiprocessing.get_context("fork")
    with context.Pool(workers) as pool:
        results = pool.map(judge, views, chunksize=1)
    if DEPTH:
        reference = (
            f"{DEPTH}× a hint's rollouts (a fifth of them on every move, the same worlds; "
            "the rest on the best three and the hints' first moves)"
        )
    else:
        reference = (
            f"every move on the same {REFERENCE_WORLDS} worlds, the best and the hints' "
            f"first moves on {REFERENCE_WORLDS + FOCUS_WORLDS}"
        )
    print(f"hints on {len(results)} positions (1v1, 2v1, 3v2) against a reference of {reference}:")
    variants = (
        ("before", "pimc, 5 × 12"),
        ("now", "expert, 36 to the end"),
        ("judged", f"expert, {BUDGET} to the end + {CONFIRM} confirming: the hint shown"),
    )
    for name, label in variants:
        rows = [r[name] for r in results]
        agree = sum(r["agrees"] for r in rows) / len(rows)
        cost = statistics.mean(r["cost"] for r in rows)
        offs = [r["off"] for r in rows if r["off"] is not None]
        within = sum(o <= 5 for o in offs) / len(offs) if offs else 0.0
        mean_off = statistics.mean(offs) if offs else 0.0
        alike = sum(r["alike"] for r in rows) / len(rows)
        print(
            f"  {name} ({label}): first move is the reference's best in {agree:.0%} "
            f"(the best or not told apart from it: {alike:.0%}); following it costs "
            f"{cost:.1f} points of win chance on average; the chance shown is within 5 "
            f"points in {within:.0%} (off by {mean_off:.1f} on average)"
        )
    depth = statistics.mean(r["reference_rollouts"] for r in results) / (BUDGET + CONFIRM)
    print(f"  the reference: {depth:.1f}× a hint's rollouts on average")
    if results[0]["self_agrees"] is not None:
        agree = sum(r["self_agrees"] for r in results) / len(results)
        within = sum(r["self_off"] <= 5 for r in results) / len(results)
        print(
            f"  the reference against itself (a second one as deep, other worlds): the same "
            f"best move in {agree:.0%}; its estimate of the shown move within 5 points of the "
            f"first's in {within:.0%} (what a perfect hint could score against one reference)"
        )
    for name in ("tied", "judged_tied"):
        tied = sum(r[name] for r in results)
        print(f"  {name}: {tied} of {len(results)} hints say the first moves cannot be told apart")
    before, now, judged = (sum(r["seconds"][k] for r in results) for k in range(3))
    print(
        f"  time per hint: before {before / len(results):.2f} s, now {now / len(results):.2f} s "
        f"({now / before:.2f}×), judged {judged / len(results):.2f} s ({judged / before:.2f}×), "
        "side by side in the same processes"
    )


# (rollouts, horizon: rounds played before bots/value.py judges; None: to the end)
BUDGETS = ((96, 1), (288, 2), (192, None), (288, None), (480, None))


def judge_budgets(view) -> dict:
    """One position: each budget's first move and shown chance against the reference,
    with the CPU seconds each hint took (and pimc's, the yardstick of time)."""
    from ..bots.expert import ExpertBot
    from ..bots.hints import hint_seed, hints
    from ..bots.search import SearchBot
    from ..content import default_content
    from ..engine import action_key

    content = default_content()
    seed = hint_seed(view)
    started = time.process_time()
    ExpertBot(seed, content, rollouts=12, candidates=5).rank(view)
    seconds = {"pimc": time.process_time() - started}
    found = {}
    for budget in BUDGETS:
        started = time.process_time()
        # (each budget alone: the rows of bots/hints.py's note, before any confirmation)
        found[budget] = hints(view, content, budget=budget[0], horizon=budget[1], confirm=0)
        seconds[budget] = time.process_time() - started
    moves, keys = [], []
    pool = [h.action for f in found.values() for h in f]
    pool += SearchBot(seed, content).moves(view, found[BUDGETS[0]][0].action)
    for move in pool:
        if action_key(move) not in keys:
            keys.append(action_key(move))
            moves.append(move)
    focus = {keys.index(action_key(f[0].action)) for f in found.values()}
    deep, measured, _ = _reference(view, moves, content, focus, view.version * 7 + view.seat)
    best = max(deep[i] for i in measured)
    out: dict = {"seconds": seconds}
    for budget, f in found.items():
        i = keys.index(action_key(f[0].action))
        off = None if f[0].win is None else 100 * abs(f[0].win - deep[i])
        out[budget] = (deep[i] == best, 100 * (best - deep[i]), off)
    return out


def bench_budgets(count: int = 40, workers: int = 2) -> None:
    """`python -m weathering_tui.bench hint-budgets 40`: how a hint's budget and horizon
    trade its time for how far it can be trusted (the figures behind bots/hints.py's)."""
    import multiprocessing

    views = positions(count)
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = pool.map(judge_budgets, views, chunksize=1)
    pimc = statistics.mean(r["seconds"]["pimc"] for r in results)
    print(
        f"hints on {len(results)} positions against the reference; "
        f"CPU s a hint (pimc's: {pimc:.2f})"
    )
    for budget in BUDGETS:
        rows = [r[budget] for r in results]
        offs = [r[2] for r in rows if r[2] is not None]
        horizon = "to the end" if budget[1] is None else f"judged {budget[1]} round(s) on"
        print(
            f"  {budget[0]} {horizon}: best move {sum(r[0] for r in rows) / len(rows):.0%}, "
            f"cost {statistics.mean(r[1] for r in rows):.1f} points, within 5 points "
            f"{sum(o <= 5 for o in offs) / max(1, len(offs)):.0%} (off by "
            f"{statistics.mean(offs) if offs else 0.0:.1f}), "
            f"{statistics.mean(r['seconds'][budget] for r in results):.2f} CPU s"
        )
