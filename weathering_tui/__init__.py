"""Weathering TUI: the card game Weathering in a terminal."""

# Before any engine module is imported: whether their compiled copies run (compiled.py).
from . import compiled as compiled

__version__ = "0.1.0"
