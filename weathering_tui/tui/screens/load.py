"""Load a game: every save with its metadata and a preview; broken files are listed, not fatal."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...words import describe_meta, saved_at


def _plain(text: str) -> str:
    import unicodedata

    bare = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return bare.lower().replace("_", " ")


def _short(text: str, width: int) -> str:
    """`text` in `width` characters at most: its detail in brackets left out first (a
    parser's words, in English; `weathering check` gives them whole), then cut between
    words with "…" (it was cut mid-word)."""
    if len(text) <= width:
        return text
    text = text.split(" (")[0]
    if len(text) <= width:
        return text
    return text[: width - 1].rsplit(" ", 1)[0] + "…"


class LoadScreen(Screen[None]):
    DEFAULT_CSS = """
    LoadScreen #load-title { text-style: bold; padding: 0 1; }
    LoadScreen OptionList { width: 1fr; height: 1fr; }
    LoadScreen #preview { width: 38; height: 1fr; border: round $secondary; padding: 0 1; }
    LoadScreen #load-keys { color: $text-muted; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "back", "back", show=False),
        Binding("r", "replay", "replay", show=False),
    ]

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
                    label = f"{path.stem}\n  {_short(self._broken(problem), 36)}"
                    # reachable, dimmed: the list scrolls to it and the preview says
                    # why (disabled, it could be neither seen past a full list nor read)
                    options.append(Option(Text(label, style="dim")))
                else:  # two lines each: a narrow list never breaks an entry mid-way
                    summary = describe_meta(tr, meta, short=True)
                    options.append(Option(Text(f"{path.stem}\n  {summary}")))
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
            text.append(f"{saved_at(str(meta.get('updated', '')))}\n", style="dim")
            humans = meta.get("humans", [])
            shared = isinstance(humans, list) and len(humans) > 1  # (each is "you")
            for seat, player in enumerate(meta.get("players", [])):
                # "Priya (priya)": the name is enough, unless a player chose another one
                name, _, character = str(player).rpartition(" (")
                same = _plain(character.rstrip(")")) == _plain(name)
                mine = not shared and isinstance(humans, list) and seat in humans
                you = f" · {self.tr('load.you')}" if mine else ""
                text.append(f"• {name if name and same else player}{you}\n")
        self.query_one("#preview-text", Static).update(text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        path, meta, problem = self.rows[event.option_index]
        if meta is None:  # what the preview says, said where the eyes are
            self.notify(self._broken(problem), severity="warning", markup=False)
            return
        self.app.load_game(path)

    def _broken(self, problem) -> str:
        return self.tr("load.broken", problem=problem.problem_in(self.tr.lang))

    def action_replay(self) -> None:
        """Step through the highlighted game instead of resuming it."""
        index = self.query_one(OptionList).highlighted
        if index is not None and self.rows[index][1] is not None:
            self.app.replay_save(self.rows[index][0])

    def action_back(self) -> None:
        self.app.pop_screen()
