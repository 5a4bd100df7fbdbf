"""The lobby of a table server: its tables, and keys to create one, sit, resume or watch.

Every name and table name came from another user: it is shown as plain Rich Text
(never parsed as markup), after the server turned control characters into visible
pictures, so it can neither run an action nor drive the terminal. The screen speaks
to the server through the app's `LobbyLink` (play/lobby.py): it knows no transport.
"""

from __future__ import annotations

import math

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from ...content import configuration_ids
from ...engine import sides_of
from ..messages import TableEvent
from .bindings import quiet
from .choice import ChoiceModal
from .text_prompt import TextModal

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
    # Seats are numbered from 1 wherever a player reads them (as in the seat picker).
    return f"{side:<9} {who}" if index is None else f"{index + 1}. {side:<9} {who}"


def table_line(tr, table: dict) -> str:
    free = sum(1 for s in table["seats"] if s["open"] and not s["player"] and not s["bot"])
    if table.get("damaged"):  # its save did not read after a restart (told, not hidden)
        where = tr("lobby.damaged")
    elif table.get("stage") == "waiting":
        where = tr("lobby.waiting")
    elif table.get("outcome"):  # a finished table says so, then how it ended
        where = tr("lobby.over", band=tr("band." + table["outcome"]))
    elif table.get("stage") == "mulligan":  # started: hands dealt, not a round yet
        where = tr("lobby.dealing")
    else:
        where = tr("phase_turn", phase=table["phase"], turn=table["round"], of=table["rounds"])
    lock = " 🔒" if table.get("code") else ""
    lock += " 💡" if table.get("hints") else ""  # its players may ask for hints
    width = 24 - len(lock) * 3 // 2  # each mark takes three cells: the line keeps its width
    return (
        f"{table['name'][:width]:<{width}}{lock} {table['configuration']:<4} "
        f"{tr('lobby.free_n', n=free):<12} · {where} · 👁 {table['spectators']}"
    )


def duration(seconds) -> str:
    """A wait as a player reads it: whole minutes (rounded up), or seconds under one."""
    seconds = max(1, math.ceil(float(seconds)))
    return f"{math.ceil(seconds / 60)} min" if seconds >= 60 else f"{seconds} s"


def net_error(tr, error) -> str:
    """A server's refusal (an `ErrorMessage`: its code, message and params) in the
    player's language (its code), else its own words. A table refused says which limit
    (`full`'s reason) and when one of its tables goes."""
    params = error.params
    if error.code == "full" and isinstance(params, dict):
        key = f"net.full.{params.get('reason')}"
        try:
            if params.get("wait") is not None:
                return tr(
                    f"{key}_wait",
                    most=int(params["most"]),
                    max=int(params["max"]),
                    wait=duration(params["wait"]),
                )
            if key in tr.strings:
                return tr(key, most=int(params["most"]), max=int(params["max"]))
        except (KeyError, TypeError, ValueError, OverflowError):
            pass  # a refusal without its numbers: said as any other
    if error.code == "damaged" and isinstance(params, dict):
        return damaged_line(tr, params.get("reason"))
    key = f"net.{error.code}"
    if key in tr.strings:
        return tr(key)
    return Text(error.message).plain


def damaged_line(tr, reason) -> str:
    """A table whose save is damaged, refused in one line, with the server's reason."""
    return tr("net.damaged", reason=Text(str(reason or "?")).plain)


def expired_line(tr, notice) -> str:
    """A table nobody joined in time, gone (its `Notice`): which, and how long it waited."""
    wait = duration(notice.text) if notice.text.isdigit() else "?"
    return tr("notice.expired", table=Text(notice.table).plain, wait=wait)


