"""The game screen's flow on screen: what the flow (play/flow.py) says comes next — a
privacy screen, a recap, a shared terminal's reaction window, the transition's
summary, a decision dialog — put up, and its answer told back to the flow (a part the
screen holds)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from ...engine import actions as act
from ...engine import card_id, own_side_harm
from ...play import flow as fl
from ...play.recap import transition_span
from ...words.describe import choice_label, decision_title
from .choice import HINT, UNDO, ChoiceModal
from .part import ScreenPart
from .privacy import PrivacyScreen

HAND_CHOICES = frozenset({"mulligan", "choose_discard", "choose_give", "choose_exchange"})
# A reaction dialog's last option: let this action and every other one through until
# the opponent's turn ends (a play-test answered four windows in one bot turn for a
# discard, a draw and a Troc)
PASS_TURN = "pass_turn"


def each_copy(view) -> list:
    """The decision's options, a choice among the hand's cards listing each card held
    (two copies of a card are two lines, as they are two cards in the hand): the engine
    lists one action per card, and any copy of it does the same."""
    if view.pending is None or view.pending.kind not in HAND_CHOICES:
        return list(view.legal)
    by_card = {card_id(a.card): a for a in view.legal if isinstance(a, act.ChooseCard) and a.card}
    if not by_card:
        return list(view.legal)
    picked = set(view.pending.mine.get("picked", ()))  # the mulligan's cards put back
    copies = [
        attrs.evolve(by_card[card_id(c.instance)], card=c.instance)
        for c in view.hand
        if card_id(c.instance) in by_card and c.instance not in picked
    ]
    return copies + [a for a in view.legal if not (isinstance(a, act.ChooseCard) and a.card)]


def _first_shown(kind: str, options: list) -> int:
    """The option a dialog highlights first. The mulligan's is keeping the hand (or
    drawing for the cards put back), and a discard one may stop is stopping: Enter by
    reflex must not put a card under the pile, or throw one away (a play-test)."""
    if kind in ("mulligan", "choose_discard"):
        return next((i for i, (_, a) in enumerate(options) if not getattr(a, "card", None)), 0)
    return 0


def _without_transition(entries) -> list:
    """The entries but the transition's own, which its summary has just told: a recap
    repeated them (a play-test)."""
    span = transition_span(entries)
    return [entry for i, entry in enumerate(entries) if i not in span]


def _forced_just_now(view):
    """The log entry of the seat's last option if it was made for it (one possible)
    since its last move, else None."""
    taken = None
    for entry in reversed(view.log[-6:]):
        if entry.kind == "forced" and entry.data.get("seat") == view.seat:
            return taken if entry.data.get("decision") == "choose_option" else None
        if entry.kind == "option" and entry.data.get("seat") == view.seat and taken is None:
            taken = entry
        elif entry.data.get("seat") == view.seat and entry.kind != "announce":
            return None
    return None


def _pass_of(view) -> act.Pass | None:
    """The decision's answer that lets the action happen, if it offers one."""
    return next((a for a in view.legal if isinstance(a, act.Pass)), None)


if TYPE_CHECKING:
    from .game_host import GameHost


