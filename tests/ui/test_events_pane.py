"""The events pane at 80×24 in 1v1 (issue #29 item 9): two rows, so an event's text is
cut or out of sight; the pane's bottom line says that v shows every event in full."""

from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.tui.screens.log import LogScreen
from weathering_tui.tui.widgets import EventsPane

from .games import at, human_turn, setup_for, wait_for


def game_screen(app) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def test_an_event_cut_in_a_1v1_says_v_shows_it_whole():
    game = at(setup_for("1v1", seed=3), lambda s: human_turn(0, 1)(s) and s.round >= 4)
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: game_screen(app).query_one(EventsPane).size.height)
        await pilot.pause()
        while app.screen.is_modal:  # the recap since the last turn
            await pilot.press("space")
            await pilot.pause()
        pane = game_screen(app).query_one(EventsPane)
        shown = str(pane.render())
        assert shown.endswith("…"), shown  # two rows: the text is cut
        assert pane.border_subtitle.startswith("v") and "en entier" in pane.border_subtitle
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, LogScreen))


async def test_an_event_shown_whole_says_nothing_more():
    game = at(setup_for("3v2", seed=5), lambda s: human_turn(0, 1)(s) and s.round >= 2)
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: game_screen(app).query_one(EventsPane).size.height)
        await pilot.pause()
        pane = game_screen(app).query_one(EventsPane)
        assert "…" not in str(pane.render()) and not pane.border_subtitle


async def test_v_over_a_dialog_shows_the_events_and_gives_the_dialog_back():
    """The pane says "v : en entier" above a dialog too: v there opened nothing (a
    play-test, in an event's choice). It shows every event; Escape gives the dialog back."""
    from weathering_tui.tui.screens.choice import ChoiceModal

    from .test_pass_turn import _opponents_window

    game = at(
        setup_for("2v1", seed=6, characters=["priya", "amir", "fossilise"]), _opponents_window
    )
    events = [game.state.content.events[a.event] for a in game.state.active_events]
    assert events, "an event is active (else there is nothing to show)"
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal))
        dialog = app.screen
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, LogScreen))
        shown = "\n".join(app.screen.lines)
        assert all(event.name_fr in shown for event in events), shown
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is dialog)


async def test_a_long_event_name_is_cut_to_its_row_beside_its_turns():
    """ "Effondrement de la biodiversité" pushed its turns to a row of their own, and in a
    1v1 at 80×24 (two rows) the event's text out of sight (a play-test)."""
    from weathering_tui.engine.state import ActiveEvent

    game = at(setup_for("1v1", seed=3), human_turn(0, 1))
    long = "effondrement_de_la_biodiversite"
    game.state.active_events[:] = [ActiveEvent(long, [f"{long}#1"], 2)]
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: game_screen(app).query_one(EventsPane).size.height)
        await pilot.pause()
        while app.screen.is_modal:
            await pilot.press("space")
            await pilot.pause()
        pane = game_screen(app).query_one(EventsPane)
        rows = str(pane.render()).splitlines()
        assert rows[0].startswith("Effondrement de la biodiver") and "…" in rows[0], rows
        assert rows[0].rstrip().endswith("2 t"), rows  # its turns on its own row
        assert len(rows) == 2 and rows[1].strip(), rows  # and a row left for its text
        assert max(len(r) for r in rows) <= pane.size.width
