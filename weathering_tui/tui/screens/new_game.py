"""The new-game form: configuration, each seat, events, seed. Enter, Enter starts a game."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from ...content import configuration_ids
from ...engine import (
    LABELS,
    SeatSetup,
    Setup,
    difficulty_of,
    human_seats,
    sides_of,
    with_difficulty,
)

CONFIGS = configuration_ids()
CONTROLLERS = ("human", "heuristic", "expert", "random")


class NewGameForm(Widget, can_focus=True):
    """One widget, many rows: ↑↓ picks a row, ←→ changes it, digits type the seed."""

    def __init__(self, tr, content, config: str = "2v1", humans: int = 1, seed: int | None = None):
        super().__init__()
        self.tr = tr
        self.rules = content
        self.row = 0
        self.config = config
        self.events = True
        self.ask_all = False
        self.seed_text = "" if seed is None else str(seed)
        self.seats: list[list] = []
        self._reset_seats(humans)
        self.level = self.fair_level()

    def fair_level(self) -> str:
        """The configuration's fair difficulty (rules-reference §2.1): the default."""
        return self.rules.configurations[self.config].recommended_label

    def asks_all(self) -> bool:
        """Several players at this terminal: every one of them is asked in every window
        (whether one is asked must not tell what they hold); alone, as chosen."""
        return self.ask_all or sum(who == "human" for _, _, who in self.seats) > 1

    def lobbyist_chosen(self) -> bool:
        return any(s == "lobbyist" and c != "random" for s, c, _ in self.seats)

    def _reset_seats(self, humans: int = 1) -> None:
        eco, lob = sides_of(self.config)
        sides = ["ecologist"] * eco + ["lobbyist"] * lob
        human = human_seats(eco, lob, humans)
        self.seats = [
            [side, "random", "human" if i in human else "heuristic"] for i, side in enumerate(sides)
        ]

    def rows(self) -> list[str]:
        return (
            ["config", "difficulty"]
            + [f"seat{i}" for i in range(len(self.seats))]
            + ["events", "ask_all", "seed", "start"]
        )

    def characters_for(self, side: str) -> list[str]:
        return ["random"] + [c.id for c in self.rules.characters.values() if c.side == side]

    def difficulty(self) -> str:
        """The label the game will have (the engine's rule: the harshest Lobbyiste's)."""
        label = difficulty_of(self.setup(seed=0), self.rules)
        text = self.tr("label." + label)
        if label == self.fair_level():
            text += f" ({self.tr('new.fair')})"
        return text

    def render(self) -> Text:
        tr = self.tr
        out = Text()
        rows = self.rows()
        for index, row in enumerate(rows):
            here = index == self.row
            mark = "▶ " if here else "  "
            if row == "config":
                line = f"{tr('new.config'):<26} ◀ {self.config} ▶"
            elif row == "difficulty":
                line = f"{tr('new.difficulty').capitalize():<26} ◀ {self.difficulty()} ▶"
            elif row.startswith("seat"):
                i = int(row[4:])
                side, char, human = self.seats[i]
                name = tr("random") if char == "random" else self.rules.characters[char].name
                who = (
                    tr("new.human") if human == "human" else f"{tr('new.bot')} {tr('bot.' + human)}"
                )
                label = f"{tr('new.seat')} {i + 1} · {tr('side.' + side)}"
                line = f"{label:<26} ◀ {name:<18} ▶ {who}"
            elif row == "events":
                events = tr("new.events_on") if self.events else tr("new.events_off")
                line = f"{tr('new.events'):<26} {events}"
            elif row == "ask_all":
                line = f"{tr('new.ask_all'):<26} {tr('yes') if self.asks_all() else tr('no')}"
            elif row == "seed":
                line = f"{tr('new.seed'):<26} {self.seed_text or tr('new.seed_random')}"
            else:
                line = tr("new.start")
            out.append(mark + line + "\n", style="reverse bold" if here else "")
        row = rows[self.row]
        if row.startswith("seat"):  # who the chosen character is, and what their power does
            char = self.seats[int(row[4:])][1]
            if char != "random":
                power = tr.power(char) + tr.colon
                about = f"{self.rules.characters[char].name}, {tr.role(char)} · {power}"
                out.append("\n" + about + tr.power_text(char) + "\n", style="italic")
        elif row == "ask_all":  # what the option does, where it is chosen
            out.append("\n" + tr("new.ask_all.about") + "\n", style="italic")
        out.append("\n" + tr("new.keys"), style="dim")
        return out

    def change(self, step: int) -> None:
        row = self.rows()[self.row]
        if row == "config":
            humans = sum(1 for s in self.seats if s[2] == "human")
            self.config = CONFIGS[(CONFIGS.index(self.config) + step) % len(CONFIGS)]
            self._reset_seats(max(1, min(humans, 1)))
            self.level = self.fair_level()
        elif row == "difficulty":
            if self.lobbyist_chosen():  # the chosen Lobbyiste sets it: back to "random" first
                self.app.bell()
            else:
                self.level = LABELS[(LABELS.index(self.level) + step) % len(LABELS)]
        elif row.startswith("seat"):
            seat = self.seats[int(row[4:])]
            taken = {s[1] for s in self.seats if s is not seat and s[1] != "random"}
            options = [c for c in self.characters_for(seat[0]) if c not in taken]
            seat[1] = (
                options[(options.index(seat[1]) + step) % len(options)]
                if seat[1] in options
                else "random"
            )
        elif row == "events":
            self.events = not self.events
        elif row == "ask_all":
            self.ask_all = not self.ask_all
        self.refresh(layout=True)  # rows and the line under them change its height

    def toggle_human(self) -> None:
        row = self.rows()[self.row]
        if row.startswith("seat"):
            seat = self.seats[int(row[4:])]
            order = CONTROLLERS
            seat[2] = order[(order.index(seat[2]) + 1) % len(order)]
            self.refresh(layout=True)  # rows and the line under them change its height

    def setup(self, seed: int | None = None) -> Setup:
        import random

        if seed is None:
            seed = int(self.seed_text) if self.seed_text else random.SystemRandom().randrange(10**6)
        seats = tuple(
            SeatSetup(side, char, human=who == "human", bot="heuristic" if who == "human" else who)
            for side, char, who in self.seats
        )
        setup = Setup(
            self.config, seats, seed=seed, events=self.events, ask_every_human=self.asks_all()
        )
        return with_difficulty(setup, self.level, self.rules)

    def on_key(self, event) -> None:
        key = event.key
        rows = self.rows()
        if key == "up":
            self.row = (self.row - 1) % len(rows)
        elif key == "down":
            self.row = (self.row + 1) % len(rows)
        elif key == "left":
            self.change(-1)
        elif key == "right":
            self.change(1)
        elif key in ("space", "h"):
            self.toggle_human()
        elif key == "backspace" and rows[self.row] == "seed":
            self.seed_text = self.seed_text[:-1]
        elif event.character and event.character.isdigit() and rows[self.row] == "seed":
            self.seed_text = (self.seed_text + event.character)[:9]
        elif key == "enter":
            event.stop()
            self.screen.start()
            return
        else:
            return
        event.stop()
        self.refresh(layout=True)  # rows and the line under them change its height


class NewGameScreen(Screen[None]):
    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    NewGameScreen #new-title { text-style: bold; width: auto; margin-bottom: 1; }
    NewGameScreen NewGameForm { width: 76; height: auto; }
    """
    BINDINGS = [Binding("escape", "back", "back", show=False)]

    def __init__(self, config: str = "2v1", humans: int = 1, seed: int | None = None):
        super().__init__()
        self.defaults = (config, humans, seed)

    def compose(self) -> ComposeResult:
        config, humans, seed = self.defaults
        with Middle():
            with Center():
                yield Static(self.app.tr("new.title"), id="new-title")
            with Center():
                yield NewGameForm(self.app.tr, self.app.content, config, humans, seed)

    def on_mount(self) -> None:
        self.query_one(NewGameForm).focus()

    def start(self) -> None:
        self.app.start_game(self.query_one(NewGameForm).setup())

    def action_back(self) -> None:
        self.app.pop_screen()
