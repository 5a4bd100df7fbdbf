"""A move of the player's cancelled by another player is said at once, not only in the
log (whose few rows at 80×24 a play-test never saw it in)."""

from weathering_tui.engine import Setup, apply, new_game, view_for
from weathering_tui.sim.simulate import play_game
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.words import Tr


class Told:
    """What `_tell_cancelled` reads of its screen, and the notices it gives."""

    def __init__(self):
        self.tr = Tr("en")
        self._log_seen = None
        self.notices = []

    def notify(self, text, **kwargs):
        self.notices.append(text)


def around_a_cancel():
    """Seat 0's views just before and just after a Lobbyiste cancelled its card (a
    seeded game of heuristic bots)."""
    setup = Setup.standard("2v1", seed=2)
    _, actions = play_game(setup, "heuristic")
    state = new_game(setup)
    for action in actions:
        before = {seat: view_for(state, seat) for seat in (0, 1)}
        apply(state, action)
        if any(e.kind == "cancelled" and e.data["seat"] == 0 for e in view_for(state, 0).log):
            return before, {seat: view_for(state, seat) for seat in (0, 1)}
    raise AssertionError("no cancel of seat 0 in that game")


def test_a_move_cancelled_by_another_player_is_said_at_once():
    before, after = around_a_cancel()
    told = Told()
    GameScreen._tell_cancelled(told, before[0])  # the screen's first look: nothing old
    assert told.notices == []
    GameScreen._tell_cancelled(told, after[0])
    assert len(told.notices) == 1
    assert told.notices[0].startswith("Your move is cancelled: ")
    assert "cancels with" in told.notices[0]
    GameScreen._tell_cancelled(told, after[0])  # told once
    assert len(told.notices) == 1


def test_an_ally_s_move_cancelled_is_left_to_the_log():
    before, after = around_a_cancel()
    told = Told()
    GameScreen._tell_cancelled(told, before[1])
    GameScreen._tell_cancelled(told, after[1])
    assert told.notices == []
