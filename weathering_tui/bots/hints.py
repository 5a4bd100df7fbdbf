"""Hints (`h`): the expert's best moves for a seat, from that seat's view alone, with
how sure it is.

The expert (bots/search.py) plays each candidate out to the game's end against worlds
sampled from what the seat cannot see (judged at the next round's start by
bots/value.py it was 30× faster, but that judgement's bias was shown as advice: see
BUDGET), so a hint knows nothing a player could not: the same view gives the same hints
whatever the hidden cards are. Its budget is a count of rollouts and its
seed comes from the view, so asking twice gives the same answer.

What a player is shown must be worth trusting:

- each move's share of simulated games won comes with its 95 % interval;
- where the best move's lead over the next cannot be told from noise (a paired 95 %
  interval on the same worlds that holds 0), `tied` says so: the dialog says the top
  moves are alike rather than ranking noise;
- a move that hurts the player's own side now (a damage card played by an Écolo, a heal
  by a Lobbyiste) is never put first unless the search is sure it is best, and then
  `why` says so.

`should_stop()` is asked between rollouts: a hint dismissed stops computing.
"""

from __future__ import annotations

import contextlib
import os
import zlib
from collections.abc import Callable

import attrs

from ..engine import View, own_side_harm
from .follow import follow_up
from .search import Estimate, SearchBot, Stopped  # noqa: F401 - Stopped is the caller's

HINTS = 3
CANDIDATES = 12
# Rollouts in all, each played to the game's end. `python -m weathering_tui.bench
# hint-budgets 40`, against the deep reference of `bench hints` (every move on 48 worlds
# to the end, the best ones on 192 more), CPU seconds per hint beside pimc's 0.27:
#   96 judged by bots/value.py at the next round's start: its best move is the
#     reference's in 40 %, following it costs 2.4 points, shown within 5 points in 45 %
#     (off by 8.0), 0.04 s: fast, but the value's bias read as advice;
#   288 judged two rounds on: 38 %, 2.1, 50 % (5.7), 0.24 s;
#   192 to the end: 48 %, 2.0, 57 % (5.2), 0.52 s;  288: 57 %, 1.6, 68 % (4.3), 0.78 s;
#   480 to the end: 55 %, 1.0, 75 % (3.3), 1.3 s — the one a player can trust most, in
#     about 4.8× pimc's time (off the event loop, at low priority, cancellable).
# `bench hints 200` (before CONFIRM): the reference's best in 64 %, 0.9 points, within 5
# points in 80 %; its reference, asked twice on other worlds, agrees with itself in only
# 58 % and 85 %. Against a reference 4× deeper (192 and 960 worlds; it agrees with itself
# in 72–78 % and 98–100 %) the hint's own rollouts were the limit (about 130 on the move
# it shows), so its two finalists are played CONFIRM more: on 40 positions, within 5
# points 80 % → 90 %, best move 60 % → 50 % (within the noise of 40); then on 120 other
# positions (40 to 159): best 67 % (89 % best or alike), 0.7 points, within 5 points in
# 92 % (off by 2.0), 2.3 s where pimc's hint takes 0.30 (without CONFIRM: 1.5 s).
BUDGET = 480
CONFIRM = 270  # rollouts more for the two finalists (SearchBot's `confirm`)
HORIZON: int | None = None  # rounds a rollout plays before it is judged (None: to the end)
CAP = 600.0  # seconds: only a stalled machine's bound, never reached by a working one


@attrs.frozen
class Hint:
    action: object
    win: float | None  # share of simulated games won; None: not searched
    low: float | None  # its 95 % interval
    high: float | None
    rollouts: int


@attrs.frozen
class Hints:
    moves: list[Hint]
    tied: bool = False  # the first moves cannot be told apart at this depth
    why: str | None = None  # a word key: why a move that hurts one's side comes first
    why_gap: int = 0  # by how many points of final gauge it did better, for `why`
    # the seat's next moves of the turn after the first move, as the search's simulated
    # games play on (bots/follow.py): what the first move is for ("discard Cyclone",
    # then play...)
    then: tuple = ()

    def __iter__(self):
        return iter(self.moves)

    def __len__(self):
        return len(self.moves)

    def __getitem__(self, index):
        return self.moves[index]


def hint_seed(view: View) -> int:
    """A hint's seed, from the view alone: asking twice gives the same hint (and the
    benches give pimc's yardstick the same seed)."""
    return zlib.crc32(f"{view.seat}:{view.version}:{view.round}:{len(view.legal)}".encode())


def hints(
    view: View,
    content=None,
    count: int = HINTS,
    should_stop: Callable[[], bool] | None = None,
    budget: int = BUDGET,
    horizon: int | None = HORIZON,
    confirm: int | None = None,
    progress: Callable[[float], None] | None = None,
) -> Hints:
    """The `count` best moves, best first, at any decision (a turn, a cancel or not, a
    discard…). Raises `Stopped` when asked to. `progress` is told the share of the
    work done (0 to 1) after each rollout."""
    from ..sim.stats import wilson

    seed = hint_seed(view)
    # Its whole budget, however long a loaded machine takes (the same hints on any machine:
    # a child at the lowest share hit the bots' 10 s cap under CI's load and answered
    # otherwise); the player stops it with Escape, and at a table it runs in their `join`.
    confirm = CONFIRM if confirm is None else confirm
    bot = SearchBot(
        seed,
        content,
        budget=budget,
        candidates=CANDIDATES,
        horizon=horizon,
        cap=CAP,
        confirm=confirm,
    )
    if progress is not None:
        work = budget + confirm
        bot.on_rollout = lambda spent: progress(min(1.0, spent / work))
    ranked = bot.rank(view, should_stop=should_stop)
    ranked, tied, why, gap = arrange(ranked, lambda a: harms_own_side(bot, view, a))
    moves = []
    for e in ranked[:count]:
        if e.win is None:
            moves.append(Hint(e.action, None, None, None, 0))
            continue
        # (A move's share drawn toward the position's, weight 12 rollouts, was tried:
        # `bench hints` measured it no closer to a deep search, 10.2 points off against
        # 9.8, so each move shows its own share and its own interval.)
        low, high = wilson(e.win * e.rollouts, e.rollouts)
        moves.append(Hint(e.action, e.win, low, high, e.rollouts))
    then = follow_up(view, moves[0].action, bot.content, seed) if len(moves) > 1 else ()
    return Hints(moves, tied, why, gap, then)


