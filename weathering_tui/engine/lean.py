"""A seat's view built only as far as a bot reads it: the lean path of rollouts.

A bot inside a search (bots/search.py) decides thousands of times a second; building
every field of a `View` for each decision was most of a rollout's cost, while the
heuristic bot reads a handful of them. `LeanView(state, seat)` answers the same
attribute names with the same values, each computed from the state the first time it
is read, by the very functions `view_for` uses (engine/view.py): so a bot decides the
same on either (tests/test_lean.py plays whole games both ways).

Read it before the state moves on: it keeps a reference to the live state, never a
copy. A field it does not compute itself comes from a full view built once, on demand.
The log is never part of it (a rollout keeps none).
"""

from __future__ import annotations

from .common import GAUGE_MAX, constants, mods, round_in_phase, threshold
from .state import GameState
from .tables import tables_for
from .view import _hand_cards, _player, decided, view_for
from .view_records import PlayerView


class _Players:
    """The view's `players`, each built when first read."""

    __slots__ = ("_built", "_seat", "_state")

    def __init__(self, state: GameState, seat: int):
        self._state = state
        self._seat = seat
        self._built: dict[int, PlayerView] = {}

    def __getitem__(self, index: int) -> PlayerView:
        index = index % len(self._state.players)
        built = self._built.get(index)
        if built is None:
            built = self._built[index] = _player(
                self._state, self._state.players[index], self._seat
            )
        return built

    def __len__(self) -> int:
        return len(self._state.players)

    def __iter__(self):
        return (self[i] for i in range(len(self._state.players)))


def _lean_costs(state: GameState, seat: int, legal: list) -> dict[str, int]:
    """The view's `costs` (`view._costs`: the hand's effective costs, then those of the
    discard-pile cards an action offers to play), without building the hand's records."""
    player = state.players[seat]
    table = tables_for(state).costs[state.phase, player.side]  # effective costs
    costs = {instance: table[instance] for instance in player.hand}
    for action in legal:
        card = getattr(action, "card", None)
        if card is not None and card not in costs:
            costs[card] = table[card]
    return costs


class _Constant:
    """A LeanView field that is one of the configuration's constants, by its name."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: LeanView, owner: type | None = None) -> int:
        return getattr(view._constants, self.name)


class LeanView:
    """The View of `seat` on `state`, field by field as read (same names, same values).
    What every decision reads (the legal actions, the pending decision) is computed at
    once; the rest when first read (plain attributes: `functools.cached_property` takes
    a lock on every read in Python 3.11, which cost more than it saved here)."""

    def __init__(self, state: GameState, seat: int):
        self._state = state
        self.seat = seat
        self.version = state.version
        self.round = state.round
        self.phase = state.phase
        self.hp = state.hp
        self.stage = state.stage
        self.active = state.active
        self.players = players = _Players(state, seat)
        self.pending, legal = decided(state, seat)
        self._legal_list = legal
        self.legal = tuple(legal)
        self._constants = constants(state)
        self._costs: dict[str, int] | None = None
        self._cost_table: dict[str, int] | None = None
        # What nearly every decision of a bot reads, made at once (plain attributes).
        index = seat % len(state.players)  # `players[seat]`, made here at once
        me = players._built[index] = _player(state, state.players[index], seat)
        self.me: PlayerView = me
        self.heal_mod, self.damage_mod = mods(state)

    @property
    def hand(self):
        return _hand_cards(self._state, self.seat, self._legal_list)

    @property
    def costs(self) -> dict[str, int]:
        costs = self._costs
        if costs is None:
            costs = self._costs = _lean_costs(self._state, self.seat, self._legal_list)
        return costs

    def cost(self, instance: str) -> int:
        """`costs[instance]`, for a card in hand or one an action offers: read from the
        table of effective costs `costs` is made of (the same value), without making
        `costs` (of another card it answers too, where a view's `costs` has no entry)."""
        table = self._cost_table
        if table is None:
            state = self._state
            side = state.players[self.seat].side
            table = self._cost_table = tables_for(state).costs[state.phase, side]
        return table[instance]

    @property
    def threshold(self) -> int:
        return threshold(self._state)

    rounds_per_phase = _Constant()
    hand_limit = _Constant()
    deck_limit = _Constant()
    ap_cap = _Constant()

    @property
    def round_in_phase(self) -> int:
        return round_in_phase(self.round, self.phase, self._constants.rounds_per_phase)

    @property
    def level_thresholds(self) -> tuple[int, int]:
        second, third = self._constants.level_thresholds
        return second, third

    gauge_max = GAUGE_MAX

    @property
    def draw_pile_count(self) -> int:
        return len(self._state.draw_pile)

    @property
    def discard_pile(self) -> tuple[str, ...]:
        return tuple(self._state.discard_pile)

    def __getattr__(self, name: str):
        # Only for the fields not given above (reached when normal lookup fails): a
        # full view, built once.
        if name.startswith("_"):
            raise AttributeError(name)
        full = self.__dict__.get("_full_view")
        if full is None:
            full = self.__dict__["_full_view"] = view_for(self._state, self.seat, with_log=False)
        return getattr(full, name)
