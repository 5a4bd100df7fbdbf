"""The game screen's lines: the header, the gauge, the key bar, and `Pane`, the
bordered box every pane of panes.py is. Each renders a seat's view as Rich text."""

from __future__ import annotations

import os

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

from ...engine import View, band_for
from ...words import Tr

TYPE_STYLE = {
    "anthropique": "bold magenta",
    "oceanique": "bold blue",
    "terrestre": "bold green",
    "atmospherique": "bold cyan",
}


BAND_STYLE = {  # the outcome bands of §9.2, from the best for the Écolos down
    "grand_soleil": "bold bright_yellow",
    "ensoleille": "green",
    "eclaircies": "yellow",
    "orageux": "dark_orange",
    "tourmente": "red",
    "effondrement": "bold red",
}


def band_style(hp: int, threshold: int) -> str:
    """The colour of a gauge at `hp`: its outcome band's (the engine says which band)."""
    return BAND_STYLE[band_for(hp, threshold)[0]]


def phase_line(tr: Tr, view: View) -> str:
    if view.stage == "mulligan":
        return tr("mulligan_stage")
    if view.stage == "transition":
        return tr("transition_stage")
    if view.stage == "over":
        return tr("over_stage")
    return tr("phase_turn", phase=view.phase, turn=view.round_in_phase, of=view.rounds_per_phase)


class Line(Widget):
    """Rich text that repaints without a layout pass (the panes never change size in a
    game), and only when the text changed."""

    _shown: Text = Text()

    def render(self) -> Text:
        return self._shown

    def show_text(self, text: Text) -> None:
        if text != self._shown:
            self._shown = text
            self.refresh()


class Pane(Line):
    """A bordered pane whose content is rebuilt from a view."""

    DEFAULT_CSS = """
    Pane { border: round $secondary; padding: 0 1; }
    """

    _asked: tuple | None = None  # what it was last asked to show (to fit it again)

    def show(self, view: View, tr: Tr, **extra) -> None:
        self._asked = (view, tr, extra)
        self.show_text(self.build(view, tr, **extra))

    def on_resize(self) -> None:
        """Its lines are fitted to its width: built again once it has its size (a pane
        shown again after being hidden was built while it had none)."""
        if self._asked is not None:
            view, tr, extra = self._asked
            self.show_text(self.build(view, tr, **extra))

    def build(self, view: View, tr: Tr, **extra) -> Text:  # pragma: no cover - abstract
        raise NotImplementedError


class HeaderLine(Line):
    def show(self, view: View, tr: Tr, status: str = "") -> None:
        left = Text.assemble(
            (" Weathering", "bold"),
            f" · {view.configuration} · {phase_line(tr, view)}",
        )
        width = max(0, (self.size.width or 80) - left.cell_len - len(status) - 1)
        self.show_text(left + Text(" " * width) + Text(status, style="dim"))


class Gauge(Line):
    """The ecosystem track 0–30 with its start mark and the victory threshold."""

    def show(self, view: View, tr: Tr) -> None:
        hp, top, threshold = view.hp, view.gauge_max, view.threshold
        label = f" {tr('gauge')} "
        tail = (
            f" {hp:>2}/{top}  {tr('gauge.start', hp=view.start_hp)}"
            f"  {tr('gauge.win', hp=threshold)}"
        )
        width = max(10, min(60, (self.size.width or 80) - len(label) - len(tail) - 2))
        filled = round(width * hp / top)
        bar = Text("▕")
        for i in range(width):
            value = (i + 0.5) * top / width
            char = "█" if i < filled else "░"
            bar.append(char, style=band_style(int(value), threshold) if i < filled else "dim")
        bar.append("▏")
        self.show_text(
            Text(label, style="bold") + bar + Text(tail, style=band_style(hp, threshold))
        )


def _cut(words: str, cut: int) -> str:
    """A key's words, shortened to `cut` characters with a "." saying so."""
    return words if len(words) <= cut else words[: cut - 1].rstrip() + "."


class KeyBar(Line):
    """The footer: only the keys that apply now (the screen's check_action decides), as one
    line of text, so that a key press never rebuilds widgets."""

    shown: tuple[str, ...] = ()  # the keys that apply now (tests read them)
    drawn: tuple[str, ...] = ()  # those on the line (a narrow one leaves some to the help)
    bare: tuple[str, ...] = ()  # those on the line without their words

    # Help and quit keep their words the longest: they are how one learns the rest and how
    # one leaves, and "? q" says neither (a French player at 80 columns saw no "aide").
    KEEP = ("?", "q")
    # A key on the line keeps its word (a bare "h" or "u" told a new player nothing):
    # when the words do not fit, whole keys leave the line, the least used first, and
    # "…" before "? aide" says the help has them. Undo and hint never leave it.
    DROP = ("␣", "m", "t", "s", "o", "b", "d", "x")

    def show_text(self, text: Text) -> None:
        """A line of its own (a lesson's instruction): no keys."""
        self.shown = self.drawn = ()
        super().show_text(text)

    def show_keys(self, keys: list[tuple[str, str]]) -> None:
        width = self.size.width or 80
        # No colour: a terminal may draw the key's reverse video as plain text, and
        # "pjouer" reads as one word: the key always keeps a space before its word.
        plain = bool(os.environ.get("NO_COLOR"))
        for gap, sep, line in self._stages(keys, plain):
            items = [k + (sep + w if w else "") for k, w in line]
            if cell_len(" " + gap.join(items)) <= width:
                break
        out = Text(" ")
        for i, (key, words) in enumerate(line):
            if i:
                out.append(gap)
            out.append(key, style="bold reverse" if key != "…" else "")
            if words:
                out.append(f"{sep}{words}")
        super().show_text(out)
        self.shown = tuple(key for key, _ in keys)
        self.drawn = tuple(key for key, _ in line if key != "…")
        self.bare = tuple(key for key, words in line if not words and key != "…")

    def _stages(self, keys: list[tuple[str, str]], plain: bool):
        """Each way to draw the line, from the widest to the narrowest: (gap, sep, keys)."""
        seps = (" ",) if plain else (" ", "")
        yield "  ", " ", keys
        for sep in seps:
            yield " ", sep, keys
        sep = seps[-1]
        dropped = [k for k in self.DROP if k in (key for key, _ in keys)]
        for n in range(1, len(dropped) + 1):
            yield " ", sep, self._without(keys, dropped[:n])
        fewer = self._without(keys, dropped)
        # Only then cut words (marked "."), and last of all help and quit stand bare.
        for cut in (6, 5):
            yield " ", sep, [(k, w if k in self.KEEP else _cut(w, cut)) for k, w in fewer]
        yield " ", sep, [(k, "" if k in self.KEEP else _cut(w, 5)) for k, w in fewer]

    @staticmethod
    def _without(keys: list[tuple[str, str]], gone: list[str]) -> list[tuple[str, str]]:
        """The keys but `gone`, with "…" before help when any went (the help has them)."""
        out = [(k, w) for k, w in keys if k not in gone]
        if gone:
            at = next((i for i, (k, _) in enumerate(out) if k == "?"), len(out))
            out.insert(at, ("…", ""))
        return out
