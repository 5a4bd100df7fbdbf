"""The heuristic bot's answers outside its turn (bots/heuristic.py plays the turns):
the mulligan, cancel or let an action happen, trades, and the choices inside effects.

Give away or discard what its side needs least, take what it needs most, always claim
a synergy, refuse trades, keep the mulligan hand unless it holds nothing for its side;
an Écolo cancels a Lobbyiste's play worth 3 PV or more (or a cheap power), a Lobbyiste
an Écolo's heal of 3 or more and deck-building late in phase 1; Manifestation stops an
event that favours the other side; allies never cancel each other. Each answer reads
the cards through the bot that owns it (its values, costs and swings).
"""

from __future__ import annotations

from typing import Protocol

from ..content import CardDef, Content
from ..content import effects as fx
from ..engine import actions as act
from ..engine import card_id
from .seat_view import SeatView, decision


class CardSense(Protocol):
    """What the answers read of the bot that owns them (bots/heuristic.py)."""

    content: Content

    def card(self, instance: str) -> CardDef: ...
    def value(self, instance: str, view: SeatView, side: str) -> float: ...
    def cost(self, instance: str, view: SeatView) -> int: ...
    def power_cost(self, view: SeatView) -> int: ...
    def swing(self, cartouche, view: SeatView) -> float: ...
    def strike_value(self, a: act.PlayCard, view: SeatView) -> float: ...


class OffTurnAnswers:
    """One heuristic bot's answers to the decisions outside its turn (`on_<kind>`)."""

    def __init__(self, bot: CardSense):
        self.bot = bot

    def on_mulligan(self, view: SeatView, options: list):
        side = view.me.side
        hand = view.me.hand or ()
        useless = [c for c in hand if self.bot.value(c, view, side) <= 0.5]
        if len(useless) >= 3:  # put every useless card back, one pick at a time
            for picked in decision(view).mine.get("picked", ()):
                if picked in useless:
                    useless.remove(picked)
            for a in options:
                if a.card is not None and a.card in useless:
                    return a
        return next(a for a in options if a.card is None)

    def on_react(self, view: SeatView, options: list):
        cancels = [a for a in options if isinstance(a, act.Cancel)]
        if not cancels:
            return options[0]
        info = decision(view).info
        cheapest = min(cancels, key=lambda a: self._cancel_cost(a, view))
        if info.get("action") == "event":
            event = self.bot.content.events[card_id(info["card"])]
            theirs = "lobbyists" if view.me.side == "ecologist" else "ecologists"
            favours_them = event.leans == theirs
            return cheapest if favours_them else options[0]
        actor = view.players[info["seat"]]
        if actor.side == view.me.side:
            return options[0]
        threat = self._threat(view, info)
        limit = 3 if view.me.side == "ecologist" else 3
        if threat >= limit:
            return cheapest
        if threat >= 2 and self._cancel_cost(cheapest, view) <= 2:
            return cheapest
        return options[0]

    def _cancel_cost(self, a: act.Cancel, view: SeatView) -> int:
        if a.card is None:
            return self.bot.power_cost(view)
        return self.bot.cost(a.card, view)

    def _threat(self, view: SeatView, info: dict) -> float:
        """How much the announced action would hurt this bot's side."""
        kind = info.get("action")
        mine = view.me.side
        if kind == "play_card":
            cartouche = self.bot.card(info["card"]).cartouches[info.get("cartouche", 0)]
            gauge = self.bot.swing(cartouche, view)
            harm = -gauge if mine == "ecologist" else gauge
            for effect in cartouche:
                drains_us = isinstance(effect, fx.LoseAp) and effect.who == "each_ecologist"
                if drains_us and mine == "ecologist":
                    harm += 1
            return harm
        if kind == "put_in_deck" and mine == "lobbyist":
            return 2.5 if view.round >= 4 else 0
        if kind == "use_power":
            char = view.players[info["seat"]].character
            return {"insatiable": 2, "au_bras_long": 1.5, "thomas": 1.5, "amir": 1}.get(char, 0)
        return 0

    def on_trade_answer(self, view: SeatView, options: list):
        return next(a for a in options if not a.accept)

    def _least(self, view: SeatView, options: list, side: str):
        cards = [a for a in options if getattr(a, "card", None) is not None]
        if not cards:
            return options[0]
        return min(cards, key=lambda a: self.bot.value(a.card, view, side))

    def on_choose_discard(self, view: SeatView, options: list):
        info = decision(view).info
        if info.get("optional"):
            worst = self._least(view, options, view.me.side)
            if self.bot.value(worst.card, view, view.me.side) <= 0.5:
                return worst
            return next(a for a in options if a.card is None)
        return self._least(view, options, view.me.side)

    def on_choose_give(self, view: SeatView, options: list):
        target = view.players[decision(view).info["target"]]
        cards = [a for a in options if a.card is not None]
        if target.side == view.me.side and cards:
            best = max(cards, key=lambda a: self.bot.value(a.card, view, target.side))
            if self.bot.value(best.card, view, target.side) >= 2:
                return best
        return next(a for a in options if a.card is None)

    def on_choose_take(self, view: SeatView, options: list):
        return max(options, key=lambda a: self.bot.value(a.card, view, view.me.side))

    def on_choose_exchange(self, view: SeatView, options: list):
        return self._least(view, options, view.me.side)

    def on_choose_option(self, view: SeatView, options: list):
        def score(a):
            words = decision(view).info.get("source", "")
            event = self.bot.content.events.get(words)
            effects: tuple = ()
            if event is not None:
                for effect in (*event.on_reveal, *event.each_round):
                    if isinstance(effect, fx.PlayerChoice | fx.GroupChoice):
                        effects = effect.options[a.option]
            total = 0.0
            for effect in effects:
                if isinstance(effect, fx.Heal):
                    total += effect.amount if view.hp < view.gauge_max else 0
                if isinstance(effect, fx.IncomeMod):
                    total += 1.5
                if isinstance(effect, fx.LoseAp):
                    total -= 0.5
                if isinstance(effect, fx.DiscardOwn):
                    hand = view.me.hand or ()
                    worst = min((self.bot.value(c, view, view.me.side) for c in hand), default=0)
                    total -= 0.2 + worst / 2
            return total

        return max(options, key=score)

    def on_second_card(self, view: SeatView, options: list):
        return max(options, key=lambda a: self.bot.strike_value(a, view))

    def on_claim_synergy(self, view: SeatView, options: list):
        return next((a for a in options if a.claim), options[0])
