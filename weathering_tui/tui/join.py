"""`weathering join`: the app at a table server — the lobby, the waiting room, then the
same game screen as a local game, fed by the table (your own hand, no privacy screens).

The app alone holds the connection (`TableClient`): it hands each screen what came as a
Textual message (`TableEvent`), and the screens speak through the `LobbyLink` and the
`RemoteSession` (play/), never to the transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from pathlib import Path

from ..net import server_messages as msg
from ..net.client import TableClient
from ..play.lobby import LobbyLink
from ..play.remote import RemoteSession
from .app import WeatheringApp
from .messages import TableEvent
from .screens.lobby import LobbyScreen, expired_line
from .screens.waiting import WaitingScreen


class JoinApp(WeatheringApp):
    """The app connected to a table server."""

    end_back = "end.back_lobby"

    def __init__(
        self,
        lang: str = "fr",
        socket_path: Path | None = None,
        identity: str | None = None,
        name: str | None = None,
        origin: str | None = None,
    ):
        super().__init__(lang=lang, saves_dir=None, autosave=False)
        self.client = TableClient(
            socket_path,
            identity=identity,
            name=name,
            client="weathering join",
            on_event=self.on_net,
            on_link=self.on_link,
            origin=origin,
        )
        self.lobby = LobbyLink(self.client)  # what the lobby and waiting screens speak to
        self.table: str | None = None
        self.waiting: WaitingScreen | None = None

    def start_screens(self) -> None:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            # `kill` ends the app as q does: the terminal is given back as it was.
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._terminated)
        self.push_screen(LobbyScreen())
        self.run_worker(self.client.run(), exclusive=True, group="net")
        self.check_size()

    def _terminated(self) -> None:
        """kill ends the app as q does. A terminal that takes no more output (stopped, or
        gone under a `su` that outlived it) blocks the screen's writes, and the app with
        them: it leaves anyway after a few seconds (the server keeps the seat), rather
        than linger and take the seat back from the player's next terminal."""
        self.exit()
        watchdog = threading.Timer(3.0, os._exit, (0,))
        watchdog.daemon = True
        watchdog.start()

    def on_unmount(self) -> None:
        self.client.close()

    # ------------------------------------------------------------ the network

    def on_link(self, up: bool) -> None:
        if not up:
            self.notify(self.tr("lobby.offline"), severity="warning", markup=False)
        elif self.session is not None:
            self.session.refused()  # an action sent before the drop may never have arrived
        self._tell(None)

    def on_net(self, message: msg.ServerMessage) -> None:
        if isinstance(message, msg.Notice) and message.kind == "expired":  # nobody joined
            if message.table == self.table:
                self.back_to_lobby()
            self.notify(expired_line(self.tr, message), severity="warning", markup=False)
            return
        here = getattr(message, "table", None) == self.table
        if isinstance(message, msg.Notice) and self.session is not None and here:
            self.session.notice(self._notice_line(message), at=message.at)
            self._warn_if_mine(message)
            self._tell(message)
            return
        if isinstance(message, msg.Welcome) and self.table is None:
            unfinished = [s["table"] for s in message.seats]
            if unfinished:  # back after a drop or a restart: straight to one's seat
                self.open_table(unfinished[0])
                return
        if isinstance(message, msg.TakenOver) and here:
            self.back_to_lobby()
            self.notify(self.tr("net.taken_over"), severity="warning", markup=False)
            return
        if isinstance(message, msg.ViewMessage) and here and self.session is None:
            self._start_game()
            return
        if isinstance(message, msg.ErrorMessage) and self.session is not None:
            code = message.code
            if code in ("illegal", "stale", "rate_limited", "storage", "paused"):
                self.session.refused()
                screen = self._game_screen()
                refusal = message.message if code == "illegal" else code
                if screen is not None:
                    screen.refuse(_refusal(refusal, message.params))
                    screen.advance()
                    return
        self._tell(message)

    def _notice_line(self, notice: msg.Notice) -> str:
        if notice.kind == "chat":
            return f"💬 {notice.name}: {notice.text}"
        return self.tr(f"notice.{notice.kind}", name=notice.name, seconds=_seconds(notice))

    def _warn_if_mine(self, notice: msg.Notice) -> None:
        """The player's own decision's time nearly up, or up: said on top of the screen
        (the log may be under a dialog), in words for them."""
        if self.session is not None and self.session.heard(notice.kind, notice.name):
            line = self.tr(f"notice.{notice.kind}.you", seconds=_seconds(notice))
            self.notify(line, severity="warning", timeout=10, markup=False)

    def _tell(self, message: msg.ServerMessage | None) -> None:
        """The screen on top hears it; the game screen under a dialog hears what changes
        the game (a new view, a notice, the link)."""
        screen = self.screen
        kind = "link" if message is None else msg.message_type(message)
        screen.post_message(TableEvent(kind, message))
        game = self._game_screen()
        changes_game = message is None or isinstance(message, msg.ViewMessage | msg.Notice)
        if game is not None and changes_game and game is not screen:
            game.post_message(TableEvent(kind, message))

    def _game_screen(self):
        from .screens.game import GameScreen

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        return None

    # ------------------------------------------------------------ screens

    def open_table(self, name: str, creator: bool = False, watching: bool = False) -> None:
        self.table = name
        self.session = None
        if name in self.client.views:
            self._start_game()
            return
        self.waiting = WaitingScreen(name, creator)
        self.push_screen(self.waiting)

    def _start_game(self) -> None:
        from .screens.game import GameScreen

        self.session = RemoteSession(self.client, self.table)
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.push_screen(GameScreen(self.session, self.tr, pace=0))

    def back_to_lobby(self) -> None:
        self.session = None
        self.table = None
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.lobby.refresh()

    def back_to_title(self) -> None:  # the end screen's way back: to the lobby
        if self.table is not None:
            self.lobby.leave(self.table)
        self.back_to_lobby()

    @property
    def dialog_keys(self) -> str:
        """Under a dialog at a table, q says where it goes (the tables) and who plays on."""
        return self.tr("dialog.keys.table") if self.session is not None else ""

    def quit_game(self, session) -> None:
        """Leaving the game screen: the server hears it (a bot plays the seat at once, and
        it stays yours to take back from the lobby); a spectator stops watching."""
        if self.table is not None:
            self.lobby.leave(self.table)
        self.back_to_lobby()

    async def action_quit(self) -> None:
        self.exit()

    async def action_leave(self) -> None:
        """q in a dialog at a table: back to the lobby, as q on the game screen."""
        if self.session is not None:
            self.quit_game(self.session)
        else:
            self.exit()


def _refusal(code, params):
    """The server's refusal as the engine's: its rule and that rule's values (the card, its
    cost, one's PA), so the sentence is the one a local game says. Anything else in the
    message is dropped: the sentence is built from known names and plain values only."""
    from ..engine import REFUSALS, IllegalAction

    if code not in REFUSALS:
        return IllegalAction("not_an_option")
    given = params if isinstance(params, dict) else {}
    values = {
        name: given[name]
        for name in REFUSALS[code]
        if isinstance(given.get(name), str | int) and not isinstance(given.get(name), bool)
    }
    return IllegalAction(code, **values)


def _seconds(notice: msg.Notice) -> str:
    """The seconds a `decide_soon` notice says are left ("?" if it says none)."""
    return notice.text if notice.text.isdigit() else "?"
