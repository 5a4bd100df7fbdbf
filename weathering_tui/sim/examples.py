"""The example saves in saves/examples/: `python -m weathering_tui.sim.examples` rebuilds them.

Each is a seeded game played by bots up to a moment worth playing from, with the
first seat left to a human.
"""

from __future__ import annotations

import sys
from pathlib import Path

import attrs

from ..bots import BOTS
from ..engine import sides_of, view_for
from ..engine.state import SeatSetup, Setup
from ..storage.savefile import SavedGame, write_save

FOLDER = Path(__file__).resolve().parent.parent / "saves" / "examples"
STAMP = "2026-11-30T12:00:00Z"


def _setup(config: str, seed: int, characters: list[str]) -> Setup:
    eco, lob = sides_of(config)
    sides = ["ecologist"] * eco + ["lobbyist"] * lob
    seats = tuple(
        SeatSetup(side, char, human=i == 0)
        for i, (side, char) in enumerate(zip(sides, characters, strict=True))
    )
    return Setup(config, seats, seed=seed)


def _play_until(setup: Setup, stop, bot: str = "heuristic") -> SavedGame:
    game = SavedGame.start(setup, now=STAMP)
    bots = {s: BOTS[bot](seed=setup.seed * 31 + s) for s in range(len(setup.seats))}
    while not stop(game.state):
        if game.state.over:
            raise RuntimeError("the game ended before the moment")
        seat = game.state.pending.seat
        view = view_for(game.state, seat, with_log=False)
        game.play_chosen(bots[seat].choose(view), view, now=STAMP)
    return game


def _first_turn(round_: int):
    def stop(state) -> bool:
        pending = state.pending
        return (
            state.round == round_
            and pending is not None
            and pending.kind == "turn"
            and pending.seat == 0
        )

    return stop


EXAMPLES = {
    # A 3v2 table at the start of phase 2: the decks have just become the hands and
    # the gauge is within reach of a victory.
    "3v2-phase2-start": (
        lambda: _setup("3v2", 2026, ["priya", "thomas", "mirai", "fossilise", "au_bras_long"]),
        _first_turn(6),
        range(9, 15),
    ),
    # A 1v1 duel in its last round, the gauge on the edge of victory: every PV counts,
    # and the Lobbyiste plays last.
    "1v1-last-round": (
        lambda: _setup("1v1", 1130, ["amir", "aux_poches_pleines"]),
        _first_turn(10),
        range(13, 18),
    ),
}


def build(folder: Path = FOLDER) -> list[Path]:
    paths = []
    for name, (make_setup, stop, gauge) in EXAMPLES.items():
        setup = make_setup()
        for attempt in range(200):  # the first seed from the printed one that gets there
            try:
                game = _play_until(attrs.evolve(setup, seed=setup.seed + attempt), stop)
            except RuntimeError:
                continue
            if game.state.hp in gauge:
                break
        paths.append(write_save(folder / f"{name}.toml", game))
    return paths


def main(argv: list[str]) -> int:
    from ..argline import Parser

    parser = Parser(
        prog="python -m weathering_tui.sim.examples",
        description="Write the example saves (bot games stopped at chosen moments).",
    )
    parser.add_argument("folder", nargs="?", type=Path, default=FOLDER, help=f"(default {FOLDER})")
    args = parser.parse_args(argv)
    for path in build(args.folder):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
