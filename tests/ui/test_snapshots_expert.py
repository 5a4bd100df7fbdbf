"""The expert's screens at 80×24: the hints' dialog (its moves, their range, its plan
after the first move) and a replay's review (each costly decision, the better move and
what it leads to). Searches on small budgets: seeded, the same screen every run."""

import functools

from weathering_tui.tui.screens.choice import ChoiceModal

from .games import wait_for
from .test_snapshots import app, phase_one_game


async def _until_a_dialog(pilot):
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceModal), seconds=60)
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()


def test_hints_dialog(snap_compare, monkeypatch):
    from weathering_tui.bots import hint_child, hints

    small = functools.partial(hints.hints, budget=48, confirm=16)
    monkeypatch.setattr(hint_child, "hints_apart", small)  # in the app's thread

    async def ask(pilot):
        await pilot.press("h")
        await _until_a_dialog(pilot)

    game = phase_one_game()
    assert snap_compare(app(lang="en", game=game), run_before=ask, terminal_size=(80, 24))


def a_random_players_game():
    """A finished 1v1 whose Écolo plays at random: decisions a review names."""
    from weathering_tui.sim.simulate import play_game, setup_for
    from weathering_tui.storage.savefile import SavedGame

    setup = setup_for("1v1", 14)
    state, _ = play_game(setup, "random", lobbyists="heuristic")
    return SavedGame(setup, state, "2026-11-30T12:00:00Z", "2026-11-30T12:00:00Z")


async def _review(pilot):
    await pilot.press("v")
    await _until_a_dialog(pilot)


def _review_of(snap_compare, monkeypatch, game, budget: int) -> bool:
    from weathering_tui.tui.screens import replay

    monkeypatch.setattr(replay, "REVIEW_BUDGET", budget)
    shown = app(lang="en", replay=(game, 40, 0))
    return snap_compare(shown, run_before=_review, terminal_size=(80, 24))


def test_replay_review_dialog(snap_compare, monkeypatch):
    assert _review_of(snap_compare, monkeypatch, a_random_players_game(), 16)


def test_replay_review_dialog_of_a_clean_game(snap_compare, monkeypatch):
    """No decision the expert could tell from noise: the words, and no empty list."""
    from .test_snapshots import finished_game

    assert _review_of(snap_compare, monkeypatch, finished_game(), 8)
