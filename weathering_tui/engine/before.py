"""The state as an actor chose the action now waiting in a reaction window.

A searcher asked to cancel or let through another seat's action can ask, in each
world it samples, whether that seat would have chosen this action holding the hand
the world gives it (bots/inference.py). That question needs the state just before the
announcement, which `before_announcement` rebuilds from the state (a real one, or a
sampled one: engine/determinize.py) by undoing what announcing did (engine/announce.py).

It does so only where the announcement is the actor's own turn's, with nothing else
being resolved: a card played from the hand, a draw, PA stored. Two of the actor's turn
flags cannot be told back from the state: whether it had already announced something
this turn (`acted`) and played a card (`played_card`). Both come back unset; they only
decide whether a power that needs them was offered.
"""

from __future__ import annotations

from . import actions as act
from .history import clone
from .state import Announcement, GameState, Pending, PendingKind, ReactionFrame

# The announcements it can take back (a card from the hand, a draw, PA stored).
UNDONE = frozenset({"play_card", "draw", "store_ap"})


def before_announcement(state: GameState) -> tuple[GameState, act.Action] | None:
    """A copy of `state` as it was when the actor chose the announced action (pending
    on that seat's turn, with its PA, its card and its turn flags back), and that
    action. None when the window is not a turn's own announcement of a kind in
    `UNDONE`."""
    pending = state.pending
    if pending is None or pending.kind != PendingKind.REACT or len(state.stack) != 1:
        return None
    frame = state.stack[0]
    if not isinstance(frame, ReactionFrame):
        return None
    ann = frame.announcement
    if ann.kind not in UNDONE or ann.from_discard or ann.actor != state.active:
        return None
    prior = clone(state)
    player = prior.players[ann.actor]
    player.ap += ann.cost
    turn = player.turn
    turn.acted = False
    if ann.kind == "play_card":
        card = ann.card
        assert card is not None, "a card play names its card"
        prior.limbo.remove(card)
        player.hand.append(card)
        turn.played_card = False
        stats = player.stats
        stats["cards_played"] -= 1
        if not stats["cards_played"]:
            del stats["cards_played"]  # as before the first card (common.bump)
    elif ann.kind == "draw":
        turn.drew = False
    prior.stack = []
    prior.pending = Pending(PendingKind.TURN, ann.actor)
    prior.version -= 1
    return prior, _action(ann)


def _action(ann: Announcement) -> act.Action:
    if ann.kind == "play_card":
        return act.PlayCard(ann.actor, ann.card or "", ann.cartouche, ann.target)
    if ann.kind == "draw":
        return act.Draw(ann.actor)
    return act.StoreAp(ann.actor, ann.amount)