class Shows(ScreenPart):
    """What the flow says to show, put up over the game screen (a privacy screen, a
    recap, a shared terminal's window, the transition's summary, a decision's dialog),
    each answer told back to the flow before the screen advances (a part the screen
    holds: `screen.shows`)."""

    def __init__(self, screen: GameHost):
        super().__init__(screen)
        self.asking: ChoiceModal | None = None  # the decision dialog open now
        # (round, active seat) of an opponent's turn whose actions this seat lets through
        # without being asked (PASS_TURN), until that turn ends
        self.passing: tuple[int, int] | None = None
        self.asked_legal: tuple = ()  # what it offered
        self.asked_can_back = False  # (a hint's Escape asks this very dialog again)
        self.transition_told = False  # the transition's summary was shown (not recapped)

    def privacy(self, show: fl.Privacy) -> None:
        """The keyboard goes to another player: nothing private on screen until then."""
        view = self.view()
        player = view.players[show.seat]
        body = (
            self.tr("privacy.body", prev=view.players[show.previous].name)
            if show.previous is not None
            else self.tr("privacy.body_first")
        )
        title = self.tr("privacy.title", name=player.name, side=self.tr("side." + player.side))
        self.app.push_screen(PrivacyScreen(title, body), lambda _: self._after_privacy(show.seat))

    def recap(self, show: fl.Recap) -> None:
        """At the start of a player's turn, what every other seat did since their last
        one (any key goes on)."""
        from ...words.log_lines import log_line
        from .recap import RecapScreen

        view, since = self.view(), show.since
        entries = _without_transition(show.entries) if self.transition_told else show.entries
        lines = [line for e in entries if (line := log_line(self.tr, view, e)) is not None]
        gauge = (
            self.tr("recap.gauge", before=since.hp, after=view.hp)
            if since.hp != view.hp
            else self.tr("recap.gauge_same", hp=view.hp)
        )
        self.screen.refresh_view()  # the panes as they are now under it, and no key of the turn yet

        def done(asked) -> None:
            if asked == "log":  # `l`: the whole log first, then the turn
                self.screen.action_log(then=lambda: done(None))
                return
            self.flow.closed()
            self.screen.advance()

        title = self.tr("recap.title", name=view.me.name)
        recap = RecapScreen(title, [gauge, *lines], self.tr("recap.keys"), self.tr("recap.more"))
        self.app.push_screen(recap, done)

    def window(self, waiting) -> None:
        """The public "anyone to react?" prompt: nothing private on screen."""
        from ...words.describe import announced_effect, announcement
        from .window import WindowPrompt

        view = self.view()
        assert view.pending is not None  # (a window is open)
        info = view.pending.info
        text = announcement(self.tr, view, info)
        effect = announced_effect(self.tr, view, info)
        text += f"\n{effect}" if effect else ""
        seats = [(s, view.players[s].name) for s in waiting]
        self.app.push_screen(WindowPrompt(self.tr, self.session, text, seats), self._spoke)

    def _spoke(self, seat) -> None:
        """A player spoke up (privacy screen, then their own prompt), or nobody did."""
        self.flow.spoke(seat)
        if seat is None:
            self.screen.advance()
            return
        name = self.view().players[seat].name
        side = self.tr("side." + self.view().players[seat].side)
        self.flow.hold()
        self.app.push_screen(
            PrivacyScreen(
                self.tr("privacy.title", name=name, side=side),
                self.tr("window.privacy", name=name),
            ),
            lambda _: self._answer_window(seat),
        )

    def _answer_window(self, seat: int) -> None:
        self.flow.seat_taken(seat)
        self.screen.refresh_view()
        self.ask_decision(can_back=True)  # Escape: back to the public prompt

    def transition(self) -> None:
        """Once, as phase 2 begins: what the transition did (synergies, decks in hand)."""
        from ...words.log_lines import log_line

        self.screen.refresh_view()  # the screen under the summary is the game as it is now
        self.transition_told = True  # (the next recap leaves it out)
        view = self.view()
        span = transition_span(view.log)
        lines = []
        # The gauge as the transition left it (round 6 may have begun since).
        hp = view.hp_by_round[-1] if view.hp_by_round else view.hp
        for entry in view.log[span.start + 1 : span.stop]:
            hp = entry.data.get("hp", hp)
            line = log_line(self.tr, view, entry)
            if line is not None:
                lines.append(line)
        lines.append(self.tr("transition.gauge", hp=hp, top=view.gauge_max))
        self.flow.hold()
        self.app.push_screen(
            ChoiceModal(
                self.tr("transition.title"),
                [(self.tr("transition.go"), True)],
                body="\n".join(lines) or self.tr("transition.nothing"),
            ),
            lambda _: self._after_transition(),
        )

    def _after_transition(self) -> None:
        self.flow.closed()
        self.screen.advance()

    def _after_privacy(self, seat: int) -> None:
        self.flow.seat_taken(seat)
        self.screen.advance()

    def ask_decision(self, can_back: bool = False) -> None:
        view = self.view()
        pending = view.pending
        assert pending is not None  # (this seat decides)
        if self._passing_through(view):
            self.flow.hold()  # (nothing else comes up before the answer is given)
            self.screen.call_later(self._let_through)
            return
        options = [(choice_label(self.tr, view, a), a) for a in each_copy(view)]
        if self._may_pass_turn(view):
            actor = view.players[view.active].name
            options.append((self.tr("react.pass_turn", name=actor), PASS_TURN))
        body = ""
        if pending.kind == "react":
            from ...words.describe import announced_effect, announcement

            info = pending.info
            body = announcement(self.tr, view, info)
            effect = announced_effect(self.tr, view, info)
            body += f"\n{effect}" if effect else ""
        if pending.kind == "arrange":  # the events to order, with what each does
            from ...words.describe import peeked

            body = "\n".join(
                f"{self.tr.event(e)}{self.tr.colon}{self.tr.event_text(e)}"
                for e in peeked(view)
                if card_id(e) in self.tr.content.events
            )
        if pending.kind == "claim_synergy" and (
            view.synergy is None or view.synergy.qualifies is None
        ):
            body = self.tr("synergy.none")
        taken = _forced_just_now(view)
        if taken is not None:
            # The option before this one was made for the player (only one was possible):
            # say which and why this comes, rather than leave a lone dialog unexplained.
            from ...words.describe import option_words

            data = taken.data
            target = None if data.get("target", -1) == -1 else data["target"]
            words = option_words(self.tr, view, data.get("source", ""), data["option"], target)
            told = self.tr("choice.only_one", option=words)
            body = "\n".join(part for part in (told, body) if part)
        picked = pending.mine.get("picked")
        if picked:
            body = self.tr("mulligan.picked", cards=", ".join(self.tr.card(c) for c in picked))
        clock = None
        if pending.kind == "react" and self.session.can.table and self.screen.window_seconds():
            clock = self.screen.window_clock  # a table server's window: its time runs out
        self.flow.hold()
        self.asking = ChoiceModal(
            decision_title(self.tr, view),
            options,
            body=body,
            clock=clock,
            can_back=can_back,
            keys=self._decision_keys(can_back),
            can_undo=self.screen.may_undo(),
            can_hint=self.screen.may_hint(),
            no_hint=self.tr("hint.in_lesson") if self.screen.lessons.todo() else "",
            start=_first_shown(pending.kind, options),
        )
        self.asked_legal = view.legal
        self.asked_can_back = can_back  # (a hint's Escape asks this very dialog again)
        self.app.push_screen(self.asking, self.decided)

    def _decision_keys(self, can_back: bool) -> str:
        """The keys under a decision's dialog: the lesson's step, or back and undo (else
        the game's help, log and quit), and h when the expert may be asked."""
        keys = self.screen.lessons.todo() or self._dialog_keys(can_back) or self.app.dialog_keys
        if self.screen.may_hint():
            keys = " · ".join(k for k in (keys, self.tr("hint.dialog_key")) if k)
        return keys

    def _dialog_keys(self, can_back: bool) -> str:
        keys = [self.tr("back")] if can_back else []
        if self.screen.may_undo():
            keys.append(self.tr("undo.key"))
        return " · ".join(keys)

    def _may_pass_turn(self, view) -> bool:
        """A window on an opponent's own turn's action (not an event's), outside the
        lesson (which asks for one answer at a time) and with one player at this
        terminal (a shared one asks who speaks up first, for every window)."""
        pending = view.pending
        session = self.session
        return (
            pending.kind == "react"
            and pending.info.get("action") != "event"
            and view.players[view.active].side != view.me.side
            and _pass_of(view) is not None
            and not session.can.guide
            and not (session.can.bots and len(session.humans) > 1)
        )

    def _let_through(self) -> None:
        """The answer PASS_TURN gives for the rest of that turn, without a dialog."""
        self.flow.closed()
        view = self.view()
        let_through = _pass_of(view)
        if view.pending is not None and view.pending.kind == "react" and let_through:
            self.screen.play(let_through)
        else:
            self.screen.advance()

    def _passing_through(self, view) -> bool:
        if self.passing != (view.round, view.active):
            self.passing = None  # that turn is over: every window asks again
            return False
        return self._may_pass_turn(view)

    def decided(self, action, again: Callable[[], None] | None = None) -> None:
        """A dialog's answer. `again` reopens the dialog it came from (a blow at one's
        own side answered "no" goes back there; a decision pending is asked again anyway)."""
        self.flow.closed()
        self.asking = None
        if action == PASS_TURN:
            view = self.view()
            self.passing = (view.round, view.active)
            action = _pass_of(view)
        if action == UNDO:
            self.screen.action_undo()
        elif action == HINT:
            self.screen.action_hint()  # the hints' dialog, then this one again (`advance`)
        elif action is not None and self._against_own_side(action):
            self._confirm_own_side(action, again)
        elif action is not None:
            self.screen.play(action)
        else:
            self.screen.advance()

    def _against_own_side(self, action) -> bool:
        """Aimed at one's own side, hitting it whole, or moving the gauge the other
        side's way."""
        return own_side_harm(self.tr.content, self.view(), action) is not None

    def _confirm_own_side(self, action, again: Callable[[], None] | None = None) -> None:
        """A blow aimed at oneself or an ally (or a gift at an opponent), or one that
        falls on one's whole side, is played only once confirmed: one key, and the safe
        answer is the one highlighted."""
        view = self.view()
        harm = own_side_harm(self.tr.content, view, action)
        aimed = harm in ("self", "ally", "gift")
        target = view.players[action.target] if aimed else view.me
        key = f"own_side.{harm}"
        # "choose again" only where there is a choice to make again (a target); a card
        # played at no one is simply not played (a play-test was offered to choose again)
        no = "own_side.no" if again is not None else "own_side.no_play"
        options = [(self.tr(no), None), (self.tr("own_side.yes"), action)]
        what = choice_label(self.tr, view, action).rstrip(".")  # (a card text's full stop)
        self.flow.hold()
        self.app.push_screen(
            ChoiceModal(
                self.tr("own_side.title"),
                options,
                body=self.tr(key, what=what, name=target.name),
                keys=self.tr(f"{no}.keys"),  # (a play-test looked for how to answer)
                can_back=True,
            ),
            functools.partial(self._confirmed, again=again),
        )

    def _confirmed(self, action, again: Callable[[], None] | None = None) -> None:
        self.flow.closed()
        if action is not None:
            self.screen.play(action)
        elif again is not None:
            again()
        else:
            self.screen.advance()
