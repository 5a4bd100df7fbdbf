"""A shared terminal's reaction window (issue #29, item 3: a hot seat that flows).

A window that no player at the terminal could answer, as everyone can see (their PA,
their power), opens no prompt; any other opens one public prompt, the same whatever
anyone holds, that only the actor's opponents answer with their own key, or that runs
out in 1.5 s. The privacy screen comes only before another player's cards."""

import re
import time

import pytest
from helpers import find, set_hand

from weathering_tui.bots import pacing
from weathering_tui.engine import actions as act
from weathering_tui.play import LocalSession
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.tui.screens.privacy import PrivacyScreen
from weathering_tui.tui.screens.recap import RecapScreen
from weathering_tui.tui.screens.window import WindowPrompt

from .games import at, human_turn, setup_for, wait_for


def two_players(holds_cancel: bool, ap: int = 5):
    """1v1, two players at one terminal; the Écolo Mirai (seat 0) is to play, with a
    Potager partagé selected; the Lobbyiste Fossilisé (seat 1, whose power costs 7)
    holds a Boycott (2 PA) or not, and has `ap` PA."""
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


async def test_a_card_play_opens_one_shared_prompt_that_runs_out_and_the_actor_goes_on():
    game = two_players(holds_cancel=True)
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        pushed = spy_screens(app)
        await pilot.press("p")  # Potager partagé
        await pilot.pause()
        assert isinstance(app.screen, WindowPrompt)
        opened = time.monotonic()
        text = screen_text(app)
        assert "réagit" in text and "2 · " in text and "1 · " not in text  # the opponent's key
        for card in game.state.players[0].hand + game.state.players[1].hand:
            assert app.tr.card(card) not in text  # nothing private on screen
        await pilot.pause(0.4)
        await pilot.press("space", "1", "enter")  # the actor cannot close it
        assert isinstance(app.screen, WindowPrompt)
        await wait_for(pilot, lambda: not isinstance(app.screen, WindowPrompt), seconds=5)
        assert time.monotonic() - opened < 2.5  # 1.5 s, and a busy machine's slack
        # The actor's own hand comes back: no privacy screen, one prompt in all.
        assert pushed == ["WindowPrompt"]
        assert isinstance(app.screen, GameScreen)
        # (the card resolves once the window is closed: on a busy machine a moment later)
        await wait_for(pilot, lambda: getattr(app.screen, "_my_turn", lambda: False)(), seconds=3)
        assert app.tr.card(game.state.players[0].hand[0])[:15] in screen_text(app)
        assert game.actions[-1] == act.Pass(1)
        assert [card for card in game.state.discard_pile if "potager" in card]  # it resolved


async def test_the_other_player_speaks_up_with_their_own_key_and_cancels(monkeypatch):
    monkeypatch.setattr(pacing, "SHARED_REACTION_SECONDS", 5.0)  # however slow the machine
    game = two_players(holds_cancel=True)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        await pilot.press("p")
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
        # The speaker's cards were on screen: the actor's come back behind the privacy screen.
        assert isinstance(app.screen, PrivacyScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen._my_turn()


async def test_escape_in_a_speakers_prompt_goes_back_to_the_public_prompt(monkeypatch):
    monkeypatch.setattr(pacing, "SHARED_REACTION_SECONDS", 5.0)
    game = two_players(holds_cancel=False)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        await pilot.press("p")
        await pilot.pause(0.4)
        await pilot.press("2", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceModal)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, WindowPrompt)
        app.screen.time_up()  # nobody else reacts
        await pilot.pause()
        assert game.actions[-1] == act.Pass(1)
        assert isinstance(app.screen, PrivacyScreen)  # seat 2's cards were on screen


def test_back_from_a_speakers_prompt_the_public_prompt_has_its_whole_time(monkeypatch):
    """A player who spoke up at the last moment and then went back (Escape) finds the
    public prompt with its whole time again, not the 0.2 s left when they spoke."""
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    session = LocalSession(two_players(holds_cancel=True), None, autosave=False)
    session.next_step()
    session.take_seat(0)
    session.play(act.PlayCard(0, find(session.state, 0, "potager_partage"), 0, None))
    assert session.next_step().kind == "window"
    clock[0] += pacing.SHARED_REACTION_SECONDS - 0.2
    session.speak_up(1)
    clock[0] += 3.0  # the speaker reads their cards, then goes back
    assert session.window_left() == pytest.approx(0.2)  # (paused while they read)
    assert session.next_step().kind == "window"
    assert session.window_left() == pytest.approx(pacing.SHARED_REACTION_SECONDS)


async def test_the_privacy_screen_comes_only_before_another_players_cards():
    game = two_players(holds_cancel=True, ap=1)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PrivacyScreen)  # the first hand of the session
        await pilot.press("enter")
        await pilot.pause()
        pushed = spy_screens(app)
        await pilot.press("d", "p")  # a draw, a card: nobody could cancel, Mirai goes on
        await pilot.pause()
        assert pushed == [] and app.screen._my_turn()
        await pilot.press("e")  # the turn ends: the next screen is Fossilisé's hand
        await wait_for(pilot, lambda: not isinstance(app.screen, GameScreen))
        assert isinstance(app.screen, PrivacyScreen)
        text = screen_text(app)
        for seat in (0, 1):
            for card in game.state.players[seat].hand:
                assert app.tr.card(card) not in text
        await pilot.press("enter")
        await pilot.pause()
        if isinstance(app.screen, RecapScreen):
            await pilot.press("enter")
            await pilot.pause()
        assert app.session.viewer == 1 and app.screen._my_turn()
        assert app.tr.card(game.state.players[1].hand[0])[:15] in screen_text(app)


