"""A review of a finished (or unfinished) game: `weathering review SAVE`, and `v` in
`weathering replay`.

The game is replayed action by action. At each decision where a seat had a choice (its
turn's, and the others: a cancel or not, a discard, a trade answer, the mulligan...), the
expert (bots/search.py) is given **that seat's view at that moment**
— never the state, never another hand — and searches the best moves with the move
actually played kept in the race to the end, so the two are compared on the same
sampled worlds. What the review keeps:

- for each seat, its three costliest decisions: the move played, the one the expert
  would have played, and the estimated cost (points of win chance, for that seat's side),
  among the decisions where the expert's move beat the one played beyond noise (a
  paired 95 % interval on the final gauge, over the same worlds): a review that ranked
  noise would teach a player the wrong lesson; and never a decision whose better move
  would hurt the seat's own side (a damage card played by an Écolo, a gift aimed at an
  opponent: `hints.harms_own_side`): among a game's dozens of decisions a few such
  "wins" of a search are noise, and "you should have hurt your side" is the one lesson
  a review must not teach (a play-test's review told an Écolo to play Surconsommation);
  and why, in a few words: the moves of that turn the expert's move leads to, with
  cards the seat knew, as the search's simulated games play on (bots/follow.py), and
  by how much the final gauge was better for the seat's side on the confirming worlds;
- the curve of the Écolos' win chance along the game, one point per reviewed decision:
  the chance after the move played, as the deciding seat's search saw it (for a
  mistake named, its confirmed chance: the line and the curve say the same).

`SeatDecision`s are taken from the game by `decisions()`; `review_decisions()` sees only
those views: nothing else of the game reaches the search. Each search is seeded from
the decision's index and seat, and its budget is a count of rollouts, so the same save
gives the same review on any machine.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable

import attrs

from ..engine import View, action_key, apply, new_game, view_for
from .follow import follow_up
from .hints import harms_own_side
from .search import SearchBot

BUDGET = 96  # rollouts to the end per decision reviewed (hundreds of them: a fifth of a hint)
# A decision the search flagged is looked at again on as many worlds of its own as its
# budget (`confirm`), the move played against the search's, before it is named (its
# cost is measured there). The first search alone named noise: a mulligan whose two
# moves had met 14 worlds each was called a 29-point mistake, and other seeds ranked
# the move played first.
WORST = 3


@attrs.frozen
class SeatDecision:
    """One decision of a seat: the view it had and the move it made."""

    index: int  # the action's index in the game
    view: View
    played: object


@attrs.frozen
class Costly:
    index: int
    round: int
    seat: int
    played: object
    suggested: object
    cost: float  # points of win chance (0–100) the seat's side lost by it, as estimated
    win_played: float  # the side's win chance after the move played (0–1)
    win_best: float  # after the expert's move
    view: View = attrs.field(eq=False, repr=False)  # the seat's view then, to name moves
    # Why, in a few words: the seat's next moves of that turn after the expert's move, as
    # the search's simulated games play on (bots/follow.py; () if none or the worlds
    # disagree), and by how many PV the final gauge was better for the seat's side, on
    # average.
    then: tuple = ()
    gauge: float = 0.0


@attrs.frozen
class Review:
    curve: tuple[tuple[int, float], ...]  # (action index, the Écolos' win chance 0–1)
    seats: dict[int, tuple[Costly, ...]]  # each seat's costliest decisions, worst first
    reviewed: dict[int, int]  # decisions reviewed per seat


def decisions(setup, actions: Iterable, seats: Iterable[int], content=None) -> list[SeatDecision]:
    """The decisions of `seats` where there was a choice, each with the seat's view then
    (in a reaction window, the seat the engine asks: the one whose answer was taken)."""
    wanted = set(seats)
    state = new_game(setup, content)
    found = []
    for index, action in enumerate(actions):
        pending = state.pending
        if pending is not None and pending.seat in wanted:
            view = view_for(state, pending.seat, with_log=False)
            if len(view.legal) > 1:
                found.append(SeatDecision(index, view, action))
        apply(state, action)
    return found


def review_decisions(
    found: list[SeatDecision],
    content=None,
    budget: int = BUDGET,
    progress: Callable[[int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    confirm: int | None = None,
) -> Review:
    """The review of these decisions, from their views alone (`confirm`: worlds of the
    second look; None: `budget`)."""
    curve = []
    per_seat: dict[int, list[Costly]] = {}
    reviewed: dict[int, int] = {}
    for n, decision in enumerate(found):
        view = decision.view
        seed = zlib.crc32(f"review:{decision.index}:{view.seat}".encode())
        bot = SearchBot(
            seed, content, budget=budget, cap=600.0
        )  # its whole budget: the same review anywhere
        ranked = bot.rank(view, keep=decision.played, should_stop=should_stop)
        reviewed[view.seat] = reviewed.get(view.seat, 0) + 1
        if progress is not None:
            progress(n + 1)
        best = ranked[0]
        if best.win is None:
            continue
        played = next((e for e in ranked if _same(e.action, decision.played)), None)
        costly = None
        if played is not None and played is not best and played.win is not None:
            costly = _confirmed(bot, decision, best, played, confirm or budget, should_stop, seed)
        if costly is not None:
            per_seat.setdefault(view.seat, []).append(costly)
        # The curve: the side's chance after the move played, as the line of a mistake
        # says it (the move played meets every world of the race; the best move's
        # share is the largest of several noisy ones: it read 100 % where the line
        # said 84 %); confirmed, for a mistake named.
        chance = best.win if played is None or played.win is None else played.win
        chance = costly.win_played if costly is not None else chance
        curve.append((decision.index, chance if view.me.side == "ecologist" else 1 - chance))
    seats = {
        seat: tuple(sorted(per_seat.get(seat, ()), key=lambda c: (-c.cost, c.index))[:WORST])
        for seat in sorted(reviewed)
    }
    return Review(tuple(curve), seats, reviewed)


def _confirmed(bot, decision, best, played, worlds: int, should_stop, seed: int):
    """The decision as a mistake (`Costly`), when the search can tell it from noise: the
    best move beat the one played on the worlds both met, beyond a paired 95 % interval;
    then again on `worlds` worlds of their own, which also give the cost (a cost
    measured on the worlds that picked the decision out would carry the luck that picked
    it). None otherwise, or when the better move hurts the seat's own side."""
    view = decision.view
    if played.gap - played.margin <= 0 or harms_own_side(bot, view, best.action):
        return None
    again = {
        action_key(e.action): e
        for e in bot.measure(view, [best.action, played.action], worlds, should_stop)
    }
    best, played = again[action_key(best.action)], again[action_key(played.action)]
    if played.gap - played.margin <= 0 or best.win is None or played.win is None:
        return None
    cost = round(100 * (best.win - played.win), 1)
    if cost <= 0:
        return None
    # a score is the final gauge for the side, ±5 for a win or a loss (bots/expert.py)
    gauge = (best.score - played.score) - 10 * (best.win - played.win)
    return Costly(
        decision.index,
        view.round,
        view.seat,
        decision.played,
        best.action,
        cost,
        played.win,
        best.win,
        view,
        follow_up(view, best.action, bot.content, seed),
        round(gauge, 1),
    )


