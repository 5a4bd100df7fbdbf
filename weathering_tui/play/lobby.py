"""The lobby of a table server as the lobby and waiting screens use it (no Textual).

The screens know no transport: they read the tables and send their requests through
this object, which speaks the protocol through a `TableClient`."""

from __future__ import annotations

from ..net import protocol as pr
from ..net.client import TableClient


class LobbyLink:
    """The tables a server lists, and the requests of this terminal's player."""

    code_max = pr.CODE_MAX
    name_max = pr.NAME_MAX

    def __init__(self, client: TableClient):
        self.client = client

    @property
    def connected(self) -> bool:
        return self.client.connected.is_set()

    @property
    def name(self) -> str:
        return self.client.name

    @property
    def tables(self) -> list[dict]:
        return self.client.tables

    def table(self, name: str) -> dict | None:
        return next((t for t in self.client.tables if t["name"] == name), None)

    def summary(self, name: str) -> dict | None:
        """The waiting room as the table last said (it may come before the lobby's)."""
        return self.client.summaries.get(name) or self.table(name)

    @staticmethod
    def free_seats(table: dict) -> list[int]:
        return [
            i
            for i, s in enumerate(table["seats"])
            if s["open"] and not s["player"] and not s["bot"]
        ]

    def own_seat(self, table: dict) -> int | None:
        """This player's seat at `table`: the one held, else one the table lists under
        this player's name (taken over, then left away)."""
        mine = self.client.seats.get(table["name"])
        if mine is None:
            mine = next(
                (
                    i
                    for i, s in enumerate(table["seats"])
                    if s["player"] and s["player"] == self.client.name
                ),
                None,
            )
        return mine

    def needs_code(self, table: dict) -> bool:
        """Watching (or sitting at) a table with a join code takes it, unless seated."""
        return bool(table.get("code")) and table["name"] not in self.client.seats

    # ------------------------------------------------------------ requests

    @staticmethod
    def tidy_name(text: str) -> str:
        """A typed name as it is sent: in normal form, single spaces, none at its ends."""
        import unicodedata

        return " ".join(unicodedata.normalize("NFC", text).split())

    def name_problem(self, name: str) -> str | None:
        """Why `name` cannot name a new table (a word key's last part), as the server
        would refuse it: its form (`protocol.table_name_problem`), or a table listed
        under that name that is not over ("taken")."""
        problem = pr.table_name_problem(name)
        if problem is None and self._taken(name):
            problem = "taken"
        return problem

    def _taken(self, name: str) -> bool:
        return any(
            t["name"].casefold() == name.casefold() and not t.get("outcome")
            for t in self.client.tables
        )

    def free_name(self, config: str) -> str:
        """A name no table holds, from the player's name and the configuration (the
        player's name as far as a table's name may say it)."""
        own = "".join(ch for ch in self.client.name if pr.table_name_problem(ch) in (None, "word"))
        base = f"{own or 'table'}-{config}"[: pr.NAME_MAX]
        name, n = base, 1
        while self._taken(name) or pr.table_name_problem(name) is not None:
            n += 1
            name = f"{base[: pr.NAME_MAX - 3]}-{n}"
            if n > 999:
                return f"table-{config}"
        return name

    def create(
        self,
        config: str,
        humans: int,
        code: str,
        hints: bool = False,
        side: str = "ecologist",
        name: str | None = None,
    ) -> str:
        """A new table named `name` (else a free one from its creator's name), where
        its creator sits at the first seat of `side`; the other humans' seats follow on
        both sides in turn (`engine.human_seats`)."""
        from ..engine import human_seats, sides_of

        eco, lob = sides_of(config)
        mine = 0 if side == "ecologist" or not lob else eco
        seats = human_seats(eco, lob, humans, first=mine)
        name = name or self.free_name(config)
        self.client.send(pr.CreateTable(name, config, tuple(seats), code=code, hints=hints))
        self.client.take_seat(name, mine, code)
        return name

    def sit(self, name: str, seat: int, code: str = "") -> None:
        self.client.take_seat(name, seat, code)

    def watch(self, name: str, code: str = "") -> None:
        self.client.spectate(name, code)

    def start(self, name: str) -> None:
        self.client.send(pr.Start(name))

    def leave(self, name: str) -> None:
        self.client.leave(name)

    def refresh(self) -> None:
        self.client.send(pr.ListTables())
