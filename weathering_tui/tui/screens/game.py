"""The game screen: panes over one seat's view, keys driven by the engine's legal actions."""

from __future__ import annotations

import math

from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Horizontal
from textual.screen import Screen

from ...engine import IllegalAction, card_id
from ...engine import actions as act
from ..describe import choice_label, decision_title
from ..i18n import render_refusal
from ..widgets import (
    DeckPane,
    EventsPane,
    Gauge,
    HandPane,
    HeaderLine,
    KeyBar,
    LogPane,
    PlayersPane,
)
from .choice import ChoiceModal
from .privacy import PrivacyScreen

# (keys, action, description key, what the footer shows or "" to leave it out)
KEYS = [
    ("up", "select(-1)", "", ""),
    ("down", "select(1)", "", ""),
    ("p,enter", "play", "key.play", "p"),
    ("b", "deck", "key.deck", "b"),
    ("x", "discard", "key.discard", "x"),
    ("d", "draw", "key.draw", "d"),
    ("t", "trade", "key.trade", "t"),
    ("s", "store", "key.store", "s"),
    ("o", "power", "key.power", "o"),
    ("e", "end", "key.end", "e"),
    ("space", "skip", "key.skip", "␣"),
    ("question_mark,f1", "help", "key.help", "?"),
    ("c", "cards", "key.cards", ""),
    ("l", "log", "key.log", ""),
    ("v", "events", "key.events", ""),
    ("ctrl+s", "save", "key.save", ""),
    ("ctrl+b", "hand_over", "key.hand_over", ""),
    ("m", "chat", "key.chat", "m"),
    ("a", "auto_pass", "key.auto_pass", ""),  # in the help and README: the footer is full
    ("q,ctrl+q", "quit", "key.quit", "q"),
]
TURN_ACTIONS = {"play", "deck", "discard", "draw", "trade", "store", "power", "end"}


