"""A small seeded generator whose whole state is one integer kept in the game state.

splitmix64: fast, good enough for shuffles and random discards, and trivially
serialisable, so a saved game resumes with exactly the same future draws.
"""

from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return seed & MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, k) with k uniform in [0, n) (rejection sampling, no modulo bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % n


def shuffle(state: int, items: list) -> int:
    """Fisher–Yates shuffle of `items` in place; return the new generator state.
    `below` and `next_u64` written out in the loop (a new game shuffles two piles): the
    same draws, tests/test_rng.py."""
    whole = 1 << 64
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = whole - (whole % n)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            value = z ^ (z >> 31)
            if value < limit:
                break
        j = value % n
        items[i], items[j] = items[j], items[i]
    return state
