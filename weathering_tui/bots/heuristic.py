"""The heuristic bot: sensible play for either side, from its own seat's view only.

Strategy
--------
Every card is scored for the bot's side by what it does to the gauge: a heal is
worth its PV to the Écolos, a damage its PV to the Lobbyistes; cancel cards are
kept for reactions; everything the other side wants is fuel for the discard action.

Écolo, on its turn:
  1. discard the best fuel card (a damage card) for PA;
  2. in phase 1, build a deck of 4–6 cards aiming at a synergy (one type, usually
     anthropique, where the heals are); heal now instead when the gauge is low;
  3. play heals (best PV per PA first), keeping enough PA to cancel a Lobbyiste's
     big strike when it holds a cancel card or Objection;
  4. use its power when it pays (Taxe verte, Action directe, Eurêka), store spare PA
     to level the power up, draw with what is left, and end the turn.
Lobbyiste, on its turn: discard a heal for PA, use its power (Croissance infinie,
Trafic d'influence, Trésor de guerre on the best damage card in the discard pile),
play damage (best PV per PA; PA drains on the richest Écolo, random discards on the
fullest hand), draw, store the rest.
Reactions: an Écolo cancels a Lobbyiste's play worth 3 PV or more (or a cheap
power); a Lobbyiste cancels an Écolo's heal of 3 or more and deck-building late in
phase 1; Manifestation stops an event that favours the other side. Allies never
cancel each other.
Choices inside effects: give away or discard what the bot's side needs least, take
what it needs most, always claim a synergy, refuse trades, keep the mulligan hand
unless it holds nothing for its side.
"""

from __future__ import annotations

import functools
import random
from itertools import groupby

from ..content import default_content
from ..content import effects as fx
from ..engine import actions as act
from ..engine import card_id
from .heuristic_answers import OffTurnAnswers
from .seat_view import SeatView, decision, target_of

TURN_GUARD = 200


@functools.cache
def _memos(content) -> tuple[dict[tuple, float], dict[tuple, tuple], dict[str, bool]]:
    """What a heuristic bot remembers of the cards (their values, their cartouches'
    swings, whether they cancel): each a function of the rules and its key alone, so
    every bot of the same rules shares them (a simulation's new bots each game found
    them empty)."""
    return {}, {}, {}


