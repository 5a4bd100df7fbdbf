"""Seeded games brought to a chosen moment, for UI tests (every move goes through apply)."""

from __future__ import annotations

from weathering_tui.bots import RandomBot
from weathering_tui.engine import sides_of, view_for
from weathering_tui.engine.state import SeatSetup, Setup
from weathering_tui.storage.savefile import SavedGame

NOW = "2026-11-30T12:00:00Z"


def setup_for(config="2v1", humans=1, seed=7, characters=None, **options) -> Setup:
    eco, lob = sides_of(config)
    sides = ["ecologist"] * eco + ["lobbyist"] * lob
    characters = characters or ["random"] * len(sides)
    seats = tuple(
        SeatSetup(side, char, human=i < humans)
        for i, (side, char) in enumerate(zip(sides, characters, strict=True))
    )
    return Setup(config, seats, seed=seed, **options)


def advance(game: SavedGame, stop, limit=5000, seed=1) -> SavedGame:
    """Play every seat with random bots until `stop(state)` holds."""
    bots = {s: RandomBot(seed * 101 + s) for s in range(len(game.setup.seats))}
    for _ in range(limit):
        state = game.state
        if stop(state):
            return game
        if state.over:
            break
        seat = state.pending.seat
        view = view_for(state, seat, with_log=False)
        game.play_chosen(bots[seat].choose(view), view, now=NOW)
    raise AssertionError("the game never reached that moment")


def fresh(setup: Setup) -> SavedGame:
    return SavedGame.start(setup, now=NOW)


def at(setup: Setup, stop, seed=1) -> SavedGame:
    return advance(fresh(setup), stop, seed=seed)


def human_turn(seat=0, phase=1):
    return lambda s: (
        s.pending is not None
        and s.pending.kind == "turn"
        and s.pending.seat == seat
        and s.phase == phase
        and s.stage == "play"
    )


async def wait_for(pilot, condition, seconds=20.0):
    """Let the app run until `condition()` holds (a few seconds at most)."""
    import asyncio

    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
        await pilot.pause()
    raise AssertionError(f"waited too long, on {pilot.app.screen!r}")