def test_a_bots_answer_between_two_moves_of_a_player_brings_no_privacy_screen():
    """2v1, both Écolos at the terminal: the Lobbyiste bot's window on a card played is
    answered at once, and the same player goes on with no hand-back."""
    game = at(setup_for("2v1", humans=2, seed=4, ask_every_human=True), human_turn(0, 1))
    set_hand(game.state, 0, "potager_partage", "troc")
    set_hand(game.state, 2, "boycott")  # the bot is asked (it could cancel)
    game.state.players[0].ap = game.state.players[2].ap = 5
    session = LocalSession(game, None, autosave=False)
    assert session.next_step().kind == "privacy"
    session.take_seat(0)
    assert session.next_step().kind == "turn"
    session.play(act.PlayCard(0, find(game.state, 0, "potager_partage"), 0, None))
    kinds = []
    while (step := session.next_step()).kind == "bot":
        kinds.append(step.kind)
        session.bot_move()
    assert kinds == ["bot"] and 2 in session.bots
    assert (step.kind, step.seat) == ("turn", 0)


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
        assert shown == (["turn"] if ap == 1 else ["window", "turn"])


async def test_a_hint_asked_in_a_speakers_prompt_comes_back_to_that_prompt(monkeypatch):
    """Seen in play: h then Escape in a reaction's own prompt at one terminal went back to
    the shared prompt, nearly run out, and the reaction was lost. The prompt comes back,
    and the reaction can still be made."""
    monkeypatch.setattr(pacing, "SHARED_REACTION_SECONDS", 5.0)
    game = two_players(holds_cancel=True)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        await pilot.press("p")
        await pilot.pause(0.4)
        await pilot.press("2", "enter")  # Fossilisé speaks up, behind the privacy screen
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, ChoiceModal) and act.Pass(1) in [v for _, v in prompt.options]
        await pilot.press("h")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ChoiceModal) and app.screen is not prompt
        )
        await pilot.pause()
        assert app.screen.title_text == "The expert's hints"
        await pilot.press("escape")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ChoiceModal) and "hint" not in app.screen.title_text,
        )
        await pilot.pause()
        assert act.Pass(1) in [v for _, v in app.screen.options]  # the same question again
        boycott = act.Cancel(1, find(game.state, 1, "boycott"))
        await pilot.press("2")
        await pilot.pause()
        assert game.actions[-1] == boycott


async def test_a_notice_naming_the_actors_card_leaves_before_the_shared_prompt():
    # Mirai tries a Manifestation on her turn (it is played only in reaction): the notice
    # names her card. The shared prompt that her next play opens must not show it.
    game = two_players(holds_cancel=True)
    set_hand(game.state, 0, "potager_partage", "manifestation")
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        await pilot.press("2", "p")
        await pilot.pause()
        said = " ".join(str(n.message) for n in app._notifications)
        assert "Manifestation" in said  # (it was said to her)
        await pilot.press("1", "p")  # Potager partagé
        await wait_for(pilot, lambda: isinstance(app.screen, WindowPrompt), seconds=3)
        await pilot.pause()
        assert not list(app._notifications)
        assert "Manifestation" not in screen_text(app)


@pytest.mark.handed_over
async def test_two_enters_on_the_privacy_screen_close_it_and_nothing_under_it(monkeypatch):
    # Two Enters, read at once or 0.3 s apart (a play-test: its second Enter put a card
    # of the next player back in the mulligan, unseen): the first closes the privacy
    # screen; the second neither closes the game under it nor acts in it.
    from textual import events

    from weathering_tui.tui.screens import privacy as handing

    # The deaf time made longer than the game's half second, so that the test's own
    # pauses stay inside it on a loaded machine (CI's workers stretched 0.3 s past 0.5 s).
    monkeypatch.setattr(handing, "HANDED_OVER", 3.0)
    game = two_players(holds_cancel=False)
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        privacy = app.screen
        assert isinstance(privacy, PrivacyScreen)
        version = app.session.view().version
        both = [events.Key("enter", "\r"), events.Key("enter", "\r")]  # typed together
        app.post_message(both[0])
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        privacy.action_ready()  # (as if the second came before the first was done)
        app.post_message(both[1])
        await pilot.pause(0.1)
        await pilot.press("enter")  # and one more a moment later
        await pilot.pause(0.2)
        assert isinstance(app.screen, GameScreen) and app.screen._my_turn()
        assert app.session.view().version == version, "a second Enter played a card"
        await pilot.pause(handing.HANDED_OVER)
        await pilot.press("enter")  # an Enter once the hand has been seen plays
        await wait_for(pilot, lambda: app.session.view().version > version)


async def test_a_number_pressed_as_the_shared_prompt_runs_out_chooses_nothing_after_it():
    # Fossilisé presses 2 a moment too late: the prompt has closed and Mirai's next
    # dialog is up; his key must not answer her dialog.
    from textual import events

    game = two_players(holds_cancel=True)
    set_hand(game.state, 0, "potager_partage", "troc", "haies_bocageres")
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(app, pilot)
        await pilot.press("p")  # Potager partagé: the shared prompt
        await wait_for(pilot, lambda: isinstance(app.screen, WindowPrompt))
        prompt = app.screen
        prompt.time_up()
        late = events.Key("2", "2")  # typed just after it closed
        await wait_for(pilot, lambda: not isinstance(app.screen, WindowPrompt))
        screen, version = app.screen, app.session.view().version
        selected = getattr(screen, "selected", None)
        app.post_message(late)
        await pilot.pause(0.1)
        assert app.screen is screen and app.session.view().version == version
        assert getattr(screen, "selected", None) == selected  # (2 would pick her 2nd card)