def review(
    setup, actions, seats=None, content=None, budget: int = BUDGET, progress=None, confirm=None
):
    """The review of a game for `seats` (default: every seat)."""
    seats = range(len(setup.seats)) if seats is None else seats
    found = decisions(setup, actions, seats, content)
    return review_decisions(found, content, budget, progress, confirm=confirm)


def _same(a, b) -> bool:
    return action_key(a) == action_key(b)  # copies of a card are one move


def to_json(result: Review) -> dict:
    """`curve`: [action index, the Écolos' win chance]; `seats`: seat → its costliest
    decisions (moves named by `engine.action_key`, cost in points of win chance)."""
    return {
        "curve": [[index, round(chance, 4)] for index, chance in result.curve],
        "seats": {
            str(seat): [
                {
                    "index": c.index,
                    "round": c.round,
                    "played": action_key(c.played),
                    "suggested": action_key(c.suggested),
                    "then": [action_key(m) for m in c.then],
                    "cost": c.cost,
                    "gauge": c.gauge,
                }
                for c in items
            ]
            for seat, items in result.seats.items()
        },
        "reviewed": {str(seat): n for seat, n in sorted(result.reviewed.items())},
    }


def plot(curve, actions: int, width: int = 60, height: int = 8) -> list[str]:
    """The Écolos' win chance along the game, as lines of text (0 % at the bottom)."""
    if not curve:
        return []
    columns: list[list[float]] = [[] for _ in range(width)]
    for index, chance in curve:
        columns[min(width - 1, index * width // max(1, actions))].append(chance)
    heights = []
    last = None
    for column in columns:
        if column:
            last = sum(column) / len(column)
        heights.append(last)
    rows = []
    for row in range(height, 0, -1):
        top = row / height
        line = "".join(
            " " if h is None else ("█" if h >= top - 0.5 / height else " ") for h in heights
        )
        label = f"{round(100 * top):3d}% " if row in (height, (height + 1) // 2) else "     "
        rows.append(label + "┤" + line)
    rows.append("  0% └" + "─" * width)
    return rows
