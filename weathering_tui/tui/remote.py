"""`weathering join`: the app at a table server — the lobby, the waiting room, then the
same game screen as a local game, fed by the table (your own hand, no privacy screens).

Every name, table name and chat line came from another user: it is shown as plain Rich
Text (never parsed as markup), after the server turned control characters into
visible pictures, so it can neither run an action nor drive the terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from ..content import configuration_ids
from ..net import protocol as pr
from ..net.client import TableClient
from ..play.remote import RemoteSession
from .app import WeatheringApp
from .screens.choice import ChoiceModal
from .screens.text_prompt import TextModal

CONFIGS = configuration_ids()


def seat_line(tr, index: int | None, seat: dict) -> str:
    side = tr("side." + seat["side"])
    if seat["player"]:
        who = seat["player"] + (f" ({tr('lobby.away')})" if seat["away"] else "")
        if seat["bot"]:
            who += f" → {tr('new.bot')}"
    elif seat["open"] and not seat["bot"]:
        who = tr("lobby.free")
    else:
        who = tr("new.bot")
    return f"{side:<6} {who}" if index is None else f"{index}. {side:<6} {who}"


def table_line(tr, table: dict) -> str:
    free = sum(1 for s in table["seats"] if s["open"] and not s["player"] and not s["bot"])
    if table.get("stage") == "waiting":
        where = tr("lobby.waiting")
    elif table.get("outcome"):
        where = tr("band." + table["outcome"])
    else:
        where = tr("phase_turn", phase=table["phase"], turn=table["round"], of=table["rounds"])
    lock = " 🔒" if table.get("code") else ""
    return (
        f"{table['name'][:24]:<24}{lock} {table['configuration']:<4} "
        f"{tr('lobby.free_n', n=free):<12} {where} · 👁 {table['spectators']}"
    )


def net_error(tr, message: dict) -> str:
    """A server's refusal in the player's language (its code), else its own words."""
    key = f"net.{message.get('code')}"
    if key in tr.strings:
        return tr(key)
    return Text(str(message.get("message", ""))).plain


class LobbyScreen(Screen[None]):
    """The tables of the server; keys to create one, sit, resume or watch."""

    DEFAULT_CSS = """
    LobbyScreen { padding: 0 1; }
    LobbyScreen #lobby-title { text-style: bold; }
    LobbyScreen #lobby-status { color: $text-muted; }
    LobbyScreen #lobby-tables { height: 1fr; border: round $secondary; padding: 0 1; }
    LobbyScreen #lobby-keys { color: $text-muted; }
    """
    BINDINGS = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("n", "create", show=False),
        Binding("enter", "sit", show=False),
        Binding("w", "watch", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self):
        super().__init__()
        self.selected = 0

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        yield Static(tr("lobby.title"), id="lobby-title")
        yield Static("", id="lobby-status")
        yield Static("", id="lobby-tables")
        yield Static(tr("lobby.keys"), id="lobby-keys")

    def on_mount(self) -> None:
        self.show()

    def on_screen_resume(self) -> None:
        self.show()  # what came while another screen was up (the too-small message)

    def show(self) -> None:
        tr = self.app.tr
        client = self.app.client
        status = (
            tr("lobby.connected", name=client.name)
            if client.connected.is_set()
            else tr("lobby.offline")
        )
        self.query_one("#lobby-status", Static).update(Text(status))
        tables = client.tables
        self.selected = max(0, min(self.selected, len(tables) - 1))
        if not tables:
            body = Text(tr("lobby.none"), style="dim")
        else:
            body = Text()
            for i, table in enumerate(tables):
                line = Text(("▸ " if i == self.selected else "  ") + table_line(tr, table))
                if i == self.selected:
                    line.stylize("reverse")
                body.append_text(line)
                body.append("\n")
                if i == self.selected:
                    for index, seat in enumerate(table["seats"]):
                        body.append("      " + seat_line(tr, index, seat) + "\n", style="dim")
        self.query_one("#lobby-tables", Static).update(body)

    def on_net(self, kind: str, message: dict) -> None:
        if kind in ("tables", "welcome", "link"):
            self.show()
        elif kind == "error":
            self.app.notify(net_error(self.app.tr, message), markup=False)

    def action_move(self, step: int) -> None:
        if self.app.client.tables:
            self.selected = (self.selected + step) % len(self.app.client.tables)
            self.show()

    def _table(self) -> dict | None:
        tables = self.app.client.tables
        return tables[self.selected] if tables else None

    def action_create(self) -> None:
        tr = self.app.tr
        options = [(c, c) for c in CONFIGS]
        self.app.push_screen(
            ChoiceModal(tr("lobby.create_config"), options, can_back=True), self._config_chosen
        )

    def _config_chosen(self, config: str | None) -> None:
        if config is None:
            return
        tr = self.app.tr
        seats = sum(int(n) for n in config.split("v"))
        options = [(tr("lobby.humans_n", n=n), n) for n in range(1, seats + 1)]
        self.app.push_screen(
            ChoiceModal(tr("lobby.create_humans"), options, can_back=True),
            lambda humans: self._ask_code(config, humans),
        )

    def _ask_code(self, config: str, humans: int | None) -> None:
        if humans is None:
            return
        self.app.push_screen(
            TextModal(self.app.tr("lobby.code_prompt"), pr.CODE_MAX),
            lambda code: self._create(config, humans, code),
        )

    def _create(self, config: str, humans: int, code: str | None) -> None:
        if code is None:
            return
        code = code.strip()
        client = self.app.client
        base = f"{client.name}-{config}"
        names = {t["name"].casefold() for t in client.tables}
        name, n = base[: pr.NAME_MAX], 1
        while name.casefold() in names:
            n += 1
            name = f"{base[: pr.NAME_MAX - 3]}-{n}"
        client.send(pr.CreateTable(name, config, tuple(range(humans)), code=code))
        client.take_seat(name, 0, code)
        self.app.open_table(name, creator=True)

    def action_sit(self) -> None:
        table = self._table()
        if table is None:
            return
        client = self.app.client
        mine = client.seats.get(table["name"])
        if mine is None:  # a seat of mine the table lists (taken over, then left away)
            mine = next(
                (
                    i
                    for i, s in enumerate(table["seats"])
                    if s["player"] and s["player"] == client.name
                ),
                None,
            )
        if mine is not None:
            self.app.client.take_seat(table["name"], mine)
            self.app.open_table(table["name"])
            return
        tr = self.app.tr
        options = [  # the dialog numbers them: no seat number before its own
            (seat_line(tr, None, s), i)
            for i, s in enumerate(table["seats"])
            if s["open"] and not s["player"] and not s["bot"]
        ]
        if not options:
            self.app.notify(tr("lobby.no_seat"), markup=False)
            return
        self.app.push_screen(
            ChoiceModal(tr("lobby.pick_seat"), options, can_back=True),
            lambda seat: self._sit(table["name"], seat),
        )

    def _sit(self, name: str, seat: int | None) -> None:
        if seat is None:
            return
        table = next((t for t in self.app.client.tables if t["name"] == name), None)
        if table is not None and table.get("code"):
            self.app.push_screen(
                TextModal(self.app.tr("lobby.code_ask"), pr.CODE_MAX),
                lambda code: self._sit_with(name, seat, code),
            )
            return
        self._sit_with(name, seat, "")

    def _sit_with(self, name: str, seat: int, code: str | None) -> None:
        if code is None:
            return
        self.app.client.take_seat(name, seat, code.strip())
        self.app.open_table(name)

    def action_watch(self) -> None:
        table = self._table()
        if table is None:
            return
        if table.get("code") and table["name"] not in self.app.client.seats:
            self.app.push_screen(
                TextModal(self.app.tr("lobby.code_ask"), pr.CODE_MAX),
                lambda code: self._watch(table["name"], code),
            )
            return
        self._watch(table["name"], "")

    def _watch(self, name: str, code: str | None) -> None:
        if code is None:
            return
        self.app.client.spectate(name, code.strip())
        self.app.open_table(name, watching=True)

    def action_quit(self) -> None:
        self.app.exit()


class WaitingScreen(Screen[None]):
    """Until the creator starts the game: who sits where. Empty open seats become bots."""

    DEFAULT_CSS = """
    WaitingScreen { padding: 1 2; }
    WaitingScreen #wait-title { text-style: bold; }
    WaitingScreen #wait-keys { color: $text-muted; margin-top: 1; }
    """
    BINDINGS = [
        Binding("s", "start", show=False),
        Binding("escape,q", "leave", show=False),
    ]

    def __init__(self, table: str, creator: bool):
        super().__init__()
        self.table = table
        self.creator = creator

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        yield Static(Text(tr("wait.title", table=self.table)), id="wait-title")
        yield Static("", id="wait-seats")
        keys = tr("wait.keys_creator") if self.creator else tr("wait.keys")
        yield Static(keys, id="wait-keys")

    def on_mount(self) -> None:
        self.show()

    def on_screen_resume(self) -> None:
        self.show()

    def show(self, summary: dict | None = None) -> None:
        tr = self.app.tr
        client = self.app.client
        summary = (  # the table's own word (it may have come before this screen did)
            summary
            or client.summaries.get(self.table)
            or next((t for t in client.tables if t["name"] == self.table), None)
        )
        if summary is None:
            return
        text = Text()
        for i, seat in enumerate(summary["seats"]):
            text.append(seat_line(tr, i, seat) + "\n")
        self.query_one("#wait-seats", Static).update(text)

    def on_net(self, kind: str, message: dict) -> None:
        if kind == "table" and message["table"] == self.table:
            self.show(message["summary"])
        elif kind == "error":
            self.app.notify(net_error(self.app.tr, message), markup=False)

    def action_start(self) -> None:
        if self.creator:
            self.app.client.send(pr.Start(self.table))

    def action_leave(self) -> None:
        self.app.client.leave(self.table)
        self.app.back_to_lobby()


class JoinApp(WeatheringApp):
    """The app connected to a table server."""

    end_back = "end.back_lobby"

    def __init__(
        self,
        lang: str = "fr",
        socket_path: Path | None = None,
        identity: str | None = None,
        name: str | None = None,
    ):
        super().__init__(lang=lang, saves_dir=None, autosave=False)
        self.client = TableClient(
            socket_path,
            identity=identity,
            name=name,
            client="weathering join",
            on_event=self.on_net,
            on_link=self.on_link,
        )
        self.table: str | None = None
        self.waiting: WaitingScreen | None = None

    def start_screens(self) -> None:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            # `kill` ends the app as q does: the terminal is given back as it was.
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.exit)
        self.push_screen(LobbyScreen())
        self.run_worker(self.client.run(), exclusive=True, group="net")
        self.check_size()

    def on_unmount(self) -> None:
        self.client.close()

    # ------------------------------------------------------------ the network

    def on_link(self, up: bool) -> None:
        if not up:
            self.notify(self.tr("lobby.offline"), severity="warning", markup=False)
        elif self.session is not None:
            self.session.refused()  # an action sent before the drop may never have arrived
        self._tell("link", {})

    def on_net(self, kind: str, message: dict) -> None:
        if kind == "notice" and self.session is not None and message["table"] == self.table:
            self.session.notice(self._notice_line(message))
            self._tell("notice", message)
            return
        if kind == "welcome" and self.table is None:
            unfinished = [s["table"] for s in message.get("seats", [])]
            if unfinished:  # back after a drop or a restart: straight to one's seat
                self.open_table(unfinished[0])
                return
        if kind == "taken_over" and message["table"] == self.table:
            self.back_to_lobby()
            self.notify(self.tr("net.taken_over"), severity="warning", markup=False)
            return
        if kind == "view" and message["table"] == self.table and self.session is None:
            self._start_game()
            return
        if kind == "error" and self.session is not None:
            code = message.get("code", "")
            if code in ("illegal", "stale", "rate_limited"):
                from ..engine import REFUSALS, IllegalAction

                self.session.refused()
                screen = self._game_screen()
                refusal = message.get("message") if code == "illegal" else "not_an_option"
                if screen is not None:
                    screen.refuse(
                        IllegalAction(refusal if refusal in REFUSALS else "not_an_option")
                    )
                    screen.advance()
                    return
        self._tell(kind, message)

    def _notice_line(self, message: dict) -> str:
        kind, name, text = message["kind"], message["name"], message.get("text", "")
        if kind == "chat":
            return f"💬 {name}: {text}"
        return self.tr(f"notice.{kind}", name=name)

    def _tell(self, kind: str, message: dict) -> None:
        screen = self.screen
        handler = getattr(screen, "on_net", None)
        if handler is not None:
            handler(kind, message)
        game = self._game_screen()
        if game is not None and kind in ("view", "notice", "link") and game is not screen:
            game.on_net(kind, message)

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
        self.client.send(pr.ListTables())

    def back_to_title(self) -> None:  # the end screen's way back: to the lobby
        if self.table is not None:
            self.client.leave(self.table)
        self.back_to_lobby()

    def quit_game(self, session) -> None:
        """Leaving the game screen: the seat stays yours (a bot plays it after the grace)."""
        self.back_to_lobby()

    async def action_quit(self) -> None:
        self.exit()