class LobbyScreen(Screen[None]):
    """The tables of the server; keys to create one, sit, resume or watch."""

    DEFAULT_CSS = """
    LobbyScreen { padding: 0 1; }
    LobbyScreen #lobby-title { text-style: bold; }
    LobbyScreen #lobby-status { color: $text-muted; }
    LobbyScreen #lobby-tables { height: 1fr; border: round $secondary; padding: 0 1; }
    LobbyScreen #lobby-keys { color: $text-muted; }
    """
    BINDINGS = quiet(
        ("up", "move(-1)"),
        ("down", "move(1)"),
        ("n", "create"),
        ("enter", "sit"),
        ("w", "watch"),
        ("q", "quit"),
    )

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
        lobby = self.app.lobby
        status = tr("lobby.connected", name=lobby.name) if lobby.connected else tr("lobby.offline")
        self.query_one("#lobby-status", Static).update(Text(status))
        tables = lobby.tables
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
                    if table.get("damaged"):
                        why = tr("lobby.damaged_why", reason=str(table["damaged"]))
                        body.append("      " + why + "\n", style="dim")
                    for index, seat in enumerate(table["seats"]):
                        body.append("      " + seat_line(tr, index, seat) + "\n", style="dim")
        self.query_one("#lobby-tables", Static).update(body)

    def on_table_event(self, event: TableEvent) -> None:
        if event.kind in ("tables", "welcome", "link"):
            self.show()
        elif event.kind == "error":
            self.app.notify(net_error(self.app.tr, event.message), markup=False)

    def action_move(self, step: int) -> None:
        if self.app.lobby.tables:
            self.selected = (self.selected + step) % len(self.app.lobby.tables)
            self.show()

    def _table(self) -> dict | None:
        tables = self.app.lobby.tables
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
        seats = sum(sides_of(config))
        options = [(tr("lobby.humans_n", n=n), n) for n in range(1, seats + 1)]
        self.app.push_screen(
            ChoiceModal(tr("lobby.create_humans"), options, can_back=True),
            lambda humans: self._ask_side(config, humans),
        )

    def _ask_side(self, config: str, humans: int | None) -> None:
        if humans is None:
            return
        tr = self.app.tr
        options = [
            (tr("lobby.side_ecologist"), "ecologist"),
            (tr("lobby.side_lobbyist"), "lobbyist"),
        ]
        self.app.push_screen(
            ChoiceModal(tr("lobby.create_side"), options, can_back=True),
            lambda side: self._ask_hints(config, humans, side),
        )

    def _ask_hints(self, config: str, humans: int, side: str | None) -> None:
        if side is None:
            return
        tr = self.app.tr
        options = [(tr("lobby.hints_no"), False), (tr("lobby.hints_yes"), True)]
        self.app.push_screen(
            ChoiceModal(tr("lobby.create_hints"), options, can_back=True),
            lambda hints: self._ask_name(config, humans, side, hints),
        )

    def _ask_name(self, config: str, humans: int, side: str, hints: bool | None) -> None:
        """The table's name, its creator's choice: a free one made from their name is
        there already (Enter keeps it). Checked here as the server checks it."""
        if hints is None:
            return
        lobby, tr = self.app.lobby, self.app.tr

        def check(text: str) -> str | None:
            problem = lobby.name_problem(lobby.tidy_name(text))
            return tr(f"lobby.name.{problem}", most=lobby.name_max) if problem else None

        self.app.push_screen(
            TextModal(
                tr("lobby.name_prompt", most=lobby.name_max),
                lobby.name_max * 2,
                value=lobby.free_name(config),
                check=check,
            ),
            lambda name: self._ask_code(config, humans, side, hints, name),
        )

    def _ask_code(self, config: str, humans: int, side: str, hints: bool, name: str | None):
        if name is None:
            return
        self.app.push_screen(
            TextModal(self.app.tr("lobby.code_prompt"), self.app.lobby.code_max),
            lambda code: self._create(config, humans, side, hints, name, code),
        )

    def _create(
        self, config: str, humans: int, side: str, hints: bool, name: str, code: str | None
    ) -> None:
        if code is None:
            return
        lobby = self.app.lobby
        name = lobby.create(
            config, humans, code.strip(), hints=hints, side=side, name=lobby.tidy_name(name)
        )
        self.app.open_table(name, creator=True)

    def _damaged(self, table: dict | None) -> bool:
        """A damaged table is refused here at once, as the server would refuse it."""
        if table is None or not table.get("damaged"):
            return False
        self.app.notify(damaged_line(self.app.tr, table["damaged"]), markup=False)
        return True

    def action_sit(self) -> None:
        table = self._table()
        if table is None or self._damaged(table):
            return
        lobby = self.app.lobby
        mine = lobby.own_seat(table)
        if mine is not None:
            lobby.sit(table["name"], mine)
            self.app.open_table(table["name"])
            return
        tr = self.app.tr
        free = lobby.free_seats(table)
        options = [(seat_line(tr, None, table["seats"][i]), i) for i in free]
        if not options:
            self.app.notify(tr("lobby.no_seat"), markup=False)
            return
        numbers = [i + 1 for i in free]  # as the lobby and the waiting room number them
        self.app.push_screen(
            ChoiceModal(tr("lobby.pick_seat"), options, can_back=True, numbers=numbers),
            lambda seat: self._sit(table["name"], seat),
        )

    def _sit(self, name: str, seat: int | None) -> None:
        if seat is None:
            return
        table = self.app.lobby.table(name)
        if table is not None and table.get("code"):
            self.app.push_screen(
                TextModal(self.app.tr("lobby.code_ask"), self.app.lobby.code_max),
                lambda code: self._sit_with(name, seat, code),
            )
            return
        self._sit_with(name, seat, "")

    def _sit_with(self, name: str, seat: int, code: str | None) -> None:
        if code is None:
            return
        self.app.lobby.sit(name, seat, code.strip())
        self.app.open_table(name)

    def action_watch(self) -> None:
        table = self._table()
        if table is None or self._damaged(table):
            return
        if self.app.lobby.needs_code(table):
            self.app.push_screen(
                TextModal(self.app.tr("lobby.code_ask"), self.app.lobby.code_max),
                lambda code: self._watch(table["name"], code),
            )
            return
        self._watch(table["name"], "")

    def _watch(self, name: str, code: str | None) -> None:
        if code is None:
            return
        self.app.lobby.watch(name, code.strip())
        self.app.open_table(name, watching=True)

    def action_quit(self) -> None:
        self.app.exit()
