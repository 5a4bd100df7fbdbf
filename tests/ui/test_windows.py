"""A shared terminal's reaction window: a public prompt that names nobody, costs no key
to those who let the action happen, and looks the same whatever anyone holds."""

import re
import time

from helpers import find, set_hand

from weathering_tui.bots import pacing
from weathering_tui.engine import actions as act
from weathering_tui.play import LocalSession
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.tui.screens.privacy import PrivacyScreen
from weathering_tui.tui.screens.window import WindowPrompt

from .games import at, human_turn, setup_for


def two_players(holds_cancel: bool, ap: int = 5):
    """1v1, two players at one terminal; the Écolo Mirai (seat 0) is to play; the
    Lobbyiste Fossilisé (seat 1, whose power costs 7) holds a Boycott (2 PA) or not,
    and has `ap` PA."""
    game = at(setup_for("1v1", humans=2, seed=4, ask_every_human=True), human_turn(0, 1))
    state = game.state
    set_hand(state, 0, "potager_partage", "troc")
    set_hand(state, 1, "boycott" if holds_cancel else "greenwashing", "betonisation")
    state.players[0].ap = 5
    state.players[1].ap = ap
    return game


def screen_text(app) -> str:
    return re.sub(r"\s+", " ", app.export_screenshot().replace("&#160;", " "))


def spy_screens(app) -> list[str]:
    """The names of the screens the app pushes from now on."""
    pushed = []
    push = app.push_screen

    def spy(screen, *args, **kwargs):
        pushed.append(type(screen).__name__)
        return push(screen, *args, **kwargs)

    app.push_screen = spy
    return pushed


async def start(app, pilot) -> None:
    await pilot.pause()
    if isinstance(app.screen, PrivacyScreen):
        await pilot.press("enter")
        await pilot.pause()


async def test_a_draw_nobody_here_could_cancel_opens_no_window():
    # Fossilisé has 1 PA: no cancel card (2 PA at least) nor his power (7) is within
    # reach, whatever he holds. That is public: the draw just happens, for both hands.
    for holds_cancel in (True, False):
        game = two_players(holds_cancel, ap=1)
        app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await start(app, pilot)
            pushed = spy_screens(app)
            hand = len(game.state.players[0].hand)
            await pilot.press("d")
            await pilot.pause()
            assert pushed == []  # no prompt, no privacy screen
            assert isinstance(app.screen, GameScreen) and app.screen._my_turn()
            assert len(game.state.players[0].hand) == hand + 1  # the draw resolved
            assert game.actions[-2:] == [act.Draw(0), act.Pass(1)]  # (the save as before)


async def test_nobody_presses_a_key_the_action_happens_when_the_time_is_up(monkeypatch):
    # Long enough that a busy machine still shows the prompt before its time is up.
    monkeypatch.setattr(pacing, "SHARED_REACTION_SECONDS", 2.0)
    game = two_players(holds_cancel=True)
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        hand = len(game.state.players[0].hand)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, WindowPrompt)
        text = screen_text(app)
        assert "réagit" in text and "2 · " in text  # the opponent's key, no more
        for card in game.state.players[0].hand + game.state.players[1].hand:
            assert app.tr.card(card) not in text  # nothing private on screen
        for _ in range(100):  # no key pressed: the time runs out by itself
            if not isinstance(app.screen, WindowPrompt):
                break
            await pilot.pause(0.1)
        # Everyone was looking: the actor's hand comes back behind the privacy screen.
        assert isinstance(app.screen, PrivacyScreen)
        for card in game.state.players[0].hand:
            assert app.tr.card(card) not in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen._my_turn()
        assert len(game.state.players[0].hand) == hand + 1  # the draw resolved
        assert game.actions[-1] == act.Pass(1)


async def test_a_player_speaks_up_with_their_seats_key_and_cancels():
    game = two_players(holds_cancel=True)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, WindowPrompt)
        app.screen.opened = time.monotonic()  # (just opened, however slow the machine)
        await pilot.press("2")  # typed as it opens: meant for what came before, ignored
        await pilot.pause()
        assert isinstance(app.screen, WindowPrompt)
        app.screen.opened -= 1.0  # a moment later
        await pilot.press("2")
        await pilot.pause()
        assert isinstance(app.screen, PrivacyScreen)  # the speaker's hand stays hidden
        await pilot.press("enter")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ChoiceModal)
        values = [value for _, value in modal.options]
        boycott = act.Cancel(1, find(game.state, 1, "boycott"))
        assert values == [act.Pass(1), boycott]
        await pilot.press("2")
        await pilot.pause()
        assert [e.data["seat"] for e in game.state.log if e.kind == "cancel"] == [1]
        assert isinstance(app.screen, PrivacyScreen)  # the keyboard goes back to the actor
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen._my_turn()


async def test_escape_in_a_speakers_prompt_goes_back_to_the_public_prompt():
    game = two_players(holds_cancel=False)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        await pilot.press("d")
        await pilot.pause(0.7)
        await pilot.press("2", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceModal)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, WindowPrompt)
        app.screen.time_up()  # nobody else reacts
        await pilot.pause()
        assert game.actions[-1] == act.Pass(1)


def steps(holds_cancel: bool, ap: int) -> list:
    """What the terminal shows, step by step, when nobody speaks up."""
    session = LocalSession(two_players(holds_cancel, ap), None, autosave=False)
    seen = [session.next_step()]
    session.take_seat(0)
    session.play(act.Draw(0))
    for _ in range(3):
        step = session.next_step()
        seen.append((step, list(session.waiting), session.view()))
        if step.kind != "window":
            break
        session.nobody_reacts()
    return seen


def test_the_shared_terminal_shows_the_same_whatever_the_opponent_holds():
    for ap in (1, 5):  # no window (nobody could cancel), or one
        holding, empty = steps(True, ap), steps(False, ap)
        assert holding == empty
        shown = [s[0].kind for s in holding[1:]]
        assert shown == (["turn"] if ap == 1 else ["window", "privacy"])