def arrange(
    ranked: list[Estimate], harmful: Callable[[object], bool]
) -> tuple[list[Estimate], bool, str | None, int]:
    """The search's ranking as a player is shown it: (moves, tied, why, gap). Moves it
    cannot tell apart are listed by their share of games won, so that a lower share never
    stands above a higher one. A first move that hurts the player's side stays first only
    when the search is sure it is best (then `why` says so); otherwise the best move that
    does not goes first, and a move that hurts with a higher share than it is left out
    (listed under it, its higher share would read as the better move)."""
    searched = len(ranked) > 1 and ranked[0].win is not None
    tied = searched and not _sure_best(ranked)
    if tied:
        ranked = _by_share(ranked)
    if not (searched and harmful(ranked[0].action)):
        return ranked, tied, None, 0
    if not tied:
        return ranked, False, "hint.why_harm", max(1, round(ranked[1].gap))
    keep = [e for e in ranked if not harmful(e.action)]
    if not keep:
        return ranked, True, None, 0
    first = keep[0]
    rest = [
        e
        for e in ranked
        if e is not first
        and not (harmful(e.action) and shows_share(e, ranked) and _won(e) > _won(first))
    ]
    return [first, *rest], True, None, 0


def shows_share(move, moves) -> bool:
    """A move's share of games won is shown unless the search dropped it after a few
    deals (fewer than half the rollouts of the most searched): then it is noise."""
    most = max(m.rollouts for m in moves)
    return move.win is not None and move.rollouts * 2 >= most


def _won(move: Estimate) -> float:
    """The share of games a searched move won (one whose share is shown has one)."""
    assert move.win is not None, "a move the search did not play out"
    return move.win


def _by_share(ranked: list[Estimate]) -> list[Estimate]:
    """Moves whose share is shown, by share (then mean score), then the others as ranked."""
    shown = [e for e in ranked if shows_share(e, ranked)]
    shown.sort(key=lambda e: (-_won(e), -e.score))
    return shown + [e for e in ranked if not shows_share(e, ranked)]


def _sure_best(ranked: list[Estimate]) -> bool:
    """The first move beats the second on the worlds both met, beyond noise."""
    second = ranked[1]
    return second.gap - second.margin > 0


def harms_own_side(bot: SearchBot, view: View, action) -> bool:
    """A move against the player's own side (engine/harm.py: the rule the confirmation
    a player is asked before such a move follows): it moves the gauge the wrong way,
    aims a blow at an ally or a gift at an opponent, or falls on the player's whole
    side (every Écolo loses PA, played by an Écolo)."""
    return own_side_harm(bot.content, view, action) is not None


# ------------------------------------------------------------ hints that starve nobody

SLOT_FOLDER = "weathering-hint-slots"


def hint_slots() -> int:
    """Hints computed at once on this machine, by all of this user's processes (every
    SSH player's `join` runs as the server's user): one core is always left to the
    table server and the players' screens."""
    return max(1, (os.cpu_count() or 1) - 1)


class HintSlot:
    """One of the machine's hint slots, held while a hint thinks (`with HintSlot(...)`).
    Slots are locked files (flock: released by the kernel if the process dies), so the
    bound holds across every `join` process of the server's user. Waiting for a slot
    asks `should_stop` too: a dismissed hint never waits on."""

    def __init__(self, should_stop: Callable[[], bool] | None = None, folder=None):
        import tempfile
        from pathlib import Path

        base = (
            Path(folder) if folder else Path(tempfile.gettempdir()) / f"{SLOT_FOLDER}-{os.getuid()}"
        )
        self.folder = base
        self.should_stop = should_stop
        self.fd: int | None = None

    def __enter__(self) -> HintSlot:
        import fcntl
        import time

        if not self._folder_is_mine():
            return self  # no safe folder: the hint thinks unbounded (still at nice 10)
        while True:
            for n in range(hint_slots()):
                try:
                    fd = os.open(
                        self.folder / f"slot-{n}", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600
                    )
                except OSError:
                    return self
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    os.close(fd)
                    continue
                self.fd = fd
                return self
            if self.should_stop is not None and self.should_stop():
                raise Stopped
            time.sleep(0.05)

    def _folder_is_mine(self) -> bool:
        """The slots' folder exists, is a real folder and is this user's alone: in a
        shared /tmp another user could have made it first, to hold every slot (no hint
        for anyone) or to point a slot at a file of ours."""
        import stat

        try:
            self.folder.mkdir(mode=0o700, exist_ok=True)
            info = os.lstat(self.folder)
        except OSError:
            return False
        return (
            stat.S_ISDIR(info.st_mode)
            and info.st_uid == os.getuid()
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        )

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)  # (closing releases the lock)
            self.fd = None


def background_priority() -> None:
    """The calling thread yields the processor to everything else (nice 10): a hint
    thinking never slows the table server or another player's screen. Linux only:
    elsewhere, nothing."""
    import threading

    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
