"""Whole flows driven by keys through Textual's pilot."""

import re

from weathering_tui.storage.savefile import read_save
from weathering_tui.tui.app import WeatheringApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.screens.end import EndScreen
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.tui.screens.privacy import PrivacyScreen
from weathering_tui.tui.screens.recap import RecapScreen
from weathering_tui.tui.screens.title import TitleScreen
from weathering_tui.tui.screens.window import WindowPrompt

from .games import at, human_turn, setup_for, wait_for


async def drive(pilot, app, until, limit=2000):
    """Answer every prompt the simplest way a player could: Enter on privacy screens,
    the first option of any choice, and `e` to end one's turn."""
    for _ in range(limit):
        if until(app):
            return
        screen = app.screen
        if isinstance(screen, PrivacyScreen | RecapScreen):
            await pilot.press("enter")
        elif isinstance(screen, WindowPrompt):  # a shared terminal's window: nobody reacts
            await pilot.pause(0.1)
            screen.time_up()
        elif isinstance(screen, ChoiceModal):
            await pilot.press("1")
        elif isinstance(screen, GameScreen) and screen._my_turn():
            await pilot.press("e")
        else:
            await pilot.pause(0.01)
    raise AssertionError(f"stuck on {app.screen!r}")


def over(app):
    return isinstance(app.screen, EndScreen)


async def test_hot_seat_1v1_two_humans_to_the_end(tmp_path):
    app = WeatheringApp(
        lang="fr", saves_dir=tmp_path, setup=setup_for("1v1", humans=2, seed=8), pace=0
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PrivacyScreen)  # two humans: the first seat is hidden too
        await drive(pilot, app, over)
        state = app.session.state
        assert state.over and state.outcome is not None
        assert {e.data["seat"] for e in state.log if e.kind == "turn"} == {0, 1}
        await pilot.press("enter")
        assert isinstance(app.screen, TitleScreen)


async def test_one_human_and_four_bots_in_3v2_to_the_end(tmp_path):
    app = WeatheringApp(
        lang="en", saves_dir=tmp_path, setup=setup_for("3v2", humans=1, seed=3), pace=0
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await drive(pilot, app, over)
        assert not any(isinstance(s, PrivacyScreen) for s in app.screen_stack)
        game = app.session.game
        human_actions = [a for a in game.actions if a.seat == 0]
        bot_actions = [a for a in game.actions if a.seat != 0]
        assert human_actions and len(bot_actions) > len(human_actions)
        saved = read_save(tmp_path / f"{app.session.save_name}.toml")
        assert saved.state.outcome == game.state.outcome


async def test_a_cancellation_through_the_reaction_prompt(tmp_path):
    game = at(
        setup_for("2v1", seed=6, characters=["priya", "amir", "fossilise"]),
        lambda s: s.pending is not None and s.pending.kind == "react" and s.pending.seat == 0,
    )
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ChoiceModal)
        labels = [label for label, _ in modal.options]
        index = next(i for i, label in enumerate(labels) if "Objection" in label)
        cancels = sum(1 for e in game.state.log if e.kind == "cancel")
        await pilot.press(str(index + 1))
        await pilot.pause()
        log = app.session.state.log
        assert sum(1 for e in log if e.kind == "cancel") == cancels + 1
        assert any(e.kind == "cancelled" for e in log)


async def test_the_privacy_screen_shows_no_card_of_the_next_hand():
    game = at(setup_for("1v1", humans=2, seed=4), human_turn(0, 1))
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PrivacyScreen)
        text = re.sub(r"\s+", " ", app.export_screenshot().replace("&#160;", " "))
        for seat in (0, 1):
            for card in game.state.players[seat].hand:
                assert app.tr.card(card) not in text
        await pilot.press("enter")
        text = re.sub(r"\s+", " ", app.export_screenshot().replace("&#160;", " "))
        assert app.tr.card(game.state.players[0].hand[0])[:15] in text


