"""The title screen: new game, load game, rules & keys, quit."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

LOGO = r"""
 _      __         __  __            _
| | /| / /__ ___ _/ /_/ /  ___ ____(_)__  ___ _
| |/ |/ / -_) _ `/ __/ _ \/ -_) __/ / _ \/ _ `/
|__/|__/\__/\_,_/\__/_//_/\__/_/ /_/_//_/\_, /
                                       /___/
"""


class TitleScreen(Screen[None]):
    DEFAULT_CSS = """
    TitleScreen { align: center middle; }
    TitleScreen #logo { color: $success; width: auto; }
    TitleScreen #pitch { width: auto; color: $text-muted; margin-bottom: 1; }
    TitleScreen OptionList { width: 44; height: auto; }
    TitleScreen #title-keys { width: auto; color: $text-muted; margin-top: 1; }
    """
    BINDINGS = [Binding("q", "app.quit", "quit", show=False)]

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        has_saves = bool(self.app.saves())
        with Middle():
            with Center():
                yield Static(LOGO.strip("\n"), id="logo")
            with Center():
                yield Static(tr("pitch"), id="pitch")
            with Center():
                yield OptionList(
                    Option(tr("menu.new"), id="new"),
                    Option(tr("menu.learn"), id="learn"),
                    Option(
                        tr("menu.load")
                        if has_saves
                        else f"{tr('menu.load')} {tr('menu.no_saves')}",
                        id="load",
                        disabled=not has_saves,
                    ),
                    Option(tr("menu.help"), id="help"),
                    Option(tr("menu.quit"), id="quit"),
                    id="menu",
                )
            with Center():
                yield Static(tr("title.keys"), id="title-keys")

    def on_mount(self) -> None:
        for menu in self.query(OptionList):
            menu.highlighted = 0
            menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id
        if choice == "new":
            self.app.open_new_game()
        elif choice == "learn":
            self.app.start_learning()
        elif choice == "load":
            self.app.open_load()
        elif choice == "help":
            self.app.open_help()
        else:
            self.app.exit()
