"""Written by `python -m weathering_tui.bots.belief_fit`: bots/belief.py's slope."""

SLOPE = 0.7156
