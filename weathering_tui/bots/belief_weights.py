"""Written by `python -m weathering_tui.bots.belief_fit`: bots/belief.py's weights."""

SLOPE = 0.684299
SHIFTS: dict[str, float] = {
    "1v1 ecologist": -0.273756,
    "1v1 lobbyist": 0.538981,
    "2v1 ecologist": 0.762398,
    "2v1 lobbyist": 0.042695,
    "3v2 ecologist": 3.606847,
    "3v2 lobbyist": -0.603825,
}
