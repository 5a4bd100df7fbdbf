"""The game's generator: `shuffle` (its draws written out in one loop, for speed) draws
what `below` draws, step by step, so every seed deals the same game as before."""

import pytest

from weathering_tui.engine import rng


def shuffle_by_steps(state: int, items: list) -> int:
    for i in range(len(items) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 60, 130])
def test_shuffle_is_fisher_yates_by_below(size):
    for seed in range(200):
        state = rng.seed_state(seed * 0x9E3779B97F4A7C15 + size)
        mine, theirs = list(range(size)), list(range(size))
        assert rng.shuffle(state, mine) == shuffle_by_steps(state, theirs)
        assert mine == theirs
