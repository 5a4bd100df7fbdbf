"""The mulligan: the cards already put back are marked in the hand (a play-test found
nothing told which had been picked but the dialog's last line)."""

from weathering_tui.engine.state import MulliganFrame
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.widgets import HandPane

from .games import at, setup_for


def _one_picked(s) -> bool:
    frame = s.stack[-1] if s.stack else None
    return (
        s.pending is not None
        and s.pending.kind == "mulligan"
        and s.pending.seat == 0
        and isinstance(frame, MulliganFrame)
        and len(frame.picked) == 1
    )


async def test_a_card_put_back_is_marked_and_the_others_are_not():
    game = next(
        g
        for seed in range(1, 40)
        if _one_picked((g := at(setup_for("2v1"), _one_picked, seed=seed)).state)
    )
    picked = game.state.stack[-1].picked[0]
    app = WeatheringApp(lang="fr", saves_dir=None, pace=0, autosave=False, game=game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game_screen = app.screen_stack[-2]  # under the mulligan dialog
        lines = str(game_screen.query_one(HandPane).render()).splitlines()
        name = app.tr.card(picked)
        marked = [line for line in lines if line.startswith("↩")]
        assert len(marked) == 1 and name in marked[0], lines
        # Still marked when it is the hand's selected card.
        held = [h.instance for h in game_screen.view().hand]
        game_screen.selected = held.index(picked)
        game_screen.query_one(HandPane).show(
            game_screen.view(), app.tr, selected=game_screen.selected
        )
        lines = str(game_screen.query_one(HandPane).render()).splitlines()
        marked = [line for line in lines if line.startswith("↩")]
        assert len(marked) == 1 and name in marked[0], lines


async def test_enter_on_the_mulligan_keeps_the_hand():
    """Enter by reflex keeps the hand: a new player's first key must not put a card
    under the pile (the dialog used to open on its first card)."""
    game = at(
        setup_for("2v1", seed=3), lambda s: s.pending.kind == "mulligan" and s.pending.seat == 0
    )
    held = list(game.state.players[0].hand)

    def opens_on_keep(dialog) -> None:
        assert "Keep my hand" in dialog.options[dialog.start][0]

    view = (await _enter_on_the_dialog(game, opens_on_keep)).view()
    assert not (view.pending.kind == "mulligan" and view.pending.seat == 0)
    assert set(held) <= {c.instance for c in view.hand}  # (the round may have dealt more)


async def test_a_discard_one_may_stop_opens_on_stop_and_says_up_to():
    """An optional discard (an event's "may discard up to 2", Barter) read as a must,
    and Enter threw away the first card (a play-test): it opens on "Stop here"."""
    from weathering_tui.engine import actions as act
    from weathering_tui.engine import legal_actions

    def optional_discard(s) -> bool:
        return (
            s.pending is not None
            and s.pending.kind == "choose_discard"
            and s.pending.seat == 0
            and any(isinstance(a, act.ChooseCard) and a.card is None for a in legal_actions(s, 0))
        )

    game = next(
        g
        for seed in range(1, 60)
        if optional_discard((g := _try_at(setup_for("2v1", seed=seed), optional_discard)).state)
    )
    held = list(game.state.players[0].hand)

    def opens_on_stop(dialog) -> None:
        assert "up to" in dialog.title_text, dialog.title_text
        assert dialog.options[dialog.start][1].card is None, dialog.options  # "Stop here"

    session = await _enter_on_the_dialog(game, opens_on_stop)
    assert not any(c in session.state.discard_pile for c in held)


async def _enter_on_the_dialog(game, looks_right):
    """The game opened at 80×24 on a dialog: `looks_right(dialog)`, then Enter on the
    option it opens on. Returns the session, as it is after."""
    from weathering_tui.tui.screens.choice import ChoiceModal

    app = WeatheringApp(lang="en", saves_dir=None, pace=0, autosave=False, game=game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceModal)
        looks_right(app.screen)
        await pilot.press("enter")
        await pilot.pause()
        return app.session


def _try_at(setup, stop):
    try:
        return at(setup, stop)
    except AssertionError:  # that game never came to it
        return at(setup, lambda s: True)
