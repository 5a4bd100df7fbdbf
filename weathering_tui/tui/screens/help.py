"""Help: the keys, the turn and phase rules, and a browser of every card, character and event."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static, TabbedContent, TabPane

from ...words import HELP_KEYS, LEGEND, RULES
from ..keymap import help_lines
from .closing import close


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen TabbedContent {
        width: 96%; height: 92%; border: thick $accent; background: $surface;
    }
    HelpScreen VerticalScroll { padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "close"),
        Binding("c", "show('cards')", show=False),
        Binding("left", "tab(-1)", show=False, priority=True),
        Binding("right", "tab(1)", show=False, priority=True),
    ]

    def __init__(self, tr, tab: str = "keys", keys: list[tuple[str, str]] | None = None):
        """`keys`: the keys of the screen it is opened from, when not the game's (the
        replay's)."""
        super().__init__()
        self.tr = tr
        self.tab = tab
        self.screen_keys = keys

    def compose(self) -> ComposeResult:
        tr = self.tr
        with TabbedContent(initial=self.tab):
            with TabPane(tr("help.keys"), id="keys"), VerticalScroll():
                yield Static(self._keys())
            with TabPane(tr("help.rules"), id="rules"), VerticalScroll():
                yield Static(RULES[tr.lang])
            with TabPane(tr("help.cards"), id="cards"), VerticalScroll():
                yield Static(self._cards())
            with TabPane(tr("help.characters"), id="characters"), VerticalScroll():
                yield Static(self._characters())
            with TabPane(tr("help.events"), id="events"), VerticalScroll():
                yield Static(self._events())

    def on_mount(self) -> None:
        # How to leave and move, on every page's frame (the keys page also ends with it)
        self.query_one(TabbedContent).border_subtitle = self.tr("help.close")
        self._focus_page()

    def on_tabbed_content_tab_activated(self, event) -> None:
        self._focus_page()

    def _focus_page(self) -> None:
        """The shown page has the focus: ↓, PageDown, Home and End scroll it at once."""
        content = self.query_one(TabbedContent)
        pane = content.get_pane(content.active) if content.active else None
        if pane is not None:
            pane.query_one(VerticalScroll).focus()

    def _keys(self) -> Text:
        out = Text()
        import textwrap

        # Two columns; a long description wraps under itself, not under the key.
        width = max(30, (self.app.size.width * 96 // 100) - 22)
        session = getattr(self.app, "session", None)
        view = session.view() if session is not None else None
        keys = self.screen_keys
        if keys is None:
            keys = help_lines(HELP_KEYS[self.tr.lang])  # the game screen's keys, in its order
        for key, what in keys + [("", ""), (self.tr("help.legend"), "")] + LEGEND[self.tr.lang]:
            if key == "x" and self.screen_keys is None and view is not None and not view.spectator:
                what += self.tr("help.discard_now", n=view.discard_yield)
            # padded by the cells it takes: ✋ takes two (str.ljust shifted its line by one)
            out.append(key + " " * max(1, 16 - cell_len(key)), style="bold")
            out.append("\n".join(textwrap.wrap(what, width)).replace("\n", "\n" + " " * 16) + "\n")
        out.append("\n" + self.tr("help.close"), style="dim")
        return out

    def _cards(self) -> Text:
        tr = self.tr
        out = Text()
        for card in tr.content.cards.values():
            out.append(f"{tr.card(card.id):<28}", style="bold")
            out.append(f"{tr('type.' + card.type)} {card.cost} PA ×{card.copies}  ")
            out.append(tr.card_text(card.id) + "\n", style="dim")
        return out

    def _characters(self) -> Text:
        tr = self.tr
        out = Text()
        for char in tr.content.characters.values():
            label = f" {tr('label.' + char.label)}" if char.label else ""
            costs = "/".join(str(level.cost) for level in char.power.levels)
            out.append(
                f"{char.name} — {tr.role(char.id)} "
                f"({tr('side.' + char.side)}{label}, {'★' * char.stars})\n",
                style="bold",
            )
            out.append(f"  {tr.power(char.id)} [{costs} PA]: {tr.power_text(char.id)}\n")
        return out

    def _events(self) -> Text:
        tr = self.tr
        out = Text()
        for event in tr.content.events.values():
            turns = tr("events.turns", n=event.duration)
            out.append(f"{tr.event(event.id):<32}", style="bold")
            out.append(f"{turns} ×{event.copies}  ")
            out.append(tr.event_text(event.id) + "\n", style="dim")
        return out

    def action_tab(self, step: int) -> None:
        tabs = ["keys", "rules", "cards", "characters", "events"]
        content = self.query_one(TabbedContent)
        content.active = tabs[(tabs.index(content.active) + step) % len(tabs)]

    def action_show(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def action_close(self) -> None:
        close(self)
