"""The game screen's widgets. Each renders a seat's view as Rich text: few widgets,
fast keys. `lines.py`: the header, the gauge, the key bar and the bordered `Pane`;
`panes.py`: the players, events, hand, deck and log panes."""

from .lines import (
    BAND_STYLE,
    TYPE_STYLE,
    Gauge,
    HeaderLine,
    KeyBar,
    Line,
    Pane,
    band_style,
    phase_line,
)
from .panes import DeckPane, EventsPane, HandPane, LogPane, PlayersPane, log_lines, wrap

__all__ = [
    "BAND_STYLE",
    "TYPE_STYLE",
    "DeckPane",
    "EventsPane",
    "Gauge",
    "HandPane",
    "HeaderLine",
    "KeyBar",
    "Line",
    "LogPane",
    "Pane",
    "PlayersPane",
    "band_style",
    "log_lines",
    "phase_line",
    "wrap",
]
