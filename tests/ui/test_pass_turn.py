"""A reaction dialog's last option lets the rest of the opponent's turn through: its
other windows ask nothing (a play-test answered four windows in one bot turn), and the
next turn's ask again."""

import pytest

from weathering_tui.engine import actions as act
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.screens.game_flow import PASS_TURN

from .games import at, setup_for


def _asked(s) -> bool:
    return s.pending is not None and s.pending.kind == "react" and s.pending.seat == 0


def _opponents_window(s) -> bool:
    return _asked(s) and s.players[s.active].side == "lobbyist" and s.stage == "play"


async def _windows_after(game, answer_last: bool):
    """Play from `game` (seat 0 asked in a Lobbyiste's window): the first option or the
    last, then 1 (let through) at every dialog, until the next round; the windows of
    that Lobbyiste's turn seat 0 was asked in, and its passes in that turn."""
    state = game.state
    turn = (state.round, state.active)
    app = WeatheringApp(lang="fr", saves_dir=None, pace=0, autosave=False, game=game)
    asked, passes = 0, 0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceModal)
        values = [value for _, value in dialog.options]
        assert values[-1] == PASS_TURN
        label = dialog.options[-1][0]
        assert label == app.tr("react.pass_turn", name=state.players[state.active].name)
        start = len(app.session.game.actions)
        await pilot.press(str(len(values)) if answer_last else "1")
        for _ in range(300):
            await pilot.pause(0.02)
            s = app.session.state
            if s.round > turn[0] or s.over:
                break
            if isinstance(app.screen, ChoiceModal):
                if (s.round, s.active) == turn and _asked(s):
                    asked += 1
                await pilot.press("1")
        taken = app.session.game.actions[start:]
        passes = sum(isinstance(a, act.Pass) and a.seat == 0 for a in taken)
        next_round = app.session.state.round > turn[0]
    return asked, passes, next_round


@pytest.mark.parametrize("seed", [6])
async def test_let_the_turn_through_asks_nothing_more_in_that_turn(seed):
    def game():  # (a game is played on in place: one each)
        setup = setup_for("2v1", seed=seed, characters=["priya", "amir", "fossilise"])
        return at(setup, _opponents_window)

    asked_each, passes_each, _ = await _windows_after(game(), answer_last=False)
    assert asked_each >= 1, "this turn has more windows for seat 0 (else nothing is tested)"
    asked, passes, next_round = await _windows_after(game(), answer_last=True)
    assert asked == 0 and passes == passes_each  # the same answers, not asked
    assert next_round
