"""A game played at a table server: a session (play/session.py) fed by the views the
server pushes; the server plays the bots and keeps the save (no Textual here)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .. import engine
from ..content import default_content
from ..engine import IllegalAction, View, why_illegal
from ..engine import actions as act
from ..net import protocol as pr
from ..net.client import TableClient
from .session import Capabilities, Notice, Step


class RemoteSession:
    """This terminal's seat (or a spectator's place) at one table of the server.

    The server is the authority and plays the bots: this session only shows the newest
    view and sends the seat's actions. Nothing here is saved locally."""

    def __init__(self, client: TableClient, table: str):
        self.client = client
        self.table = table
        # Hints are the table's choice, said with its views (this session starts at one).
        self.can = Capabilities(
            play=True,
            undo=True,
            hints=client.hints.get(table, False),
            table=True,
            chat=True,
            auto_pass=True,
        )
        self.notices: list[Notice] = []  # (log length when it came, order, line)
        self.order = 0
        self.acted_on: View | None = None  # the view an action was sent on (wait for the next)
        # The table said this seat's decision took too long: its bot plays the seat, and
        # this terminal waits for a key to take it back (the table's notice `slow`).
        self.bot_plays = False

    # ------------------------------------------------------------ what to show

    def view(self) -> View:
        return self.client.views[self.table]

    @property
    def ready(self) -> bool:
        return self.table in self.client.views

    @property
    def viewer(self) -> int:
        return self.view().seat

    @property
    def over(self) -> bool:
        return self.view().outcome is not None

    def window_left(self) -> float:
        """Seconds left in the open reaction window (0: none), the same for everyone."""
        return self.client.window_left(self.table)

    def next_step(self) -> Step:
        view = self.view()
        if view.outcome is not None:
            return Step("over")
        pending = view.pending
        if pending is None or pending.seat != view.seat or not view.legal or self.bot_plays:
            return Step("wait")
        if view is self.acted_on:
            return Step("wait")  # the answer is on its way: this decision is made
        return Step("turn" if pending.kind == "turn" else "decide", view.seat)

    def notice(self, line: str, at: int | None = None) -> None:
        """A table's notice for the log pane, after the log's first `at` entries (the
        table says where for an undo), else after the log as it is now."""
        log = self.client.views[self.table].log if self.ready else ()
        self.order += 1
        self.notices.append((len(log) if at is None else at, self.order, line))
        del self.notices[:-200]  # the newest 200 are plenty for the log pane

    # ------------------------------------------------------------ actions

    def play(self, action: act.Action) -> None:
        """Send the action; the server answers with the next view (or an error)."""
        view = self.view()
        if action not in view.legal:
            raise why_not(view, action)
        if not self.client.act(self.table, view, action):
            raise IllegalAction("offline")  # the link is down: nothing was sent
        self.acted_on = view
        self.bot_plays = False  # (the table hands the seat back to a player who acts)

    def refused(self) -> None:
        """The server refused the last action: the decision is open again."""
        self.acted_on = None

    def can_undo(self) -> bool:
        """The view says (the table applies the same rule when asked)."""
        view = self.view()
        return view.can_undo and view is not self.acted_on

    def undo(self) -> None:
        """Ask the table to take the move back; it answers with the new view."""
        view = self.view()
        if not view.can_undo:
            raise IllegalAction("cannot_undo")
        if not self.client.send(pr.Undo(self.table, view.version)):
            raise IllegalAction("offline")
        self.acted_on = view

    def can_hint(self) -> bool:
        """Hints whenever this seat decides, at a table that allows them (each view
        says)."""
        view = self.view()
        pending = view.pending
        return (
            self.client.hints.get(self.table, False)
            and pending is not None
            and pending.seat == view.seat
            and bool(view.legal)
            and view is not self.acted_on
        )

    def hint_view(self) -> View:
        """Computed by this client from its own view: the table's CPU is the players'."""
        return self.view()

    # ------------------------------------------------------------ at the table

    chat_limit = pr.CHAT_MAX

    def chat(self, text: str) -> None:
        """A line to everyone at the table (the server cleans and limits it)."""
        self.client.send(pr.Chat(self.table, text[: pr.CHAT_MAX]))

    def heard(self, kind: str, name: str) -> bool:
        """A table's notice (`kind`, naming `name`) as it concerns this seat's own
        clock: a `slow` one means the table's bot plays the seat now, a `back` one of
        this seat's player that it is theirs again. Whether the notice is this seat's
        own decision's time (nearly) up, to tell the player in words for them (the
        clock is always the deciding seat's)."""
        if not self.ready:
            return False
        view = self.view()
        if kind == "back" and view.seat >= 0 and view.me.name == name:
            self.bot_plays = False  # (the seat taken back another way: a reconnect)
            return False
        if kind not in ("decide_soon", "slow"):
            return False
        if view.pending is None or view.pending.seat != view.seat:
            return False
        if kind == "slow":
            self.bot_plays = True  # (Enter at the game screen takes the seat back)
        return True

    def take_back(self) -> None:
        """The seat from the table's bot: the table hands it back and shows it."""
        if self.client.take_seat(self.table, self.viewer):
            self.bot_plays = False

    def toggle_auto_pass(self) -> bool:
        """Pass by myself where I cannot cancel, or no longer; the new setting."""
        self.client.auto_pass = not self.client.auto_pass
        self.client.send(pr.Options(auto_pass=self.client.auto_pass))
        return self.client.auto_pass


def why_not(view: View, action) -> IllegalAction:
    """Why this seat's move is refused, in the engine's words (its rule and numbers: "costs
    4 PA and you have 3"), with no round trip: on its own turn, the engine judges it on a
    game this seat cannot tell from the real one; whatever it hides (others' cards, the
    piles) is sampled, and the refusal of one's own move never depends on it."""
    pending = view.pending
    if pending is not None and pending.seat != view.seat:  # (the view says whose it is)
        return IllegalAction("not_your_decision", waiting=pending.kind)
    try:
        state = engine.determinize(view, default_content(), random.Random(0))
        return why_illegal(state, action) or IllegalAction("not_an_option")
    except Exception:  # noqa: BLE001 - not at one's turn: the words are advice, never a crash
        return IllegalAction("not_an_option")


if TYPE_CHECKING:  # the type checker holds it to the parts its `can` names
    from . import session as ss

    def _parts(
        s: RemoteSession,
    ) -> tuple[
        ss.Session, ss.Playing, ss.Undoing, ss.Hinting, ss.TableFeed, ss.Chatting, ss.AutoPass
    ]:
        return s, s, s, s, s, s, s
