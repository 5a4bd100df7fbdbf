"""End of game: forecast, winner, final PV, PV round by round, and a summary per player."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from ..widgets import BAND_STYLE, band_style

BARS = " ▁▂▃▄▅▆▇█"


def chart(view, column: int = 3) -> Text:
    """A column per round, coloured by band; `column` characters a round (a narrow
    pane: 2). Four lines: two rows from the Écolos' win line to the gauge's top, the
    win line itself, and one row from 0 to it. A column crosses the line (█ on it) when
    the PV were at the winning mark or more; the line is dashed where none does. (It was
    a row holding the mark: a final 10 PV drew inside the row labelled 15, and a
    play-test read it as a win; colour alone does not show it either: NO_COLOR.)"""
    out = Text()
    top, goal = view.gauge_max, view.threshold
    series = [view.start_hp, *view.hp_by_round]
    above = 2  # rows between the line and the top
    for row in range(above, 0, -1):
        low = goal + (top - goal) * (row - 1) / above
        high = goal + (top - goal) * row / above
        out.append(f"{top:>3} ┤" if row == above else "    │")
        for value in series:
            out.append(" " + _bar(value, low, high) * (column - 1), style=band_style(value, goal))
        out.append("\n")
    out.append(f"{goal:>3} ┼", style="bold")
    for value in series:
        if value >= goal:
            out.append(" " + "█" * (column - 1), style=band_style(value, goal))
        else:
            out.append(" " + "┄" * (column - 1), style="dim")
    out.append("\n    │")
    for value in series:
        out.append(" " + _bar(value, 0, goal) * (column - 1), style=band_style(value, goal))
    out.append("\n")
    out.append("    └" + "─" * column * len(series) + "\n")
    out.append("     " + _round_labels(len(series), column))
    return out


def _bar(value: float, low: float, high: float) -> str:
    """The block that shows how much of the band from `low` to `high` `value` fills
    (one eighth at least once it is above `low`: a PV above it never draws blank)."""
    if value <= low:
        return " "
    eighths = round((min(value, high) - low) * 8 / (high - low))
    return BARS[max(1, min(8, eighths))]


def _round_labels(count: int, column: int) -> str:
    """Round numbers under their columns; in narrow columns only 0, 1 and every fifth,
    whole (10 may reach into the empty column before it)."""
    if column >= 3:
        return "".join(f"{i:>{column}}" for i in range(count))
    line = [" "] * (count * column)
    for i in range(count):
        if i > 1 and i % 5:
            continue
        label = str(i)
        end = (i + 1) * column
        line[end - len(label) : end] = label
    return "".join(line)


class EndScreen(Screen[None]):
    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    EndScreen Static { width: auto; }
    EndScreen #band { text-style: bold; margin-bottom: 1; }
    EndScreen #chart, EndScreen #summary { margin-top: 1; }
    EndScreen #end-keys { color: $text-muted; margin-top: 1; }
    """
    BINDINGS = [
        Binding("enter,escape,q", "back", "back"),
        Binding("l", "app.open_log", "log", show=False),  # how the last turns went
        Binding("r", "replay", "replay", show=False),
    ]

    def __init__(self, session, tr):
        super().__init__()
        self.session = session
        self.tr = tr

    def compose(self) -> ComposeResult:
        tr = self.tr
        view = self.session.view()
        outcome = view.outcome
        winner = tr("side." + outcome.winner)
        perfect = f" — {tr('end.perfect')}" if outcome.perfect else ""
        summary = Text()
        for p in view.players:
            s = p.stats
            summary.append(
                tr(
                    "end.summary",
                    name=p.name[:18],
                    side=tr("side." + p.side),
                    played=s.get("cards_played", 0),
                    healed=s.get("healed", 0),
                    damaged=s.get("damaged", 0),
                    cancels=s.get("cancels", 0),
                )
                + "\n"
            )
        with Middle():
            with Center():
                yield Static(tr("end.title"))
            with Center():
                yield Static(
                    Text(tr(f"band.{outcome.band}"), style=BAND_STYLE[outcome.band]), id="band"
                )
            with Center():  # what the forecast's word means ("⚡ Stormy" was never said)
                about = tr(f"band.about.{outcome.band}", goal=view.threshold)
                yield Static(Text(about, style="dim"), id="band-about")
            with Center():
                yield Static(
                    f"{tr('end.final', hp=outcome.hp)} · {tr('end.winner', side=winner)}{perfect}"
                )
            with Center():
                yield Static(
                    Text(
                        tr("end.chart") + tr("end.chart_goal", goal=view.threshold) + "\n"
                    ).append_text(chart(view)),
                    id="chart",
                )
            with Center():
                yield Static(summary, id="summary")
            with Center():
                keys = tr(self.app.end_back)
                if self.session.can.replay:
                    keys += tr("end.replay")
                yield Static(keys, id="end-keys")

    def action_replay(self) -> None:
        """The whole game again, from its start (a game played at this terminal)."""
        if self.session.can.replay:
            self.app.open_replay(self.session.game, 0)

    def action_back(self) -> None:
        self.app.back_to_title()
