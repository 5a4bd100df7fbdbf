"""The game screen's keys, in one table (no Textual): for each key its action, when it
applies (a predicate over a `KeyContext`: the view, what the session can, whether the
screen is busy, whose turn it is), the words that name it and what the footer shows.

The screen's bindings, Textual's `check_action`, the footer (KeyBar) and the help's
list of keys all read `KEYS`: a key added here is bound, checked, shown and explained.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import TYPE_CHECKING

import attrs

from ..engine import View
from ..engine import actions as act
from ..play.session import bot_deciding, may_hint, may_undo

if TYPE_CHECKING:
    from ..play.session import Capabilities, GameSession


@attrs.define(slots=False)
class KeyContext:
    """What decides whether a key applies now, each part computed once when asked."""

    session: GameSession
    selected: int = 0  # the hand's selected card
    busy: bool = False  # a dialog or privacy screen is up, a bot thinks or is paced

    @cached_property
    def view(self) -> View:
        return self.session.view()

    @property
    def can(self) -> Capabilities:
        return self.session.can

    @cached_property
    def bot_turn(self) -> bool:
        return bot_deciding(self.session)

    @cached_property
    def may_undo(self) -> bool:
        return may_undo(self.session)

    @cached_property
    def may_hint(self) -> bool:
        return may_hint(self.session)

    @cached_property
    def my_turn(self) -> bool:
        """This seat plays its turn with the keys now."""
        pending = self.view.pending
        return (
            not self.busy
            and pending is not None
            and pending.kind == "turn"
            and pending.seat == self.view.seat
            and not self.bot_turn
        )

    @cached_property
    def card(self):
        """The selected card of the hand, with what it allows now (a HandCard), or None."""
        hand = self.view.hand
        return hand[self.selected] if hand else None

    def options(self, kind: type) -> list:
        return [a for a in self.view.legal if isinstance(a, kind)]


Predicate = Callable[[KeyContext], bool]


def always(_: KeyContext) -> bool:
    return True


def _turn(ctx: KeyContext) -> bool:
    """A turn's key may be pressed: pressed when not allowed, the rules say why."""
    return ctx.my_turn


def _turn_card(ctx: KeyContext) -> bool:
    return ctx.my_turn and ctx.card is not None


def _card_allows(what: Callable) -> Predicate:
    """The footer offers a card's key when the selected card allows it now."""
    return lambda ctx: ctx.my_turn and ctx.card is not None and bool(what(ctx.card))


def _any(kind: type) -> Predicate:
    """The footer offers a turn's key when the rules allow such a move now."""
    return lambda ctx: ctx.my_turn and bool(ctx.options(kind))


def _can(part: str) -> Predicate:
    return lambda ctx: getattr(ctx.can, part)


@attrs.frozen
class Key:
    """One key of the game screen.

    keys: Textual's key names ("p,enter"); action: the screen's action, with its
    arguments ("select(-1)"); label: the words key of its description ("" none);
    footer: what the footer shows for it ("" never shown there); enabled: whether
    pressing it does anything now (Textual's `check_action`); offered: whether the
    footer shows it now (`enabled` unless said); at_table: its words at a table server."""

    keys: str
    action: str
    label: str = ""
    footer: str = ""
    enabled: Predicate = always
    offered: Predicate | None = None
    at_table: str = ""

    @property
    def name(self) -> str:
        """The action's name, as Textual's `check_action` receives it."""
        return self.action.partition("(")[0]

    def shown(self, ctx: KeyContext) -> bool:
        """The footer shows it now."""
        return bool(self.footer) and (self.offered or self.enabled)(ctx)


KEYS: tuple[Key, ...] = (
    Key("up", "select(-1)"),
    Key("down", "select(1)"),
    Key("p,enter", "play", "key.play", "p", _turn_card, _card_allows(lambda c: c.playable)),
    Key("b", "deck", "key.deck", "b", _turn_card, _card_allows(lambda c: c.put_in_deck)),
    Key("x", "discard", "key.discard", "x", _turn_card, _card_allows(lambda c: c.discard)),
    Key("d", "draw", "key.draw", "d", _turn, _any(act.Draw)),
    Key("t", "trade", "key.trade", "t", _turn, _any(act.ProposeTrade)),
    Key("s", "store", "key.store", "s", _turn, _any(act.StoreAp)),
    Key("o", "power", "key.power", "o", _turn, _any(act.UsePower)),
    Key("e", "end", "key.end", "e", _turn, _any(act.EndTurn)),
    # Offered in the footer only when possible; pressed otherwise, it says why not.
    Key("u", "undo", "key.undo", "u", lambda c: not c.busy, lambda c: not c.busy and c.may_undo),
    Key("h", "hint", "key.hint", "h", lambda c: not c.busy, lambda c: not c.busy and c.may_hint),
    Key("space", "skip", "key.skip", "␣", lambda c: c.bot_turn),
    Key("question_mark,f1", "help", "key.help", "?"),
    Key("c", "cards", "key.cards"),
    Key("l", "log", "key.log"),
    Key("v", "events", "key.events"),
    Key("ctrl+s", "save", "key.save", enabled=_can("save")),
    Key("ctrl+b", "hand_over", "key.hand_over", enabled=_can("hand_over")),
    Key("m", "chat", "key.chat", "m", _can("chat")),
    # In the help and README: the footer is full.
    Key("a", "auto_pass", "key.auto_pass", enabled=_can("auto_pass")),
    # q goes back to the tables at a table server (a bot sits in meanwhile).
    Key("q,ctrl+q", "quit", "key.quit", "q", at_table="key.tables"),
    Key("escape", "cancel_hint"),
)

BY_NAME: dict[str, Key] = {}
for _key in KEYS:
    BY_NAME.setdefault(_key.name, _key)


def enabled(name: str, ctx: KeyContext) -> bool:
    """Whether pressing the key of action `name` does anything now (an action of no key
    here, one of the app's, always may)."""
    key = BY_NAME.get(name)
    return key is None or key.enabled(ctx)


def offered(name: str, ctx: KeyContext) -> bool:
    """Whether the footer shows the key of action `name` now."""
    key = BY_NAME.get(name)
    return key is not None and key.shown(ctx)


def footer(ctx: KeyContext, tr: Callable[[str], str]) -> list[tuple[str, str]]:
    """The footer's keys now, each with its words."""
    table = ctx.can.table
    return [
        (key.footer, tr(key.at_table if table and key.at_table else key.label))
        for key in KEYS
        if key.shown(ctx)
    ]


def help_lines(lines: Mapping[str, tuple[str, str]]) -> list[tuple[str, str]]:
    """The help's keys, in the table's order: `lines` gives, by action name, how the
    help writes the key and what it does (words/: HELP_KEYS; an action of no line, as
    `c`, is told in another's)."""
    names = dict.fromkeys(key.name for key in KEYS)
    return [lines[name] for name in names if name in lines]
