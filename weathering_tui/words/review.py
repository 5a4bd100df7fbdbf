"""Words of a game's review (bots/review.py), for `weathering review` and the replay's
review dialog: when a decision was taken, and the expert's move with why it was worth
more (the moves it leads to in the same turn, the final gauge)."""

from __future__ import annotations

from ..engine.common import round_in_phase
from . import Tr
from .describe import move_label


def review_when(tr: Tr, round_: int) -> str:
    """When a reviewed decision was taken, as the header numbers it ("phase 2, round 1"
    for the game's sixth round), or the setup (the mulligan)."""
    if not round_:
        return tr("review.setup")
    per = tr.content.constants.rounds_per_phase
    phase = (round_ - 1) // per + 1
    return tr("review.round", phase=phase, turn=round_in_phase(round_, phase, per))


def suggestion(tr: Tr, costly) -> str:
    """The expert's move, then the moves of that turn it leads to: "discard Cyclone
    (+1 PA) · then play Reforestation: +3 PV"."""
    said = move_label(tr, costly.view, costly.suggested).rstrip(".")
    for move in costly.then:
        said += tr("review.then", move=move_label(tr, costly.view, move).rstrip("."))
    return said


def gauge_note(tr: Tr, costly) -> str:
    """By how much the final gauge was better for the seat's side after the expert's
    move, on average ("; the gauge ends about 2 PV higher"), or nothing below 1 PV."""
    pv = round(costly.gauge)
    if pv < 1:
        return ""
    side = costly.view.me.side
    return tr("review.gauge_higher" if side == "ecologist" else "review.gauge_lower", pv=pv)


def review_item(tr: Tr, costly, short: bool = False) -> str:
    """One costly decision, as `weathering review` prints it, or `short` as the replay's
    dialog lists it."""
    words = {
        "when": review_when(tr, costly.round),
        "played": move_label(tr, costly.view, costly.played).rstrip("."),
        "suggested": suggestion(tr, costly),
        "cost": round(costly.cost),  # whole points: its noise is wider than a tenth
    }
    if short:
        return tr("replay.review.item", **words)
    return tr(
        "cli.review.item",
        index=costly.index,
        before=round(100 * costly.win_played),
        after=round(100 * costly.win_best),
        gauge=gauge_note(tr, costly),
        **words,
    )
