"""Written by `python -m weathering_tui.bots.belief_fit`: bots/belief.py's slope and shift."""

SLOPE = 0.629857
SHIFT = 0.351729
