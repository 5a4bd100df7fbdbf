"""What reaction windows cost the players of a 3v2 with three humans (the Écolos).

`python -m weathering_tui.bench net windows [GAMES] [ANSWER_SECONDS]` plays GAMES seeded
3v2 games with heuristic bots on every seat, with every Écolo asked in every window as
at a table server, and counts, for each Lobbyiste turn, the windows that ask the three
Écolos. It then prints what those windows cost, per Lobbyiste turn:

- asked one at a time (the engine's order, the way the table server asked until now):
  each of the three presses a key, one after the other: 3 keys and 3 answer times a
  window;
- asked at once with the public countdown: no key for those who let it happen; the
  window lasts the countdown when nobody presses anything, or one answer time when all
  three answer (they answer together).

ANSWER_SECONDS is how long a player takes to read the prompt and press a key (1.5 s by
default: an assumption, stated in the output). The counts come from the games.
"""

from __future__ import annotations

import statistics

from ..bots import BOTS, bot_seed, pacing
from ..engine import SeatSetup, Setup, apply, new_game, view_for


def lobbyist_turn_windows(games: int, seed: int = 1) -> list[int]:
    """The windows that ask the Écolos in each Lobbyiste turn, over `games` games."""
    counts: list[int] = []
    for game in range(games):
        sides = ["ecologist"] * 3 + ["lobbyist"] * 2
        seats = tuple(SeatSetup(side, human=side == "ecologist") for side in sides)
        state = new_game(Setup("3v2", seats, seed=seed + game, ask_every_human=True))
        bots = [BOTS["heuristic"](seed=bot_seed(seed + game, s)) for s in range(5)]
        turn = None  # (seat, windows so far) of the Lobbyiste turn under way
        while not state.over:
            pending = state.pending
            if pending.kind == "turn" and (turn is None or turn[0] != pending.seat):
                if turn is not None:
                    counts.append(turn[1])
                lobbyist = state.players[pending.seat].side == "lobbyist"
                turn = (pending.seat, 0) if lobbyist else None
            if (
                pending.kind == "react"
                and turn is not None
                and state.stack[-1].index == 0
                and pending.info.get("action") != "event"
            ):
                turn = (turn[0], turn[1] + 1)  # a Lobbyiste's action: a window opens
            seat = pending.seat
            apply(state, bots[seat].choose(view_for(state, seat, with_log=False)))
        if turn is not None:
            counts.append(turn[1])
    return counts


def bench_windows(games: int = 20, answer: float = 1.5) -> int:
    counts = lobbyist_turn_windows(games)
    windows = statistics.mean(counts)
    humans = 3
    clock = pacing.REACTION_SECONDS
    print(f"3v2, three human Écolos, {games} games, {len(counts)} Lobbyiste turns")
    print(f"windows per Lobbyiste turn: {windows:.1f} (median {statistics.median(counts):.0f})")
    print(f"answer time assumed: {answer:.1f} s a prompt; countdown {clock:.0f} s")
    print(
        f"asked one at a time:  {humans * windows:.1f} keys, "
        f"{humans * answer * windows:.1f} s waiting per Lobbyiste turn"
    )
    print(
        f"asked at once:        0 keys, {clock * windows:.1f} s waiting when nobody presses; "
        f"{humans * windows:.1f} keys (optional), {answer * windows:.1f} s when all answer"
    )
    return 0
