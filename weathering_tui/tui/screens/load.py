"""Load a game: every save with its metadata and a preview; broken files are listed, not fatal."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..i18n import describe_meta


class LoadScreen(Screen[None]):
    DEFAULT_CSS = """
    LoadScreen #load-title { text-style: bold; padding: 0 1; }
    LoadScreen OptionList { width: 1fr; height: 1fr; }
    LoadScreen #preview { width: 38; height: 1fr; border: round $secondary; padding: 0 1; }
    LoadScreen #load-keys { color: $text-muted; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "back", "back", show=False)]

    def __init__(self, tr, rows):
        super().__init__()
        self.tr = tr
        self.rows = rows

    def compose(self) -> ComposeResult:
        tr = self.tr
        yield Static(tr("load.title"), id="load-title")
        with Horizontal():
            options = []
            for path, meta, problem in self.rows:
                if meta is None:
                    broken = tr("load.broken", problem=problem.problem_in(tr.lang))
                    label = f"{path.stem:<28} {broken[:40]}"
                    options.append(Option(Text(label, style="dim"), disabled=True))
                else:
                    options.append(Option(f"{path.stem:<28} {describe_meta(tr, meta)}"))
            yield OptionList(*options)
            with Vertical(id="preview"):
                yield Static(id="preview-text")
        yield Static(tr("load.keys"), id="load-keys")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        for index, (_, meta, _) in enumerate(self.rows):
            if meta is not None:
                options.highlighted = index
                break

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        path, meta, problem = self.rows[event.option_index]
        text = Text(path.name + "\n", style="bold")
        if meta is None:
            text.append(problem.problem_in(self.tr.lang))
        else:
            text.append(describe_meta(self.tr, meta) + "\n")
            text.append(f"{meta.get('updated', '')}\n", style="dim")
            for player in meta.get("players", []):
                text.append(f"• {player}\n")
        self.query_one("#preview-text", Static).update(text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.app.load_game(self.rows[event.option_index][0])

    def action_back(self) -> None:
        self.app.pop_screen()
