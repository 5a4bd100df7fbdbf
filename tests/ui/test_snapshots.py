"""Every screen at 80×24 and 120×40 (pytest-textual-snapshot); seeded, no clock, no autosave."""

import pytest

from weathering_tui.tui.app import WeatheringApp

from .games import at, human_turn, setup_for

SIZES = [(80, 24), (120, 40)]


def app(**kwargs) -> WeatheringApp:
    kwargs.setdefault("lang", "fr")
    kwargs.setdefault("saves_dir", None)
    return WeatheringApp(pace=0, autosave=False, **kwargs)


def phase_one_game():
    return at(setup_for("2v1", seed=11), human_turn(0, 1))


def phase_two_game():
    return at(setup_for("3v2", seed=5), lambda s: human_turn(0, 2)(s) and s.round == 7)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_title(snap_compare, size):
    assert snap_compare(app(), terminal_size=size)


def test_title_in_english(snap_compare):
    assert snap_compare(app(lang="en"), terminal_size=(80, 24))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_new_game(snap_compare, size):
    assert snap_compare(app(), press=["enter"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_game_phase_one(snap_compare, size):
    assert snap_compare(app(game=phase_one_game()), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_game_phase_two(snap_compare, size):
    assert snap_compare(app(game=phase_two_game()), terminal_size=size)


def test_game_in_english(snap_compare):
    assert snap_compare(app(lang="en", game=phase_one_game()), terminal_size=(80, 24))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_choice_modal_mulligan(snap_compare, size):
    game = at(
        setup_for("2v1", seed=3), lambda s: s.pending.kind == "mulligan" and s.pending.seat == 0
    )
    assert snap_compare(app(game=game), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_reaction_prompt(snap_compare, size):
    game = at(
        setup_for("2v1", seed=6, characters=["priya", "amir", "fossilise"]),
        lambda s: s.pending is not None and s.pending.kind == "react" and s.pending.seat == 0,
    )
    assert snap_compare(app(game=game), terminal_size=size)


def targeted_card_announced(s):
    p = s.pending
    return (
        p is not None
        and p.kind == "react"
        and p.seat == 0
        and p.info.get("action") == "play_card"
        and "target" in p.info
    )


def test_reaction_prompt_shows_the_cards_effect_and_target(snap_compare):
    """The prompt says whom the card targets and what it does, in full, at 80×24."""
    setup = setup_for("2v1", seed=12, characters=["priya", "amir", "fossilise"])
    assert snap_compare(app(game=at(setup, targeted_card_announced)), terminal_size=(80, 24))


def just_traded(s):
    return (
        s.pending is not None
        and s.pending.kind == "turn"
        and s.pending.seat == 0
        and bool(s.log)
        and s.log[-1].kind == "exchange"
        and 0 in s.log[-1].data["seats"]
        and s.phase == 1
        and s.round <= 4  # mid-phase: no transition summary over the screen
    )


def test_game_after_a_trade_shows_the_card_received(snap_compare):
    """The log's wrapped entry is whole at 80×24: the card received is on screen."""
    assert snap_compare(app(game=at(setup_for("2v1", seed=5), just_traded)), terminal_size=(80, 24))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_privacy_screen(snap_compare, size):
    game = at(setup_for("1v1", humans=2, seed=4), human_turn(0, 1))
    assert snap_compare(app(game=game), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_help(snap_compare, size):
    assert snap_compare(app(game=phase_one_game()), press=["question_mark"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_end_of_game(snap_compare, size):
    game = at(setup_for("2v1", seed=9), lambda s: s.over)
    assert snap_compare(app(game=game), terminal_size=size)


def test_terminal_too_small(snap_compare):
    assert snap_compare(app(), terminal_size=(60, 20))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_transition_summary(snap_compare, size):
    game = at(setup_for("2v1", seed=5), human_turn(0, 2))
    assert snap_compare(app(game=game), terminal_size=size)


def test_load_screen_lists_saves_and_broken_files(snap_compare, tmp_path):
    import shutil
    from pathlib import Path

    examples = Path(__file__).parent.parent.parent / "saves" / "examples"
    for path in examples.glob("*.toml"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "torn.toml").write_text('format = "weathering-save"\nx = ', encoding="utf-8")
    # Below "Nouvelle partie" and "Apprendre à jouer"
    assert snap_compare(
        app(saves_dir=tmp_path), press=["down", "down", "enter"], terminal_size=(80, 24)
    )


def test_log_screen(snap_compare):
    assert snap_compare(app(game=phase_two_game()), press=["l"], terminal_size=(80, 24))


def test_events_screen_tells_every_active_event_in_full(snap_compare):
    game = at(setup_for("2v1", seed=5), just_traded)
    assert len(game.state.active_events) == 2
    assert snap_compare(app(game=game), press=["v"], terminal_size=(80, 24))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_shared_terminal_reaction_window(snap_compare, size, monkeypatch):
    """Two players at one terminal: the public "anyone to react?" prompt, naming the
    opponent's key and nothing private (its clock held at 1.5 s for the picture)."""
    from weathering_tui.play import LocalSession

    monkeypatch.setattr(LocalSession, "window_left", lambda self: 1.5)
    setup = setup_for("1v1", humans=2, seed=4, ask_every_human=True)
    game = at(setup, lambda s: s.pending.kind == "react" and s.stage == "play" and s.round >= 2)
    assert snap_compare(app(game=game), terminal_size=size)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_guided_game_first_lesson(snap_compare, lang):
    assert snap_compare(app(lang=lang, learn=True), terminal_size=(80, 24))


def test_guided_game_says_what_to_do_on_the_bottom_line(snap_compare):
    """After the first lessons: the learner's turn, the expected move and its keys below."""
    assert snap_compare(app(learn=True), press=["enter", "5", "enter"], terminal_size=(80, 24))


def finished_game():
    from weathering_tui.engine import Setup
    from weathering_tui.sim.simulate import play_game
    from weathering_tui.storage.savefile import SavedGame

    setup = Setup.standard("2v1", seed=6)
    state, actions = play_game(setup, "heuristic")
    return SavedGame(setup, state, "2026-11-30T12:00:00Z", "2026-11-30T12:00:00Z")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_replay_as_one_seat(snap_compare, lang):
    game = finished_game()
    assert snap_compare(
        app(lang=lang, replay=(game, 60, 0)), press=["right", "pagedown"], terminal_size=(80, 24)
    )


def test_replay_with_every_hand_open_once_the_game_is_over(snap_compare):
    game = finished_game()
    assert snap_compare(app(replay=(game, 40, 1)), press=["o"], terminal_size=(80, 24))


def test_replay_help_lists_the_replay_s_keys(snap_compare):
    game = finished_game()
    assert snap_compare(app(lang="en", replay=(game, 40, 0)), press=["?"], terminal_size=(80, 24))


def test_since_your_last_turn(snap_compare):
    """The recap at the start of a turn: the gauge, then what each other seat did."""

    async def end_turn_then_wait_for_the_recap(pilot):
        from weathering_tui.tui.screens.recap import RecapScreen

        await pilot.press("e")
        for _ in range(200):
            if isinstance(pilot.app.screen, RecapScreen):
                # its scroll area measures its lines over a few refreshes: let it settle
                for _ in range(3):
                    await pilot.pause(0.05)
                await pilot.wait_for_scheduled_animations()
                return
            if pilot.app.screen.is_modal:
                await pilot.press("1")
            await pilot.pause(0.05)
        raise AssertionError("no recap")

    game = phase_one_game()
    assert snap_compare(
        app(lang="en", game=game),
        run_before=end_turn_then_wait_for_the_recap,
        terminal_size=(80, 24),
    )


def test_game_with_16_colours(snap_compare, monkeypatch):
    """TERM=xterm without COLORTERM: the ANSI theme, so that borders, titles and the
    selection show in the terminal's own palette (they were bright black on black)."""
    monkeypatch.setenv("WEATHERING_COLORS", "16")
    assert snap_compare(app(lang="en", game=phase_one_game()), terminal_size=(80, 24))


def test_game_with_no_color(snap_compare, monkeypatch):
    """NO_COLOR: the footer's keys keep a space before their word ("p play")."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(app(lang="fr", game=phase_one_game()), terminal_size=(80, 24))


def test_new_game_grows_with_its_rows(snap_compare):
    """A 3v2 with a seat's character chosen: the form grows by two seats and the
    character's line, and its keys stay under it (the form kept its first height, and
    the keys went out of sight)."""
    keys = ["enter", "right", "right", "right", "right", "down", "down", "right"]
    assert snap_compare(app(), press=keys, terminal_size=(80, 24))


def test_game_in_the_c_locale(snap_compare, monkeypatch):
    """LANG=C (LC_ALL=C too): the language the command line picks from the locale
    (English), and the screen drawn in UTF-8 all the same — Python runs in UTF-8 mode
    in the C locale (tests/test_cli.py checks the command's output there), so borders,
    marks and accents stay as in any other terminal."""
    from weathering_tui.words import detect_lang

    monkeypatch.setenv("LANG", "C")
    monkeypatch.setenv("LC_ALL", "C")
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert snap_compare(app(lang=detect_lang(), game=phase_one_game()), terminal_size=(80, 24))