async def test_new_game_turns_save_quit_load_finish(tmp_path):
    app = WeatheringApp(lang="fr", saves_dir=tmp_path, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # title: new game
        await pilot.press("enter")  # form: start with the defaults
        await pilot.pause()
        await drive(pilot, app, lambda a: a.session.state.round >= 3)
        name = app.session.save_name
        actions = len(app.session.game.actions)
        round_before = app.session.state.round
        await pilot.press("ctrl+q")
    assert (tmp_path / f"{name}.toml").exists()
    again = WeatheringApp(lang="fr", saves_dir=tmp_path, load=tmp_path / f"{name}.toml", pace=0)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert len(again.session.game.actions) == actions
        assert again.session.state.round == round_before
        await drive(pilot, again, over)
        assert again.session.state.over


async def test_a_broken_save_is_reported_and_the_app_keeps_running(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("not a save", encoding="utf-8")
    app = WeatheringApp(lang="en", saves_dir=tmp_path, load=bad, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert bad.read_text(encoding="utf-8") == "not a save"


async def test_keys_that_do_not_apply_are_not_offered(tmp_path):
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="fr", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.check_action("end", ()) is True
        assert screen.check_action("draw", ()) is True
        before = len(app.session.game.actions)
        await pilot.press("d")  # the draw action, once per turn
        while not screen._my_turn():
            await pilot.press("1")  # a reaction or an overflow discard, if any
        assert len(app.session.game.actions) > before
        assert not screen._offered("draw")
        assert "d" not in screen.query_one("KeyBar").shown
        before = len(app.session.game.actions)
        await pilot.press("d")  # not offered: pressed anyway, nothing happens, and it says why
        await pilot.pause()
        assert len(app.session.game.actions) == before
        told = [n.message for n in app._notifications]
        assert any("une seule pioche par tour" in m for m in told), told
        await pilot.press("d", "d", "d")  # pressed again and again: said once on screen
        await pilot.pause()
        told = [n.message for n in app._notifications]
        assert sum("une seule pioche par tour" in m for m in told) == 1, told


async def test_ctrl_s_saves_under_a_name_and_l_shows_the_whole_log(tmp_path):
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=tmp_path, game=game, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        field = app.screen.query_one("Input")
        field.value = ""
        await pilot.press(*"my save/!", "enter")  # refused, and said so: nothing lost
        await pilot.pause()
        hint = str(app.screen.query_one("#save-hint").render())
        assert "“my save/!” cannot name a save" in hint
        assert field.value == "my save/!" and not list(tmp_path.glob("my*"))
        field.value = ""
        await pilot.press(*"before-lunch", "enter")
        await pilot.pause()
        assert read_save(tmp_path / "before-lunch.toml").state == app.session.state
        await pilot.press("l")
        await pilot.pause()
        from weathering_tui.tui.screens.log import LogScreen

        assert isinstance(app.screen, LogScreen)
        assert len(app.screen.lines) >= 8 and "Phase 1 · Round 1/5" in app.screen.lines
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


async def test_ctrl_s_on_the_name_of_another_game_asks_before_replacing_it(tmp_path):
    from weathering_tui.storage.savefile import write_save

    other = at(setup_for("1v1", seed=4), human_turn(0, 1))
    write_save(tmp_path / "mine.toml", other)
    before = (tmp_path / "mine.toml").read_bytes()
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=tmp_path, game=game, pace=0)

    async def save_as(pilot, name):
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("Input").value = ""
        await pilot.press(*name, "enter")
        await pilot.pause()

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await save_as(pilot, "mine")
        assert isinstance(app.screen, ChoiceModal)
        assert "another game" in app.screen.title_text
        await pilot.press("2")  # choose another name: the name prompt comes back
        await pilot.pause()
        assert (tmp_path / "mine.toml").read_bytes() == before
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await save_as(pilot, "mine")
        await pilot.press("1")  # replace it, knowingly
        await pilot.pause()
        assert read_save(tmp_path / "mine.toml").state == app.session.state
        await save_as(pilot, "mine")  # now it holds this very game: no question
        assert isinstance(app.screen, GameScreen)


async def test_a_leaving_human_hands_the_seat_to_a_bot_and_the_save_keeps_it(tmp_path):
    setup = setup_for("2v1", humans=2, seed=6)
    app = WeatheringApp(lang="fr", saves_dir=tmp_path, setup=setup, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await drive(pilot, app, lambda a: isinstance(a.screen, GameScreen) and a.screen._my_turn())
        leaving = app.session.viewer
        await pilot.press("ctrl+b", "enter")  # Enter alone: "No, go on"
        await pilot.pause()
        assert leaving in app.session.humans and isinstance(app.screen, GameScreen)
        await pilot.press("ctrl+b")
        await pilot.press("2")  # "Yes: a bot plays … to the end"
        await drive(pilot, app, lambda a: a.session.state.round >= 3)
        assert leaving in app.session.bots and app.session.humans == [1 - leaving]
        name = app.session.save_name
    saved = read_save(tmp_path / f"{name}.toml")
    assert saved.handed == [leaving]


async def test_a_failing_disk_is_reported_and_the_game_goes_on(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the saves folder should be", encoding="utf-8")
    app = WeatheringApp(lang="en", saves_dir=blocked, setup=setup_for("2v1", seed=2), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await drive(pilot, app, lambda a: a.session.state.round >= 2)
        assert app.session.save_problem is not None
        assert blocked.read_text(encoding="utf-8").startswith("a file")


async def test_an_expert_bot_seat_plays_in_the_app(tmp_path):
    setup = setup_for("1v1", humans=1, seed=3)
    import attrs

    seats = (setup.seats[0], attrs.evolve(setup.seats[1], bot="expert"))
    app = WeatheringApp(
        lang="fr", saves_dir=None, setup=attrs.evolve(setup, seats=seats), pace=0, autosave=False
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await drive(pilot, app, lambda a: a.session.state.round >= 2, limit=4000)
        assert app.session.bots[1].name == "expert"
        assert any(a.seat == 1 for a in app.session.game.actions)


async def test_help_log_and_quit_work_from_inside_a_dialog(tmp_path):
    from weathering_tui.tui.screens.help import HelpScreen
    from weathering_tui.tui.screens.log import LogScreen

    game = at(
        setup_for("2v1", seed=3), lambda s: s.pending.kind == "mulligan" and s.pending.seat == 0
    )
    app = WeatheringApp(lang="fr", saves_dir=tmp_path, game=game, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceModal)
        assert "? aide" in str(app.screen.query_one("#choice-keys").render())
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, ChoiceModal)
        await pilot.press("l")
        assert isinstance(app.screen, LogScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, ChoiceModal)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    saved = read_save(tmp_path / f"{app.session.save_name}.toml")
    assert saved.state == app.session.state  # quitting from the dialog saved the game
    # the command to resume it comes on a line of its own, whole, for copying
    command = app.goodbye.splitlines()[-1].strip()
    words = command.split()
    load = words.index("load")
    assert words[load : load + 2] == ["load", app.session.save_name]
    assert words[-2:] == ["--saves-dir", str(tmp_path)]
    # the game's language, always: the command may be typed where the locale differs
    assert "--lang fr" in command


async def test_the_help_scrolls_with_down_and_page_down_at_once():
    from textual.containers import VerticalScroll

    app = WeatheringApp(lang="fr", saves_dir=None, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_help(tab="cards")
        await pilot.pause()
        page = app.screen.query_one("#cards").query_one(VerticalScroll)
        assert page.scroll_y == 0 and page.max_scroll_y > 0
        await pilot.press("down")
        await pilot.pause()
        assert page.scroll_y == 1
        await pilot.press("pagedown")
        await pilot.pause()
        assert page.scroll_y > 5
        await pilot.press("right")  # ← → still change tabs
        await pilot.pause()
        assert app.screen.query_one("TabbedContent").active == "characters"


async def test_trade_and_power_say_what_they_do_before_acting_even_with_one_choice(tmp_path):
    """In 1v1 there is one partner and one target: the key still opens a dialog that
    says what happens, and Escape takes nothing."""
    game = at(setup_for("1v1", seed=5, characters=["thomas", "fossilise"]), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = len(app.session.game.actions)
        asked = 0
        for key, words in (("t", "unseen"), ("o", "Cost at your level")):
            assert app.screen.check_action({"t": "trade", "o": "power"}[key], ()), key
            asked += 1
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, ChoiceModal), key
            assert words in app.screen.body
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
        assert asked == 2 and len(app.session.game.actions) == before


async def test_the_end_screen_opens_the_whole_log_and_the_help_jumps_to_the_cards():
    from weathering_tui.tui.screens.help import HelpScreen
    from weathering_tui.tui.screens.log import LogScreen

    game = at(setup_for("2v1", seed=9), lambda s: s.over)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LogScreen) and len(app.screen.lines) > 50
        await pilot.press("escape")
        app.open_help()
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one("TabbedContent").active == "cards"


async def test_q_on_the_privacy_screen_saves_and_quits(tmp_path):
    game = at(setup_for("1v1", humans=2, seed=4), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=tmp_path, game=game, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await drive(pilot, app, lambda a: isinstance(a.screen, GameScreen) and a.screen._my_turn())
        await pilot.press("e")  # the other human's turn: the keyboard goes round
        await drive(pilot, app, lambda a: isinstance(a.screen, PrivacyScreen), limit=200)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    assert "load" in (app.goodbye or "")


async def test_undo_selects_the_card_that_came_back():
    game = at(setup_for("2v1", seed=11), human_turn(0, 1))
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        hand = app.session.view().hand
        last = hand[-1]
        assert last.put_in_deck is not None and len(hand) > 1
        await pilot.press(str(len(hand)), "b")  # the last card into the deck
        await wait_for(pilot, lambda: len(app.session.view().hand) < len(hand))
        await wait_for(pilot, screen._my_turn)
        assert screen.selected == len(hand) - 2  # (the selection fell back on the one before)
        await pilot.press("u")
        await wait_for(pilot, lambda: len(app.session.view().hand) == len(hand))
        await pilot.pause()
        assert app.session.view().hand[screen.selected].instance == last.instance


async def test_the_load_list_reaches_a_broken_save_and_enter_on_it_says_why(tmp_path):
    """Broken saves were listed but could not be highlighted: past a full list they were
    never seen, and End left no row highlighted (a play-test). Now each is reached, its
    preview says why, and Enter on it says so and loads nothing."""
    from textual.widgets import OptionList

    from weathering_tui.engine import Setup
    from weathering_tui.storage.savefile import SavedGame, write_save
    from weathering_tui.tui.screens.load import LoadScreen

    for n in range(9):  # more than a 80×24 list shows
        write_save(tmp_path / f"game{n}.toml", SavedGame.start(Setup.standard("1v1", seed=n)))
    (tmp_path / "zz-torn.toml").write_text('format = "weathering-save"\nx = ', encoding="utf-8")
    app = WeatheringApp(lang="en", saves_dir=tmp_path, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_load()
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        rows = app.screen.rows
        await pilot.press("end")
        await pilot.pause()
        listed = app.screen.query_one(OptionList)
        assert rows[listed.highlighted][0].name == "zz-torn.toml"
        preview = str(app.screen.query_one("#preview-text").render())
        assert "zz-torn.toml" in preview and "TOML" in preview, preview
        app.clear_notifications()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen) and app.session is None
        told = [n.message for n in app._notifications]
        assert any("unreadable" in m for m in told), told


async def test_a_game_of_bots_only_does_not_tell_anyone_to_wait_for_their_turn():
    """`new --humans 0`: bots on every seat, watched; the footer said "wait for your
    turn", a turn that never comes (a play-test)."""
    from weathering_tui.tui.widgets import KeyBar

    game = at(setup_for("1v1", humans=0, seed=4), lambda s: s.round >= 1)
    app = WeatheringApp(lang="en", saves_dir=None, game=game, pace=0.6, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        bar = app.screen.query_one(KeyBar)
        await wait_for(pilot, lambda: "decides" in str(bar.render()))
        said = str(bar.render())
        assert "wait for your turn" not in said, said
