"""The replay reached the ways a player reaches it: the end screen, the load screen."""

from weathering_tui.engine import Setup
from weathering_tui.sim.simulate import play_game
from weathering_tui.storage.savefile import SavedGame, write_save
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.end import EndScreen
from weathering_tui.tui.screens.load import LoadScreen
from weathering_tui.tui.screens.replay import ReplayScreen

from .games import NOW


async def replay_from_load(app, pilot):
    """The load screen, then `r` on its highlighted save: the screen that comes."""
    app.open_load()
    await pilot.pause()
    assert isinstance(app.screen, LoadScreen)
    await pilot.press("r")
    await pilot.pause()
    return app.screen


def finished(seed=6) -> SavedGame:
    setup = Setup.standard("2v1", seed=seed)
    state, actions = play_game(setup, "heuristic")
    return SavedGame(setup, state, NOW, NOW)


async def test_r_on_the_end_screen_replays_the_game_from_its_start(tmp_path):
    app = WeatheringApp(lang="fr", saves_dir=tmp_path, game=finished(), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await pilot.pause(0.02)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen)
        await pilot.press("r")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.session.at == 0
        await pilot.press("right", "right", "right_square_bracket")
        assert replay.session.at > 2 and replay.session.timeline.marks[replay.session.at].round == 1
        await pilot.press("end")  # the game's end
        assert replay.session.at == replay.session.timeline.length
        await pilot.press("home")
        assert replay.session.at == 0
        await pilot.press("o")
        assert replay.session.open, "every hand opens: the game is over"
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen), "back where the player came from"


async def test_r_on_the_load_screen_replays_the_highlighted_save(tmp_path):
    setup = Setup.standard("1v1", seed=4)
    state, actions = play_game(setup, stop_after=25)
    write_save(tmp_path / "midgame.toml", SavedGame(setup, state, NOW, NOW))
    app = WeatheringApp(lang="en", saves_dir=tmp_path, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        replay = await replay_from_load(app, pilot)
        assert isinstance(replay, ReplayScreen) and replay.session.at == 25
        await pilot.press("o")
        assert not replay.session.open, "a game still being played keeps its hands shut"
        await pilot.press("2", "left", "pagedown")
        assert replay.session.seat == 1
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)


async def test_panes_shown_again_after_every_hand_fit_their_width():
    """o then a seat's digit: the hand and events panes come back and their lines are
    fitted to their width once laid out (they were built for a width they did not have)."""
    from weathering_tui.tui.widgets import EventsPane, HandPane

    game = finished()
    app = WeatheringApp(lang="en", saves_dir=None, pace=0, autosave=False, replay=(game, 69, 0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        await pilot.pause()
        for pane in (app.screen.query_one(HandPane), app.screen.query_one(EventsPane)):
            width = pane.size.width
            # (the deck's line under the hand is one sentence, wrapped by the pane)
            lines = [line.cell_len for line in pane.render().split() if "▤" not in line.plain]
            assert width > 0 and max(lines) <= width, (type(pane).__name__, width, lines)


async def test_v_in_a_replay_reviews_the_seat_and_jumps_to_a_costly_decision(tmp_path, monkeypatch):
    """v: the seat's costliest decisions from its own view (bots/review.py), listed; Enter
    goes to that moment of the game."""
    from weathering_tui.tui.screens import replay as replay_screen
    from weathering_tui.tui.screens.choice import ChoiceModal

    monkeypatch.setattr(replay_screen, "REVIEW_BUDGET", 4)  # the plumbing, not the search
    import threading

    from weathering_tui.bots import review as review_module

    go_on, reviewed = threading.Event(), review_module.review_decisions

    def held(*args, **kwargs):  # the review waits until the test has seen its notice
        go_on.wait(30)
        return reviewed(*args, **kwargs)

    monkeypatch.setattr(review_module, "review_decisions", held)
    setup = Setup.standard("1v1", seed=8)
    state, actions = play_game(setup, "random", lobbyists="heuristic", stop_after=40)
    write_save(tmp_path / "g.toml", SavedGame(setup, state, NOW, NOW))
    app = WeatheringApp(lang="en", saves_dir=tmp_path, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        replay = await replay_from_load(app, pilot)
        assert isinstance(replay, ReplayScreen)
        await pilot.press("v")
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert said == [app.tr("replay.reviewing")]  # while it works, it says so
        go_on.set()
        for _ in range(400):
            await pilot.pause(0.05)
            if isinstance(app.screen, ChoiceModal):
                break
        await pilot.pause()  # (on screen, as a player sees it, before a key answers it)
        dialog = app.screen
        assert isinstance(dialog, ChoiceModal)
        assert not app._notifications, "the notice goes with the work"
        assert replay.session.seat in replay.reviews
        items = replay.reviews[replay.session.seat].seats.get(replay.session.seat, ())
        assert [index for _, index in dialog.options] == [c.index for c in items]
        assert dialog.options, "a random player's game has a costly decision to show"
        assert dialog.keys == app.tr("replay.review.keys")  # not the game's "q: quit"
        await pilot.press("enter")
        await pilot.pause()
        assert replay.session.at == items[0].index
        # and what that moment was about stays said there (the move, the better one)
        assert [n.message for n in app._notifications] == [dialog.options[0][0]]


async def test_an_unfinished_game_s_replay_says_the_other_hands_stay_hidden(tmp_path):
    """A game still being played, replayed from the load screen: the player's own seat
    only; a digit for another seat says why nothing changes, and the footer offers none."""
    import attrs

    from weathering_tui.tui.widgets import KeyBar

    setup = Setup.standard("1v1", seed=4)
    setup = attrs.evolve(setup, seats=(attrs.evolve(setup.seats[0], human=True), setup.seats[1]))
    state, actions = play_game(setup, stop_after=25)
    write_save(tmp_path / "midgame.toml", SavedGame(setup, state, NOW, NOW))
    app = WeatheringApp(lang="en", saves_dir=tmp_path, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        replay = await replay_from_load(app, pilot)
        assert isinstance(replay, ReplayScreen) and replay.session.seat == 0
        assert "1-2" not in str(replay.query_one(KeyBar).render())
        await pilot.press("2")
        await pilot.pause()
        assert replay.session.seat == 0
        assert any("stay hidden" in str(n.message) for n in app._notifications)
        assert replay.view().players[1].hand is None
        await pilot.press("o")  # every hand: said to come at the end, not ignored
        await pilot.pause()
        assert not replay.session.open
        assert any("once the game is over" in str(n.message) for n in app._notifications)


async def test_help_in_a_replay_lists_the_replay_s_keys():
    """? in a replay: its own keys (v, o, [ ]…), in both languages, not the game's
    "p / Enter: play the selected card" (a play-test)."""
    from weathering_tui.tui.screens.help import HelpScreen
    from weathering_tui.words import REPLAY_KEYS

    assert [k for k, _ in REPLAY_KEYS["en"]][-2:] == ["? / F1", "q / Esc"]
    assert len(REPLAY_KEYS["fr"]) == len(REPLAY_KEYS["en"])
    setup = Setup.standard("1v1", seed=8)
    state, _ = play_game(setup, "heuristic")
    game = SavedGame(setup, state, NOW, NOW)
    app = WeatheringApp(lang="en", saves_dir=None, replay=(game, 20, 0), pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        said = str(app.screen._keys())
        assert "the expert's review of the seat shown" in said and "p / Enter" not in said
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
