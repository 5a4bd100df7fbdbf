"""The resolution stack as every seat may know it (`View.resolving`, `View.limbo`).

Mid-effect, what happens next is held by the stack's frames (engine/state.py): which
effects remain, who discards or gives how many, whose answer a window waits for. Most
of it is public, announced or counted; a view carries a copy of every frame with the
rest hidden, so that a bot can rebuild a world at any decision (engine.determinize):

- cards nobody else has seen are `HIDDEN`: a card announced to be put in a deck (and
  its place in the announced cards awaiting resolution), the cards picked blind for an
  exchange, the top cards a seat peeked at to arrange them, the mulligan's picks (the
  deciding seat sees its own in `PendingView.mine`);
- a reaction window's progress (`index`) is 0: the engine asks its seats one at a time,
  and how far it got would tell who was not asked, that is who holds no cancel.

The copies share nothing with the state, so a view keeps what it showed.
"""

from __future__ import annotations

import attrs

from .history import copy_record
from .state import (
    ArrangeFrame,
    EventWindowFrame,
    ExchangeFrame,
    GameState,
    MulliganFrame,
    ReactionFrame,
)

HIDDEN = "?"  # a card in a frame that the viewing seat has not seen


def public_stack(state: GameState) -> tuple:
    return tuple(_public(frame) for frame in state.stack)


def public_limbo(state: GameState) -> tuple[str, ...]:
    """The announced cards awaiting resolution; a card announced into a deck is hidden."""
    if not state.limbo:
        return ()
    decked = {
        f.announcement.card
        for f in state.stack
        if isinstance(f, ReactionFrame) and f.announcement.kind == "put_in_deck"
    }
    return tuple(HIDDEN if card in decked else card for card in state.limbo)


def _public(frame):
    kind = type(frame)
    if kind is ReactionFrame:
        announcement = frame.announcement
        if announcement.kind == "put_in_deck":
            announcement = attrs.evolve(announcement, card=HIDDEN)
        return ReactionFrame(announcement, list(frame.order), 0)
    if kind is EventWindowFrame:
        return EventWindowFrame(frame.card, list(frame.order), 0)
    copy = copy_record(frame)
    if kind is MulliganFrame:
        copy.picked = []
    elif kind is ExchangeFrame:
        copy.pick_first = HIDDEN if frame.pick_first is not None else None
        copy.pick_second = HIDDEN if frame.pick_second is not None else None
    elif kind is ArrangeFrame:
        copy.seen = [HIDDEN] * len(frame.seen)
    return copy