class GameScreen(Screen[None]):
    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    GameScreen HeaderLine { height: 1; }
    GameScreen Gauge { height: 1; }
    GameScreen #top { height: auto; max-height: 9; }
    GameScreen PlayersPane { width: 42; height: auto; }
    GameScreen EventsPane { width: 1fr; height: 100%; }
    GameScreen #middle { height: 2fr; min-height: 6; }
    GameScreen HandPane { width: 1fr; height: 100%; }
    GameScreen DeckPane { width: 26; height: 100%; }
    GameScreen LogPane { height: 1fr; min-height: 3; }
    GameScreen KeyBar { height: 1; }
    """

    def __init__(self, session, tr, pace: float = 0.6):
        super().__init__()
        self.session = session
        self.tr = tr
        self.pace = pace
        self.selected = 0
        self.busy = False  # a modal or privacy screen is up, or a bot timer runs
        self.asking: ChoiceModal | None = None  # the decision dialog open now
        self.asked_legal: tuple = ()  # what it offered
        self._timer = None
        # Footer words follow the game's language, so the bindings are built per screen.
        self._bindings = BindingsMap(
            Binding(keys, action, tr(desc) if desc else "", show=False)
            for keys, action, desc, _ in KEYS
        )

    def compose(self) -> ComposeResult:
        yield HeaderLine()
        yield Gauge()
        with Horizontal(id="top"):
            yield PlayersPane()
            yield EventsPane()
        with Horizontal(id="middle"):
            yield HandPane()
            yield DeckPane()
        yield LogPane()
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(EventsPane).border_title = self.tr("events")
        self.query_one(PlayersPane).border_title = self.tr("players")
        self.query_one(LogPane).border_title = self.tr("log")
        self.refresh_view()
        self.call_after_refresh(self.advance)
        self._shown_seconds = 0
        self.set_interval(0.25, self._tick)

    # ------------------------------------------------------------ rendering

    def view(self):
        """The viewing seat's view (the session builds it once per change)."""
        return self.session.view()

    def refresh_view(self) -> None:
        if self not in self.app.screen_stack:  # a refresh queued before the end screen came
            return
        view = self.view()
        if view.pending is not None and view.pending.kind == "reactions" and self.session.local:
            # A bot may cancel: the outcome follows at once. Showing the moment between
            # would tell this seat that somebody could cancel (network.md).
            return
        tr = self.tr
        problem = self.session.save_problem
        if problem is not None and problem != getattr(self, "_reported", None):
            self._reported = problem
            self.notify(tr("save.failed", problem=problem), severity="error", timeout=10)
        self.selected = max(0, min(self.selected, len(view.hand) - 1))
        status = ""
        if self.session.last_saved:
            status = tr("saved", time=self.session.last_saved[11:16])
        if self._window_seconds():
            status = tr("window.left", s=self._window_seconds())
        self.query_one(HeaderLine).show(view, tr, status)
        self.query_one(Gauge).show(view, tr)
        self.query_one(PlayersPane).show(view, tr)
        self.query_one(EventsPane).show(view, tr)
        self.query_one(HandPane).show(view, tr, selected=self.selected)
        self.query_one(DeckPane).show(view, tr)
        self.query_one(LogPane).show(view, tr, extra=self.session.notices)
        self.query_one(KeyBar).show_keys(
            [
                (shown, self.tr(desc))
                for _, action, desc, shown in KEYS
                if shown and self.check_action(action, ())
            ]
        )

    def _window_seconds(self) -> int:
        """Whole seconds left in the open reaction window (0: none), for everyone."""
        view = self.view()
        if self.session.local or view.pending is None:
            return 0  # (a shared terminal's prompt shows its own time)
        if view.pending.kind not in ("react", "reactions"):
            return 0
        return math.ceil(self.session.window_left())

    def _window_clock(self) -> str:
        return self.tr("window.clock", s=self._window_seconds())

    def _tick(self) -> None:
        """The reaction window's time, kept fresh in the header."""
        if self.is_current and self._window_seconds() != self._shown_seconds:
            self._shown_seconds = self._window_seconds()
            self.refresh_view()

    def on_resize(self) -> None:
        # The panes fit their text to their size (log lines, card names, footer words).
        self.call_after_refresh(self.refresh_view)

    def on_screen_resume(self) -> None:
        # Back from help, the log or a dialog: whatever happened meanwhile (a bot that
        # finished thinking) must carry on.
        if self.is_mounted:
            self.refresh_view()
            self.advance()

    # ------------------------------------------------------------ flow

    def advance(self) -> None:
        """Do what the session says comes next: the end, a bot's move, a privacy screen,
        a decision dialog, or wait for keys on this seat's turn."""
        if self.busy or not self.is_current or self.app.too_small:
            return  # (a terminal too small: the game waits under the message)
        session = self.session
        step = session.next_step()
        if step.kind == "over":
            self.app.show_end(session)
        elif step.kind == "transition":
            self._show_transition()
        elif step.kind == "bot":
            self.busy = True
            if self.pace > 0 and step.pace:
                self._timer = self.set_timer(self.pace, self._bot_step)
            else:
                self.call_later(self._bot_step)
        elif step.kind == "privacy":
            self.busy = True
            view = session.view()
            previous = session.last_human
            player = view.players[step.seat]
            body = (
                self.tr("privacy.body", prev=view.players[previous].name)
                if previous is not None
                else self.tr("privacy.body_first")
            )
            title = self.tr("privacy.title", name=player.name, side=self.tr("side." + player.side))
            self.app.push_screen(
                PrivacyScreen(title, body), lambda _: self._after_privacy(step.seat)
            )
        elif step.kind == "window":
            self._open_window()
        else:
            self.refresh_view()
            if step.kind == "decide":
                self.ask_decision()

    # ------------------------------------------------------------ a shared terminal's window

    def _open_window(self) -> None:
        """The public "anyone to react?" prompt: nothing private on screen."""
        from ..describe import announced_effect, announcement
        from .window import WindowPrompt

        view = self.view()
        info = view.pending.info
        text = announcement(self.tr, view, info)
        effect = announced_effect(self.tr, view, info)
        text += f"\n{effect}" if effect else ""
        seats = [(s, view.players[s].name) for s in self.session.waiting]
        self.busy = True
        self.app.push_screen(WindowPrompt(self.tr, self.session, text, seats), self._spoke)

    def _spoke(self, seat) -> None:
        """A player spoke up (privacy screen, then their own prompt), or nobody did."""
        from .window import NOBODY

        self.busy = False
        if seat is None or seat == NOBODY:
            self.session.nobody_reacts()
            self.advance()
            return
        self.session.speak_up(seat)
        name = self.view().players[seat].name
        side = self.tr("side." + self.view().players[seat].side)
        self.busy = True
        self.app.push_screen(
            PrivacyScreen(
                self.tr("privacy.title", name=name, side=side),
                self.tr("window.privacy", name=name),
            ),
            lambda _: self._answer_window(seat),
        )

    def _answer_window(self, seat: int) -> None:
        self.busy = False
        self.session.take_seat(seat)
        self.refresh_view()
        self.ask_decision(can_back=True)  # Escape: back to the public prompt

    def _show_transition(self) -> None:
        """Once, as phase 2 begins: what the transition did (synergies, decks in hand)."""
        from ..describe import log_line

        self.refresh_view()  # the screen under the summary is the game as it is now
        view = self.view()
        kinds = [e.kind for e in view.log]
        start = len(kinds) - 1 - kinds[::-1].index("transition") if "transition" in kinds else 0
        lines = []
        # The gauge as the transition left it (round 6 may have begun since).
        hp = view.hp_by_round[-1] if view.hp_by_round else view.hp
        for entry in view.log[start + 1 :]:
            if entry.kind == "round":
                break
            hp = entry.data.get("hp", hp)
            line = log_line(self.tr, view, entry)
            if line is not None:
                lines.append(line)
        lines.append(self.tr("transition.gauge", hp=hp, top=view.gauge_max))
        self.busy = True
        self.app.push_screen(
            ChoiceModal(
                self.tr("transition.title"),
                [(self.tr("transition.go"), True)],
                body="\n".join(lines) or self.tr("transition.nothing"),
            ),
            lambda _: self._after_transition(),
        )

    def _after_transition(self) -> None:
        self.busy = False
        self.advance()

    def _after_privacy(self, seat: int) -> None:
        self.busy = False
        self.session.take_seat(seat)
        self.advance()

    def _bot_step(self) -> None:
        self.busy = False
        self._timer = None
        session = self.session
        if not session.is_bot_turn():
            self.advance()
            return
        seat = session.deciding_bot()
        if session.bot_kind(seat) == "expert":
            # The expert thinks for up to a second: off the event loop, so keys still work.
            self.busy = True
            self.run_worker(lambda: session.bot_choose(seat), thread=True, name="bot", group="bot")
            return
        session.bot_move()
        self.refresh_view()
        self.advance()

    def on_worker_state_changed(self, event) -> None:
        from textual.worker import WorkerState

        if event.worker.group != "bot" or event.state not in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
        ):
            return
        self.busy = False
        if event.state == WorkerState.SUCCESS and self.session.is_bot_turn():
            self.session.bot_move(event.worker.result)
        self.refresh_view()
        self.advance()

    def ask_decision(self, can_back: bool = False) -> None:
        view = self.view()
        options = [(choice_label(self.tr, view, a), a) for a in view.legal]
        body = ""
        if view.pending.kind == "react":
            from ..describe import announced_effect, announcement

            info = view.pending.info
            body = announcement(self.tr, view, info)
            effect = announced_effect(self.tr, view, info)
            body += f"\n{effect}" if effect else ""
        if view.pending.kind == "arrange":  # the events to order, with what each does
            from ..describe import peeked

            body = "\n".join(
                f"{self.tr.event(e)} : {self.tr.event_text(e)}"
                if self.tr.lang == "fr"
                else f"{self.tr.event(e)}: {self.tr.event_text(e)}"
                for e in peeked(view)
                if card_id(e) in self.tr.content.events
            )
        if view.pending.kind == "claim_synergy" and (
            view.synergy is None or view.synergy.qualifies is None
        ):
            body = self.tr("synergy.none")
        picked = view.pending.mine.get("picked")
        if picked:
            body = self.tr("mulligan.picked", cards=", ".join(self.tr.card(c) for c in picked))
        clock = None
        if view.pending.kind == "react" and not self.session.local and self._window_seconds():
            clock = self._window_clock  # a table server's window: its time runs out
        self.busy = True
        self.asking = ChoiceModal(
            decision_title(self.tr, view),
            options,
            body=body,
            clock=clock,
            can_back=can_back,
            keys=self.tr("back") if can_back else "",
        )
        self.asked_legal = view.legal
        self.app.push_screen(self.asking, self._decided)

    def _decided(self, action) -> None:
        self.busy = False
        self.asking = None
        if action is not None:
            self.play(action)
        else:
            self.advance()

    def play(self, action) -> None:
        try:
            self.session.play(action)
        except IllegalAction as exc:
            self.refuse(exc)
        self.refresh_view()
        self.advance()

    def refuse(self, exc: IllegalAction) -> None:
        reason = render_refusal(self.tr, exc, self.view().players)
        self.notify(self.tr("error", reason=reason), severity="warning", markup=False)

    # ------------------------------------------------------------ keys

    def _my_turn(self) -> bool:
        view = self.view()
        pending = view.pending
        return (
            not self.busy
            and pending is not None
            and pending.kind == "turn"
            and pending.seat == view.seat
            and not self.session.is_bot_turn()
        )

    def _selected(self):
        """The selected card of the hand, with what it allows now (a HandCard)."""
        hand = self.view().hand
        return hand[self.selected] if hand else None

    def _options(self, kind) -> list:
        return [a for a in self.view().legal if isinstance(a, kind)]

    def check_action(self, action: str, parameters) -> bool | None:
        if action not in TURN_ACTIONS:
            if action == "skip":
                return self.session.is_bot_turn()
            if action == "save":
                return self.session.saves_dir is not None
            if action == "hand_over":
                return self.session.can_hand_over
            if action in ("chat", "auto_pass"):
                return not self.session.local  # a table of the server
            return True
        if not self._my_turn():
            return False
        card = self._selected()
        if action == "play":
            return card is not None and card.playable
        if action == "deck":
            return card is not None and card.put_in_deck is not None
        if action == "discard":
            return card is not None and card.discard is not None
        kinds = {
            "draw": act.Draw,
            "trade": act.ProposeTrade,
            "store": act.StoreAp,
            "power": act.UsePower,
            "end": act.EndTurn,
        }
        return bool(self._options(kinds[action]))

    def on_key(self, event) -> None:
        if event.character and event.character.isdigit() and event.character != "0":
            hand = self.view().hand
            index = int(event.character) - 1
            if index < len(hand):
                self.selected = index
                self.refresh_view()
                event.stop()

    def action_select(self, step: int) -> None:
        hand = self.view().hand
        if hand:
            self.selected = (self.selected + step) % len(hand)
            self.refresh_view()

    def _choose(self, title: str, actions: list, body: str = "", confirm: bool = False) -> None:
        """One way to do it: done at once (the key said what), unless `confirm`: then the
        dialog says what it will do and costs, and Escape goes back."""
        view = self.view()
        if len(actions) == 1 and not confirm:
            self.play(actions[0])
            return
        options = [(choice_label(self.tr, view, a), a) for a in actions]
        self.busy = True
        self.app.push_screen(
            ChoiceModal(title, options, body=body, keys=self.tr("back"), can_back=True),
            self._decided,
        )

    def _card_action(self, allowed, cls) -> None:
        """Put in deck or discard the selected card; a refused one says why, in words."""
        card = self._selected()
        if card is None:
            return
        self.play(allowed or cls(self.view().seat, card.instance))

    def action_play(self) -> None:
        card = self._selected()
        if card is None:
            return
        if not card.plays:
            self.play(act.PlayCard(self.view().seat, card.instance))  # refused, with the reason
            return
        self._choose(self.tr("choose.play", card=self.tr.card(card.instance)), list(card.plays))

    def action_deck(self) -> None:
        card = self._selected()
        self._card_action(card and card.put_in_deck, act.PutInDeck)

    def action_discard(self) -> None:
        card = self._selected()
        self._card_action(card and card.discard, act.Discard)

    def action_draw(self) -> None:
        self.play(act.Draw(self.view().seat))

    def action_trade(self) -> None:
        self._choose(
            self.tr("choose.trade"),
            self._options(act.ProposeTrade),
            body=self.tr("trade.explain"),
            confirm=True,
        )

    def action_store(self) -> None:
        self._choose(self.tr("choose.store"), self._options(act.StoreAp))

    def action_power(self) -> None:
        me = self.view().me
        power = self.tr.power(me.character)
        body = f"{self.tr.power_text(me.character)}\n{self.tr('power.cost', cost=me.power_cost)}"
        self._choose(
            self.tr("choose.power", power=power),
            self._options(act.UsePower),
            body=body,
            confirm=True,
        )

    def action_end(self) -> None:
        self.play(act.EndTurn(self.view().seat))

    def action_skip(self) -> None:
        if self.session.is_bot_turn() and self._timer is not None:
            self._timer.stop()
            self._bot_step()

    def action_help(self) -> None:
        self.app.open_help()

    def action_cards(self) -> None:
        self.app.open_help(tab="cards")

    def action_hand_over(self) -> None:
        seat = self.session.viewer
        if seat in self.session.bots or self.session.over:
            return
        name = self.view().players[seat].name
        options = [(self.tr("hand_over.yes", name=name), True), (self.tr("hand_over.no"), False)]
        self.app.push_screen(
            ChoiceModal(self.tr("hand_over.title", name=name), options, can_back=True),
            self._handed,
        )

    def _handed(self, yes) -> None:
        if yes:
            self.session.hand_over(self.session.viewer)
            self.refresh_view()
            self.advance()

    def action_events(self) -> None:
        """Every active event with its whole text (the pane has room for names only)."""
        from .log import LogScreen

        view, tr = self.view(), self.tr
        lines = []
        for event in view.active_events:
            turns = tr("events.turns", n=event.remaining)
            lines += [f"{tr.event(event.event)} · {turns}", f"  {tr.event_text(event.event)}", ""]
        self.app.push_screen(LogScreen(tr("events"), lines or [tr("events.none")]))

    def action_log(self) -> None:
        from ..widgets import log_lines
        from .log import LogScreen

        self.app.push_screen(LogScreen(self.tr("log"), log_lines(self.tr, self.view())))

    def action_save(self) -> None:
        from .save_name import SaveNameModal

        if self.session.saves_dir is None:
            return
        default = "partie-" if self.tr.lang == "fr" else "game-"
        default += self.session.updated[:16].replace(":", "").replace("T", "-")
        self.app.push_screen(
            SaveNameModal(self.tr("save.prompt"), default, self.tr("save.hint")), self._saved
        )

    def _saved(self, name: str | None, replace: bool = False) -> None:
        if name and not replace and self.session.other_game_at(name):
            options = [
                (self.tr("save.replace.yes", name=name), True),
                (self.tr("save.replace.no"), False),
            ]
            self.app.push_screen(
                ChoiceModal(self.tr("save.replace.title", name=name), options, can_back=True),
                lambda yes: self._saved(name, True) if yes else self.action_save(),
            )
            return
        if name:
            try:
                path = self.session.save(name)
            except OSError as exc:
                problem = f"{exc.filename}: {exc.strerror or exc}"
                self.notify(self.tr("save.failed", problem=problem), severity="error")
                return
            self.notify(self.tr("save.done", name=path.stem))
            self.refresh_view()

    def action_quit(self) -> None:
        self.app.quit_game(self.session)

    # ------------------------------------------------------------ at a table server

    def on_net(self, kind: str, message: dict) -> None:
        """The table sent something: a new view, a notice, the link going or coming."""
        if kind in ("view", "notice", "link") and self.is_mounted:
            asking = self.asking
            if kind == "view" and asking is not None and self.view().legal != self.asked_legal:
                # The table moved on (a reaction window's time is up, a bot took the
                # seat): the open question is gone, whatever it was.
                asking.answer(None)
                return
            self.refresh_view()
            if kind == "view":
                self.advance()

    def action_auto_pass(self) -> None:
        """Pass by myself in reaction windows where I cannot cancel (faster, but others
        may then read a slow answer as a cancel in hand: the player's choice)."""
        on = self.session.toggle_auto_pass()
        self.notify(self.tr("auto_pass.on" if on else "auto_pass.off"), markup=False)

    def action_chat(self) -> None:
        from .text_prompt import ChatModal

        self.app.push_screen(ChatModal(self.tr, self.session.chat_limit), self._chat)

    def _chat(self, text: str | None) -> None:
        if text and text.strip():
            self.session.chat(text)
