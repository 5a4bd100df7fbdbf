"""Weathering TUI: the card game Weathering in a terminal."""

__version__ = "0.1.0"
