"""What a game remembers of its own actions: cheap clones, stable action keys, undo.

- `clone(state)`: an independent copy for searches, hints and replays. What never
  changes is shared (the content, the setup, log entries, frozen actions); every list
  and record the engine mutates is copied.
- `action_key(action)` / `action_from_key(state, seat, key)`: an action named by card
  id, not by card copy, so the keys of a position do not depend on the order of a hand
  and are unique among its legal actions.
- `record(state, action, before)`: what `apply` notes of each action, so that the undo
  rule (`can_undo` / `undo`, engine/rewind.py) can be stated once.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

from .actions import AnswerTrade, Pass, action_name
from .announce import asked_anyway
from .common import card_id
from .legal import legal_actions
from .refusals import IllegalAction


def fingerprint(state) -> tuple:
    """What moves when something hidden or random comes out, or the turn changes."""
    return (
        state.rng,
        len(state.draw_pile),
        len(state.event_pile),
        state.history.reveals,
        state.active,
        state.round,
        state.phase,
        state.stage,
    )


def unseen(state, action) -> bool:
    """A pass in a reaction window by a seat asked only because it could cancel (a bot,
    or a human where not every human is asked): nobody sees it. Whether such a window
    opened at all depends on the cards its seats hold, so that pass must not change what
    may be taken back. A seat every window asks (`asked_anyway`: a human at a table)
    tells nothing by its pass: that pass is a decision like any other, and another
    player's undo stops there."""
    return isinstance(action, Pass) and not asked_anyway(state, action.seat)


def final(action) -> bool:
    """An accepted trade: the initiator pays and the trade is announced at once. Its
    answerer decides again only when the trade's reaction window asks them, so taking
    it back would always cross that window: an acceptance is never taken back."""
    return isinstance(action, AnswerTrade) and action.accept


def record(state, action, before: tuple) -> None:
    """Remember `action`, applied to a state whose fingerprint was `before`."""
    history = state.history
    if not unseen(state, action):
        if history.owner is not None and history.owner != action.seat:
            history.floor = len(history.actions)  # another seat decided: a new run begins
        history.owner = action.seat
    history.actions.append(action)
    if fingerprint(state) != before or state.stage == "over" or final(action):
        history.floor = len(history.actions)
        history.owner = None


# ------------------------------------------------------------ clone


@functools.cache
def _fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls))


def copy_record(record):
    """A mutable attrs record with its lists and dicts copied (frames, pending, flags)."""
    cls: type = type(record)  # `type`, which the type checker knows is hashable
    new: Any = object.__new__(cls)
    for name in _fields(cls):
        value = getattr(record, name)
        if isinstance(value, list):
            value = list(value)
        elif isinstance(value, dict):
            value = dict(value)
        object.__setattr__(new, name, value)
    return new


def _copy_player(player):
    new = copy_record(player)
    new.turn = copy_record(player.turn)
    return new


def clone(state):
    """An independent copy of `state`: applying actions to one never changes the other."""
    cls: type = type(state)
    new: Any = object.__new__(cls)
    for name in _fields(cls):
        value = getattr(state, name)
        if isinstance(value, list):
            value = list(value)  # the piles, the log (entries never change), hp_by_round
        object.__setattr__(new, name, value)
    new.players = [_copy_player(p) for p in state.players]
    new.active_events = [copy_record(e) for e in state.active_events]
    new.round_mods = [copy_record(m) for m in state.round_mods]
    new.stack = [copy_record(f) for f in state.stack]
    if state.pending is not None:
        new.pending = copy_record(state.pending)
    new.history = state.history.copy()
    return new


# ------------------------------------------------------------ action keys


def action_key(action) -> str:
    """A stable name for an action: its kind and values, a card by its id (not its copy).
    `play_card card=tempete cartouche=1 target=2`."""
    parts = [action_name(action)]
    for field in attrs.fields(type(action)):
        if field.name == "seat":
            continue
        value = getattr(action, field.name)
        if value is None or value == field.default and field.name != "card":
            continue
        if field.name == "card":
            value = card_id(value)
        elif isinstance(value, tuple):
            value = ".".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = "yes" if value else "no"
        parts.append(f"{field.name}={value}")
    return " ".join(parts)


def action_from_key(state, seat: int, key: str):
    """The legal action of `seat` that `key` names; IllegalAction if none does."""
    for action in legal_actions(state, seat):
        if action_key(action) == key:
            return action
    raise IllegalAction("not_an_option")
