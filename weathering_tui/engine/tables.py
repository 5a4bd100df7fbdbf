"""What a game's rules and seating fix once, remembered: the engine asks these at every
decision, and they never change during a game.

A game's seats follow its configuration (Écolos first, then Lobbyistes: `new_game`
refuses any other order), so what depends only on the cards, the characters and who
sits where is kept per (content, configuration): a card copy's cost for a side in a
phase, the plays a card offers a seat on its turn (each cartouche with each valid
target), the seats a target selector names, the cards that can cancel. Every entry is
computed on first use by the very rule it remembers (`frugal_cost`, `seats_named`...),
so a table is a memo, never a second statement of a rule.
"""

from __future__ import annotations

from ..content import effects as fx
from . import actions as act
from .common import card_id, copies_of, frugal_cost, seats_after, seats_named

_TABLES: dict[tuple, Tables] = {}
_LAST: list = [None, None, None]  # the last (content, configuration, tables) asked for


def tables_for(state) -> Tables:
    """The tables of this state's rules and configuration."""
    last = _LAST
    if last[0] is state.content and last[1] == state.setup.configuration:
        return last[2]  # a game asks again and again
    return tables_of(state.content, state.setup.configuration)


def tables_of(content, configuration: str) -> Tables:
    key = (content, configuration)
    tables = _TABLES.get(key)
    if tables is None:
        tables = _TABLES[key] = Tables(content, configuration)
    _LAST[:] = content, configuration, tables
    return tables


class _Costs(dict):
    """Card copy -> what it costs a side in a phase (frugality, [RB 124])."""

    def __init__(self, cards, phase: int, side: str):
        super().__init__()
        self.cards, self.phase, self.side = cards, phase, side

    def __missing__(self, instance: str) -> int:
        printed = self.cards[card_id(instance)].cost
        cost = self[instance] = frugal_cost(printed, self.phase, self.side)
        return cost


class _Plays(dict):
    """Card copy -> the own-turn plays it offers one seat: every cartouche that is not a
    cancel, with every target its selector allows, in the legal list's order."""

    def __init__(self, tables: Tables, seat: int):
        super().__init__()
        self.tables, self.seat = tables, seat

    def __missing__(self, instance: str) -> tuple:
        seat = self.seat
        plays = []
        for index, selector in self.tables.own_turn_cartouches(card_id(instance)):
            for target in self.tables.targets(selector, seat):
                plays.append(act.PlayCard(seat, instance, index, target))
        found = self[instance] = tuple(plays)
        return found


class _Made(dict):
    """Value -> one seat's action of one kind with that value (a card copy to put in the
    deck or discard, a partner, an amount of PA, a power's target), made once."""

    def __init__(self, make, seat: int):
        super().__init__()
        self.make, self.seat = make, seat

    def __missing__(self, value):
        action = self[value] = self.make(self.seat, value)
        return action


def _power_on_card(seat: int, card: str) -> act.UsePower:
    return act.UsePower(seat, card=card)


class Tables:
    """The memo of one (content, configuration): see the module's docstring."""

    def __init__(self, content, configuration: str):
        config = content.configurations[configuration]
        self.content = content
        self.sides = ("ecologist",) * config.ecologists + ("lobbyist",) * config.lobbyists
        self.costs = {
            (phase, side): _Costs(content.cards, phase, side)
            for phase in (1, 2)
            for side in ("ecologist", "lobbyist")
        }
        seats = range(len(self.sides))
        self.plays = [_Plays(self, seat) for seat in seats]
        self.decks = [_Made(act.PutInDeck, seat) for seat in seats]
        self.discards = [_Made(act.Discard, seat) for seat in seats]
        self.choices = [_Made(act.ChooseCard, seat) for seat in seats]  # by card copy
        # The seats other than one, in seat order (a seat never trades with itself).
        self.others = [tuple(s for s in seats if s != seat) for seat in seats]
        self.proposals = [_Made(act.ProposeTrade, seat) for seat in seats]
        self.stores = [_Made(act.StoreAp, seat) for seat in seats]
        self.powers = [_Made(act.UsePower, seat) for seat in seats]  # by target
        self.powers_on_card = [_Made(_power_on_card, seat) for seat in seats]
        # A reaction window's seats: the actor's opponents, in seat order after it (§8.3).
        self.opponents = [
            tuple(s for s in seats_after(len(seats), seat) if self.sides[s] != self.sides[seat])
            for seat in seats
        ]
        # StoreAp of 1 to `ap` PA, by `ap`.
        self.store_lists = [_Made(self._stores_upto, seat) for seat in seats]
        self.draws = [act.Draw(seat) for seat in seats]
        self.ends = [act.EndTurn(seat) for seat in seats]
        self._targets: dict[tuple, tuple] = {}
        self._cartouches: dict[str, tuple] = {}
        self._selectors: dict = {}
        # Every card copy a game deals, and those of the cards that can cancel: a hand
        # within the first set and disjoint from the second holds no cancel card.
        copies = {card.id: copies_of(card) for card in content.cards.values()}
        # The draw pile and the event pile a new game shuffles, in the rules' order: the
        # same strings in every game (a dict or a set finds one by identity first).
        self.card_copies = tuple(c for names in copies.values() for c in names)
        self.event_copies = tuple(c for e in content.events.values() for c in copies_of(e))
        self.copies = frozenset(c for names in copies.values() for c in names)
        # The characters whose power cancels in a reaction window (§5.1).
        self.reaction_powers = frozenset(
            c.id for c in content.characters.values() if c.power.timing == "reaction"
        )
        self.cancel_copies = frozenset(
            c
            for card in content.cards.values()
            if card.cancel_effect() is not None
            for c in copies[card.id]
        )
        # The copies that cannot cancel: a hand within them holds no cancel card.
        self.plain_copies = self.copies - self.cancel_copies

    def _stores_upto(self, seat: int, ap: int) -> tuple:
        return tuple(self.stores[seat][amount] for amount in range(1, ap + 1))

    def targets(self, selector: str | None, seat: int) -> tuple:
        """The seats `selector` lets `seat` aim at (`seats_named`)."""
        key = (selector, seat)
        found = self._targets.get(key)
        if found is None:
            found = self._targets[key] = tuple(seats_named(self.sides, selector, seat))
        return found

    def selector(self, effects) -> str | None:
        """`fx.target_selector(effects)` of an effect list of the rules (a power's, a
        card's: they live as long as the content), once per list."""
        found = self._selectors.get(id(effects))
        if found is None or found[0] is not effects:
            found = self._selectors[id(effects)] = (effects, fx.target_selector(effects))
        return found[1]

    def own_turn_cartouches(self, cid: str) -> tuple[tuple[int, str | None], ...]:
        """A card's cartouches that can be played in its owner's turn (not a cancel),
        each with its target selector."""
        found = self._cartouches.get(cid)
        if found is None:
            found = self._cartouches[cid] = tuple(
                (index, fx.target_selector(cartouche))
                for index, cartouche in enumerate(self.content.cards[cid].cartouches)
                if not any(isinstance(e, fx.Cancel) for e in cartouche)
            )
        return found
