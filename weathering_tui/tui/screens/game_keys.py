"""The game screen's keys: the engine's legal actions as keys, and the screens they open
(a part of `GameScreen`)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ...engine import IllegalAction
from ...engine import actions as act
from ...play.session import bot_plays_for_me, table_notices
from ...words.describe import aimed_well_first, choice_label
from .. import keymap
from ..keymap import KeyContext
from .choice import ChoiceModal

if TYPE_CHECKING:
    from .game_host import GameHost
else:
    GameHost = object  # (the type checker's view of what GameScreen shares)


class GameKeys(GameHost):
    """`GameScreen`'s keys (its one base of the project's own): its state (session, tr,
    selected…) and parts (flow, shows, lessons, hinter) live there."""

    # ------------------------------------------------------------ keys

    def keys_now(self) -> KeyContext:
        """What the key table (keymap.py) decides from: this seat's keys now."""
        return KeyContext(self.session, self.selected, self.flow.busy)

    def _my_turn(self) -> bool:
        return self.keys_now().my_turn

    def _selected(self):
        """The selected card of the hand, with what it allows now (a HandCard)."""
        return self.keys_now().card

    def _options(self, kind) -> list:
        return self.keys_now().options(kind)

    def check_action(self, action: str, parameters) -> bool | None:
        """Textual asks before it runs a key's action: the key table says."""
        return keymap.enabled(action, self.keys_now())

    def on_key(self, event) -> None:
        feed = bot_plays_for_me(self.session)
        if feed is not None and event.key == "enter":  # the seat back from the table's bot
            feed.take_back()
            event.stop()
            self.refresh_view()
            self.advance()
            return
        if event.character and event.character.isdigit() and event.character != "0":
            hand = self.view().hand
            index = int(event.character) - 1
            if index < len(hand):
                self.selected = index
                self.refresh_view()
                event.stop()
            elif hand and not self.busy:
                # Said, not ignored: "4 p" with three cards played the card selected
                # before, and the player never knew the 4 had done nothing.
                self.notify(self.tr("hand.no_card", n=index + 1, count=len(hand)), markup=False)
                event.stop()

    def _offered(self, action: str) -> bool:
        """Whether the footer shows the key now."""
        return keymap.offered(action, self.keys_now())

    def action_select(self, step: int) -> None:
        if self.hinting:
            return  # the hint's dialog is coming: the hand under it stays as it was
        hand = self.view().hand
        if hand:
            self.selected = (self.selected + step) % len(hand)
            self.refresh_view()

    def _choose(self, title: str, actions: list, body: str = "", confirm: bool = False) -> None:
        """One way to do it: done at once (the key said what), unless `confirm`: then the
        dialog says what it will do and costs, and Escape goes back."""
        view = self.view()
        if len(actions) == 1 and not confirm:
            self.shows.decided(actions[0])  # (a move against one's own side is confirmed first)
            return
        options = [(choice_label(self.tr, view, a), a) for a in actions]
        self.flow.hold()
        self.app.push_screen(
            ChoiceModal(
                title,
                options,
                body=body,
                keys=self.lessons.todo(in_dialog=True) or self.tr("back"),
                can_back=True,
            ),
            # "No: choose again" on a blow at one's own side comes back to this dialog
            functools.partial(self.shows.decided, again=lambda: self._choose(title, actions, body)),
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
        plays = aimed_well_first(self.tr.content, self.view(), list(card.plays))
        self._choose(self.tr("choose.play", card=self.tr.card(card.instance)), plays)

    def action_deck(self) -> None:
        card = self._selected()
        self._card_action(card and card.put_in_deck, act.PutInDeck)

    def action_discard(self) -> None:
        card = self._selected()
        self._card_action(card and card.discard, act.Discard)

    def action_draw(self) -> None:
        self.play(act.Draw(self.view().seat))

    def _refused_unless(self, options: list, probe) -> bool:
        """No option: `probe` is played, to be refused with the rules' reason."""
        if not options:
            self.play(probe)
        return not options

    def action_trade(self) -> None:
        view = self.view()
        allies = [i for i, p in enumerate(view.players) if p.side == view.me.side]
        partner = next((i for i in allies if i != view.seat), view.seat)
        options = self._options(act.ProposeTrade)
        if self._refused_unless(options, act.ProposeTrade(view.seat, partner)):
            return
        self._choose(
            self.tr("choose.trade"),
            options,
            body=self.tr("trade.explain"),
            confirm=True,
        )

    def action_store(self) -> None:
        options = self._options(act.StoreAp)
        if not self._refused_unless(options, act.StoreAp(self.view().seat, 1)):
            self._choose(self.tr("choose.store"), options)

    def action_power(self) -> None:
        if self._refused_unless(self._options(act.UsePower), act.UsePower(self.view().seat)):
            return
        me = self.view().me
        power = self.tr.power(me.character)
        body = f"{self.tr.power_text(me.character)}\n{self.tr('power.cost', cost=me.power_cost)}"
        self._choose(
            self.tr("choose.power", power=power),
            aimed_well_first(self.tr.content, self.view(), self._options(act.UsePower)),
            body=body,
            confirm=True,
        )

    def action_end(self) -> None:
        self.play(act.EndTurn(self.view().seat))

    def action_undo(self) -> None:
        if not self.session.can.undo:
            return
        held = {card.instance for card in self.view().hand}
        try:
            self.session.undo()
        except IllegalAction as exc:
            self.refuse(exc)
        else:
            if not self.session.can.table:  # a table's notice tells everyone, this seat too
                self.notify(self.tr("undo.done"), markup=False)
            # The card that came back is the one selected (the selection stayed where
            # it was, on another card, and a play-test played that one instead).
            back = [i for i, card in enumerate(self.view().hand) if card.instance not in held]
            if back:
                self.selected = back[0]
        self.refresh_view()
        self.advance()

    def action_hint(self) -> None:
        """The expert's best moves for this seat (game_hints.py)."""
        self.hinter.ask()

    def action_cancel_hint(self) -> None:
        """Escape while the expert thinks: no dialog after all, and no more thinking."""
        self.hinter.cancel()

    def action_skip(self) -> None:
        if self.bot_turn() and self._timer is not None:
            self._timer.stop()
            self._bot_step()

    def action_help(self) -> None:
        self.app.open_help()

    def action_cards(self) -> None:
        self.app.open_help(tab="cards")

    def action_hand_over(self) -> None:
        if not self.session.can.hand_over:
            return
        seat = self.session.viewer
        if seat not in self.session.humans or self.session.over:
            return
        name = self.view().players[seat].name
        # "No" first, where Enter is: a stray ctrl+b and Enter gave the seat away (a play-test)
        options = [(self.tr("hand_over.no"), False), (self.tr("hand_over.yes", name=name), True)]
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
        self.app.action_open_events()

    def action_log(self, then=None) -> None:
        """The whole log, scrollable (`then` runs once it is closed)."""
        from ..widgets import log_lines
        from .log import LogScreen

        lines = log_lines(self.tr, self.view(), table_notices(self.session))
        self.app.push_screen(LogScreen(self.tr("log"), lines), then and (lambda _: then()))

    def action_save(self) -> None:
        from .save_name import SaveNameModal

        if not self.session.can.save:
            return
        when = self.session.updated[:16].replace(":", "").replace("T", "-")
        default = self.tr("save.default_name", when=when)
        self.app.push_screen(
            SaveNameModal(
                self.tr("save.prompt"),
                default,
                self.tr("save.hint"),
                lambda name: self.tr("save.bad_name", name=name),
            ),
            self._saved,
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
                self.notify(self.tr("save.failed", problem=problem), severity="error", markup=False)
                return
            self.notify(self.tr("save.done", name=path.stem), markup=False)
            self.refresh_view()

    def action_quit(self) -> None:
        self.app.quit_game(self.session)

    # ------------------------------------------------------------ at a table server

    def action_auto_pass(self) -> None:
        """Pass by myself in reaction windows where I cannot cancel (faster, but others
        may then read a slow answer as a cancel in hand: the player's choice)."""
        if not self.session.can.auto_pass:
            return
        on = self.session.toggle_auto_pass()
        self.notify(self.tr("auto_pass.on" if on else "auto_pass.off"), markup=False)

    def action_chat(self) -> None:
        from .text_prompt import ChatModal

        if not self.session.can.chat:
            return
        self.app.push_screen(ChatModal(self.tr, self.session.chat_limit), self._chat)

    def _chat(self, text: str | None) -> None:
        if text and text.strip():
            self.session.chat(text)