class HeuristicBot:
    name = "heuristic"
    needs_view = True

    def __init__(self, seed: int = 0, content=None):
        self.rng = random.Random(seed)
        self.content = content or default_content()
        # Shared by every heuristic bot of these rules (`_memos`).
        self._values, self._swings, self._cancels = _memos(self.content)
        self._sorted: list | None = None  # the options `_groups` sorts out (`_of`)
        self._groups: dict = {}
        self.turn_decisions = 0
        self.answers = OffTurnAnswers(self)  # its answers outside its turn

    # ------------------------------------------------------------ card values

    def card(self, instance):
        return self.content.cards[card_id(instance)]

    def swing(self, cartouche, view: SeatView) -> float:
        """What a cartouche does to the gauge, counting its side effects as PV (depends
        only on the cartouche and the active heal and damage modifiers: remembered, by
        the cartouche's identity, which hashes much faster than its effects)."""
        key = (id(cartouche), view.heal_mod, view.damage_mod)
        known = self._swings.get(key)
        if known is None or known[0] is not cartouche:
            known = self._swings[key] = (cartouche, self._swing(cartouche, view))
        return known[1]

    def _swing(self, cartouche, view: SeatView) -> float:
        return float(fx.gauge_swing(cartouche, view.heal_mod, view.damage_mod))

    def value(self, instance, view: SeatView, side: str) -> float:
        """How much this card is worth keeping for `side` (depends only on the card, the
        side and the active heal and damage modifiers, so it is remembered)."""
        key = (card_id(instance), side, view.heal_mod, view.damage_mod)
        known = self._values.get(key)
        if known is None:
            known = self._values[key] = self._value(instance, view, side)
        return known

    def _value(self, instance, view: SeatView, side: str) -> float:
        card = self.card(instance)
        if card.cancel_effect() is not None:
            return 2.5
        best = 0.0
        for cartouche in card.cartouches:
            gauge = self.swing(cartouche, view)
            worth = gauge if side == "ecologist" else -gauge
            for effect in cartouche:
                if isinstance(effect, fx.Draw | fx.TakeFromDiscard | fx.Cycle):
                    worth += 0.6
                if isinstance(effect, fx.LoseAp) and effect.who == "each_ecologist":
                    worth += 1.5 if side == "lobbyist" else -1.0
                if isinstance(effect, fx.LoseAp | fx.DiscardRandom) and effect.who.startswith(
                    "target"
                ):
                    worth += 1.0
            best = max(best, worth)
        return best

    def cancels(self, instance) -> bool:
        """Whether this card can cancel (remembered by card)."""
        cid = card_id(instance)
        known = self._cancels.get(cid)
        if known is None:
            known = self._cancels[cid] = self.content.cards[cid].cancel_effect() is not None
        return known

    def cost(self, instance, view: SeatView) -> int:
        return view.cost(instance)

    def power_cost(self, view: SeatView) -> int:
        return view.me.power_cost

    # ------------------------------------------------------------ entry point

    def choose(self, view: SeatView):
        options = list(view.legal)
        kind = decision(view).kind
        if kind == "turn":
            self.turn_decisions += 1
            action = self.turn(view, options)
            if self.turn_decisions > TURN_GUARD:
                action = next(a for a in options if isinstance(a, act.EndTurn))
            if isinstance(action, act.EndTurn):
                self.turn_decisions = 0
            return action
        handler = getattr(self.answers, f"on_{kind}", None)
        if handler is not None:
            choice = handler(view, options)
            if choice is not None:
                return choice
        return options[0]

    # ------------------------------------------------------------ helpers

    def enemies(self, view: SeatView):
        return [p for p in view.players if p.side != view.me.side]

    def reserve(self, view: SeatView) -> int:
        """PA kept back to cancel in the other side's turns."""
        me = view.me
        costs = []
        power = self.content.characters[me.character].power
        if power.timing == "reaction":
            costs.append(self.power_cost(view))
        for instance in me.hand or ():
            if self.cancels(instance):
                costs.append(self.cost(instance, view))
        return min(costs) if costs else 0

    def best_target(self, view: SeatView, options: list, key) -> object:
        def score(a):
            return key(view.players[a.target]) if a.target is not None else 0

        return max(options, key=score)

    def _plays(self, view: SeatView, options: list) -> list:
        return self._of(options, act.PlayCard)

    def _of(self, options: list, kind) -> list:
        """The options of one kind, in their order: a turn's list is sorted out once, as
        the steps of a turn each look for their kind (read only)."""
        if options is not self._sorted:
            groups: dict = {}
            for kind_of, run in groupby(options, type):  # actions have no subclasses
                groups.setdefault(kind_of, []).extend(run)
            self._sorted, self._groups = options, groups
        return self._groups.get(kind, [])

    # ------------------------------------------------------------ turns

    def turn(self, view: SeatView, options: list):
        if view.me.side == "ecologist":
            return self.ecologist_turn(view, options) or self._end(options)
        return self.lobbyist_turn(view, options) or self._end(options)

    def _end(self, options):
        return next(a for a in options if isinstance(a, act.EndTurn))

    def _discard_fuel(self, view: SeatView, options: list, side: str):
        discards = self._of(options, act.Discard)
        if not discards:
            return None
        fuel = min(discards, key=lambda a: self.value(a.card, view, side))
        if self.value(fuel.card, view, side) <= 0.5:
            return fuel
        return None

    def ecologist_turn(self, view: SeatView, options: list):
        me = view.me
        spare = me.ap - self.reserve(view)
        fuel = self._discard_fuel(view, options, "ecologist")
        if fuel is not None:
            return fuel
        heals = [
            a
            for a in self._plays(view, options)
            if self.swing(self.card(a.card).cartouches[a.cartouche], view) > 0
            and self.cost(a.card, view) <= spare
        ]
        if view.phase == 1:
            deck_move = self._build_deck(view, options, spare)
            last_of_phase_one = view.phase == 1 and view.round_in_phase == view.rounds_per_phase
            urgent = view.hp <= 12 or (last_of_phase_one and view.hp < view.threshold)
            if deck_move is not None and not (urgent and heals):
                return deck_move
        if heals:
            return max(
                heals,
                key=lambda a: (
                    self.swing(self.card(a.card).cartouches[a.cartouche], view)
                    / max(1, self.cost(a.card, view))
                ),
            )
        helper = self._helper_play(view, options, spare)
        if helper is not None:
            return helper
        power = self._power(view, options, spare)
        if power is not None:
            return power
        return self._finish_turn(view, options, spare)

    def _build_deck(self, view: SeatView, options: list, spare: int):
        me = view.me
        moves = self._of(options, act.PutInDeck)
        if not moves or spare < 1:
            return None
        deck_types = {self.card(c).type for c in me.deck or ()}
        target = view.deck_limit if view.round >= 3 else 4

        def score(a):
            card = self.card(a.card)
            worth = self.value(a.card, view, "ecologist")
            if deck_types and card.type in deck_types and len(deck_types) == 1:
                worth += 1.5
            elif not deck_types and card.type == "anthropique":
                worth += 1.0
            elif deck_types and card.type not in deck_types:
                worth -= 1.5
            return worth

        best = max(moves, key=score)
        if len(me.deck or ()) < target and score(best) >= 1.5:
            return best
        return None

    def _helper_play(self, view: SeatView, options: list, spare: int):
        """Non-gauge cards that help: draws, taking back from the discard, cycling."""
        for a in self._plays(view, options):
            if self.cost(a.card, view) > spare:
                continue
            cartouche = self.card(a.card).cartouches[a.cartouche]
            if self.swing(cartouche, view) < 0:
                continue
            ops = {fx.op_name(e) for e in cartouche}
            cards_left = view.draw_pile_count + len(view.discard_pile)
            if ops & {"take_from_discard", "draw"} and cards_left:
                if "draw" in ops and a.target is not None and a.target != view.seat:
                    continue
                return a
        return None

    def _power(self, view: SeatView, options: list, spare: int):
        powers = self._of(options, act.UsePower)
        if not powers:
            return None
        me = view.me
        char = me.character
        cost = self.power_cost(view)
        if cost > spare:
            return None
        if char == "thomas":
            allies = [a for a in powers if view.players[target_of(a)].side == me.side]
            if cost < 3 or any(a.target != view.seat for a in allies):
                return min(allies, key=lambda a: view.players[target_of(a)].ap)
            return None
        if char == "cassy":
            return self.best_target(view, powers, lambda p: p.hand_count)
        if char == "amir":
            targets = [a for a in powers if view.players[target_of(a)].side != me.side]
            return targets[0] if targets and spare >= cost + 1 else None
        if char in ("insatiable",):
            return powers[0]
        if char == "au_bras_long":
            drained = sum(min(1, p.ap) for p in view.players if p.side == "ecologist")
            return powers[0] if drained >= 2 else None
        if char == "aux_poches_pleines":
            return max(powers, key=lambda a: self.value(a.card, view, "lobbyist"))
        return None

    def _finish_turn(self, view: SeatView, options: list, spare: int):
        me = view.me
        stores = self._of(options, act.StoreAp)
        power = self.content.characters[me.character].power
        useful_power = power.id not in ("previsions", "diplomatie")
        top = view.level_thresholds[-1]  # the stored PA that reach the last level
        if stores and useful_power and me.stored_ap < top and spare >= 2:
            amount = min(spare - 1, top - me.stored_ap)
            choice = next((a for a in stores if a.amount == amount), None)
            if choice is not None:
                return choice
        draw = next((a for a in options if isinstance(a, act.Draw)), None)
        if draw is not None and spare >= 1 and (me.hand_count or 0) < view.hand_limit:
            return draw
        return None

    def lobbyist_turn(self, view: SeatView, options: list):
        me = view.me
        # PA kept to cancel serve nothing once no Écolo acts again: the last round's
        # Lobbyiste turns end the game (a win was once left in hand with 6 PA unspent)
        last = view.phase == 2 and view.round_in_phase == view.rounds_per_phase
        spare = me.ap - (self.reserve(view) if view.round >= 3 and not last else 0)
        fuel = self._discard_fuel(view, options, "lobbyist")
        if fuel is not None:
            return fuel
        power = self._power(view, options, me.ap)
        if power is not None and me.character != "aux_poches_pleines":
            return power
        strikes = []
        for a in self._plays(view, options):
            if self.cost(a.card, view) > spare:
                continue
            worth = self.strike_value(a, view)
            if worth > 0:
                strikes.append((worth / max(1, self.cost(a.card, view)), worth, a))
        if strikes:  # the most for its PA; on the last turn, the most: the PA are spent anyway
            return max(strikes, key=lambda s: (s[1], s[0]) if last else (s[0], s[1]))[2]
        if power is not None:
            return power
        return self._finish_turn(view, options, spare)

    def strike_value(self, a: act.PlayCard, view: SeatView) -> float:
        cartouche = self.card(a.card).cartouches[a.cartouche]
        worth = -self.swing(cartouche, view)
        target = view.players[a.target] if a.target is not None else None
        for effect in cartouche:
            if isinstance(effect, fx.LoseAp):
                if effect.who == "each_ecologist":
                    worth += 0.5 * sum(min(effect.amount, p.ap) for p in self.enemies(view))
                elif effect.who == "all_players":
                    worth += 0.5 * sum(min(effect.amount, p.ap) for p in self.enemies(view))
                    worth -= 0.5 * min(effect.amount, view.me.ap - self.cost(a.card, view))
                elif target is not None:
                    gain = 0.5 * min(effect.amount, target.ap)
                    worth += gain if target.side != view.me.side else -gain
            if isinstance(effect, fx.DiscardRandom) and target is not None:
                gain = 0.8 * min(effect.amount, target.hand_count)
                worth += gain if target.side != view.me.side else -gain
            if isinstance(effect, fx.Draw | fx.Cycle | fx.DiscardThenDraw):
                worth += 0.4
        if target is not None and target.side == view.me.side and worth > 0:
            worth -= 1
        return worth
