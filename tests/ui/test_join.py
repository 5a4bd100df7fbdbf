"""`weathering join`: the lobby, a seat, the game screen fed by the table server, and
other players' strings shown as plain text."""

import asyncio
import html
import json
import re

from helpers import running_server

from weathering_tui.net import protocol as pr
from weathering_tui.tui.join import JoinApp
from weathering_tui.tui.screens.choice import ChoiceModal
from weathering_tui.tui.screens.game import GameScreen
from weathering_tui.tui.screens.lobby import LobbyScreen
from weathering_tui.tui.screens.waiting import WaitingScreen
from weathering_tui.tui.widgets import KeyBar

EVIL = "[@click=app.quit]x[/] [b]\x1b[2J"


def screen_text(app) -> str:
    return re.sub(r"\s+", " ", html.unescape(app.export_screenshot()).replace("\xa0", " "))


async def until(pilot, test, limit=200):
    for _ in range(limit):
        if test():
            return
        await pilot.pause(0.05)
    raise AssertionError("never happened")


async def answer_until(pilot, test, limit=200):
    """Answer every dialog with its first option until `test()` holds."""
    for _ in range(limit):
        if test():
            return
        if pilot.app.screen.is_modal:
            await pilot.press("1")
        await pilot.pause(0.05)


async def test_another_players_name_and_chat_show_literally_and_trigger_nothing(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        reader, writer = await asyncio.open_unix_connection(str(path))
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "raw", identity="mallory", name=EVIL)))
        writer.write(pr.client_line(pr.CreateTable("den", "1v1", (0, 1))))
        writer.write(pr.client_line(pr.TakeSeat("den", 0)))
        app = JoinApp(lang="en", socket_path=path, identity="me", name="Me")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.tables)
            await pilot.pause(0.2)
            assert "[@click=app.quit]x[/] [b" in screen_text(app)  # the name, as typed
            await pilot.press("enter")
            await pilot.press("2")  # the only free seat: seat 2, numbered as the lobby shows it
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            writer.write(pr.client_line(pr.Start("den")))
            await until(pilot, lambda: isinstance(app.screen, GameScreen) or app.screen.is_modal)
            writer.write(pr.client_line(pr.Chat("den", EVIL + " hello")))
            await until(pilot, lambda: app.session is not None and app.session.notices)
            await pilot.pause(0.2)
            shown = screen_text(app)
            assert "[@click=app.quit]x[/] [b]␛[2J hello" in shown  # literally, escape pictured
            assert "\x1b" not in app.export_screenshot()
            await pilot.click(offset=(10, 21))  # on the log pane's lines: nothing happens
            await pilot.pause(0.1)
            assert app.is_running and app.return_code is None
        writer.close()


async def test_two_players_meet_in_the_lobby_and_play_through_the_server(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path) as server:
        host = JoinApp(lang="fr", socket_path=path, identity="ann", name="Ann")
        async with host.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(host.screen, LobbyScreen))
            # 1v1, one human seat (a bot takes the other), no hints
            await pilot.press("n", "1", "1", "1", "1")
            await pilot.press("enter", "enter")  # the name offered, no join code
            await until(pilot, lambda: isinstance(host.screen, WaitingScreen))
            await pilot.press("s")
            for _ in range(400):  # answer every decision with its first option, end turns
                if server.tables and next(iter(server.tables.values())).over:
                    break
                screen = host.screen
                if screen.is_modal:
                    await pilot.press("1")
                elif isinstance(screen, GameScreen) and screen._my_turn():
                    footer = screen.query_one(KeyBar).shown
                    assert "h" not in footer, "a table made without hints offers none"
                    await pilot.press("e")
                else:
                    await pilot.pause(0.05)
            table = next(iter(server.tables.values()))
            assert table.over
            await until(pilot, lambda: type(host.screen).__name__ == "EndScreen")
        saved = json.dumps(table.saves.table_meta())
        assert "ann" in saved


async def test_one_identity_in_two_terminals_the_newer_holds_the_seat_the_older_is_told_and_can_take_it_back(
    tmp_path,
):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        first = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
        async with first.run_test(size=(80, 24)) as p1:
            await until(p1, lambda: isinstance(first.screen, LobbyScreen) and first.client.name)
            # a 1v1 for two humans, an Écolo, no hints, no code
            for key in ("n", "1", "2", "1", "1", "enter", "enter"):
                await p1.press(key)
            await until(p1, lambda: isinstance(first.screen, WaitingScreen))
            # the waiting room is right from the start: my seat is mine, not free
            await until(p1, lambda: "1. Écolo Ann" in screen_text(first))
            await p1.press("s")  # started: the other seat becomes a bot
            await until(p1, lambda: first.session is not None)
            second = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
            async with second.run_test(size=(80, 24)) as p2:
                await until(p2, lambda: second.session is not None)
                await until(p1, lambda: isinstance(first.screen, LobbyScreen))
                await p1.pause(0.2)
                told = [n.message for n in first._notifications]  # the toast, unwrapped
                assert any("played from another connection" in m for m in told), told
            # the older window sees its seat (away) and takes it back with Enter
            await until(
                p1,
                lambda: any(
                    s["player"] == "Ann" and s["away"]
                    for t in first.client.tables
                    for s in t["seats"]
                ),
            )
            await p1.press("enter")
            await until(p1, lambda: first.session is not None)
            assert first.client.seats.get("Ann-1v1") == 0


async def test_q_at_a_table_goes_to_the_tables_and_a_bot_plays_on_until_enter(tmp_path):
    """q at a table: dialogs say it goes to the tables; the server hears it and a bot plays
    the seat at once (nobody waits out the grace); Enter on the table takes it back."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, grace=60.0) as server:
        app = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.name)
            await pilot.press("n", "1", "2", "1", "1", "enter", "enter")  # a 1v1 for two humans
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            # bob sits and never plays: the game waits on him, it cannot end without him
            reader, writer = await asyncio.open_unix_connection(str(path))
            writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "raw", identity="bob")))
            writer.write(pr.client_line(pr.TakeSeat(app.table, 1)))
            table = server.tables[app.table.casefold()]
            await until(pilot, lambda: table.seats[1].owner == "bob")
            await pilot.press("s")
            await until(pilot, lambda: app._game_screen() is not None)
            assert "q back to the tables (a bot plays for you)" in app.dialog_keys
            await pilot.press("q")  # (on the game screen or in its dialog: the same)
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await until(pilot, lambda: table.seats[0].botted)
            assert (
                0 not in server.lobby.driver(table.name).away_timers
                and table.seats[0].owner == "ann"
            )
            await until(pilot, lambda: app.lobby.tables[0]["seats"][0]["bot"])
            await pilot.press("enter")
            await until(pilot, lambda: app._game_screen() is not None)
            assert not table.seats[0].botted and not table.over
            writer.close()


async def test_the_creator_back_through_another_connection_still_starts_the_table(tmp_path):
    """The table's creator, taken over by a second window before the start, sits again
    from the first once the second is closed (which frees the seat, as any player gone
    before the start): its waiting room offers s, and s starts the game."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path) as server:
        first = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
        async with first.run_test(size=(80, 24)) as p1:
            await until(p1, lambda: isinstance(first.screen, LobbyScreen) and first.client.name)
            await p1.press("n", "1", "2", "1", "1", "enter", "enter")  # a 1v1 for two humans
            await until(p1, lambda: isinstance(first.screen, WaitingScreen))
            second = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
            async with second.run_test(size=(80, 24)) as p2:
                # it goes back to where ann sits (her seat, taken over): its waiting room
                await until(p2, lambda: isinstance(second.screen, WaitingScreen))
                await until(p2, lambda: "s start" in screen_text(second))
                await until(p1, lambda: isinstance(first.screen, LobbyScreen))
            # the second window gone, the lobby shows the seat free again
            await until(p1, lambda: first.lobby.tables[0]["seats"][0]["player"] == "")
            await p1.press("enter")
            await until(p1, lambda: isinstance(first.screen, ChoiceModal))
            await p1.press("1")
            await until(p1, lambda: isinstance(first.screen, WaitingScreen))
            await until(p1, lambda: "s start" in screen_text(first))
            await p1.press("s")
            await until(p1, lambda: first.session is not None)
            assert next(iter(server.tables.values())).started


async def test_the_lobby_comes_back_right_after_the_terminal_grows(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        reader, writer = await asyncio.open_unix_connection(str(path))
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "raw", identity="bob", name="Bob")))
        writer.write(pr.client_line(pr.CreateTable("den", "1v1", (0, 1))))
        app = JoinApp(lang="en", socket_path=path, identity="me", name="Me")
        async with app.run_test(size=(79, 23)) as pilot:
            await until(pilot, lambda: app.client.tables)
            await pilot.resize_terminal(80, 24)
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.pause(0.3)
            text = screen_text(app)
            assert "Connected as Me" in text and "den" in text, text
        writer.close()


async def test_at_a_table_with_hints_a_player_takes_a_move_back_and_asks_the_expert(tmp_path):
    """The path a player uses: `weathering join`, a table made with hints (💡), a move
    stored, u takes it back (the log says so), h gives the expert's moves; at a table
    made without hints, h is not offered."""
    from weathering_tui.engine import actions as act
    from weathering_tui.tui.screens.choice import ChoiceModal
    from weathering_tui.tui.screens.log import LogScreen
    from weathering_tui.tui.widgets import LogPane, log_lines
    from weathering_tui.words.log_lines import log_line

    path = tmp_path / "s.sock"
    async with running_server(tmp_path) as server:
        app = JoinApp(lang="fr", socket_path=path, identity="ann", name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("n", "1", "1", "1", "2")  # 1v1, one human seat, with hints
            await pilot.press("enter", "enter")  # the name offered, no join code
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            assert next(iter(server.tables.values())).hints  # made with hints: its h shows below
            await pilot.press("s")
            table = next(iter(server.tables.values()))

            def my_turn():
                screen = app.screen
                if screen.is_modal and isinstance(screen, ChoiceModal):
                    return False
                return isinstance(screen, GameScreen) and screen._my_turn()

            await answer_until(pilot, my_turn)  # keep the hand, until ann's turn
            game = app.screen
            stores = [a for a in game.view().legal if isinstance(a, act.StoreAp)]
            assert stores, "ann can store PA on her first turn"
            before = list(table.game.actions)
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
            await pilot.press("1")
            await until(pilot, lambda: len(table.game.actions) > len(before) and my_turn())
            assert "u" in game.query_one(KeyBar).shown
            await pilot.press("u")
            await until(pilot, lambda: table.game.actions == before)
            await until(
                pilot, lambda: "reprend son action" in str(game.query_one(LogPane).render())
            )
            await pilot.press("l")  # the whole log holds the notice too, after the move kept
            await until(pilot, lambda: isinstance(app.screen, LogScreen))
            lines, view = app.screen.lines, game.session.view()
            (at, _, notice), *_ = (n for n in game.session.notices if "reprend" in n[-1])
            before = [e for e in view.log[:at] if log_line(app.tr, view, e) is not None]
            assert lines.index(notice) == len(before), lines  # where it happened
            assert len(lines) == len(log_lines(app.tr, view)) + len(game.session.notices)
            await pilot.press("escape")
            assert "h" in game.query_one(KeyBar).shown
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, ChoiceModal), limit=400)
            await until(pilot, lambda: "Conseils" in screen_text(app))  # (once painted)
            await pilot.press("escape")


async def test_a_card_refused_at_a_table_says_why_as_at_one_terminal(tmp_path):
    """p on a card one cannot pay: the server refuses it, and the player reads the rule
    with its numbers ("… costs 2 PA and you have 0"), not "not offered now"."""
    from weathering_tui.engine import actions as act
    from weathering_tui.tui.screens.choice import ChoiceModal

    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        app = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.name)
            await pilot.press("n", "1", "1", "1", "1", "enter", "enter")  # 1v1, one human, no hints
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            await pilot.press("s")

            def my_turn():
                screen = app.screen
                return isinstance(screen, GameScreen) and screen._my_turn()

            await answer_until(pilot, my_turn)  # whatever comes, until ann's turn
            game = app.screen
            ap = game.view().me.ap
            assert any(isinstance(a, act.StoreAp) for a in game.view().legal)
            await pilot.press("s")  # store every PA: no card is affordable now
            await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
            await pilot.press(str(ap))
            await until(pilot, lambda: my_turn() and game.view().me.ap == 0)
            hand = game.view().hand
            index = next(i for i, c in enumerate(hand) if c.cost > 0)
            for _ in range(index):
                await pilot.press("down")
            card = hand[index].instance
            await pilot.press("p")
            said = f"{app.tr.card(card)} costs "
            await until(pilot, lambda: any(said in n.message for n in app._notifications))
            told = next(n.message for n in app._notifications if said in n.message)
            assert told.endswith("and you have 0"), told


async def test_q_in_a_dialog_at_a_table_goes_back_to_the_lobby_as_on_the_game_screen(tmp_path):
    from weathering_tui.tui.screens.choice import ChoiceModal

    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        app = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("n", "1", "1", "1", "1", "enter", "enter")  # 1v1, one human, no hints
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, ChoiceModal))  # the mulligan
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert app.is_running and app.return_code is None


async def test_a_table_that_starts_when_full_says_so_in_its_waiting_room(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        reader, writer = await asyncio.open_unix_connection(str(path))
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "raw", identity="host")))
        writer.write(pr.client_line(pr.CreateTable("den", "2v1", (0, 1), start_when_full=True)))
        app = JoinApp(lang="en", socket_path=path, identity="me", name="Me")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.tables)
            await pilot.press("enter")
            await pilot.press("1")
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            await until(pilot, lambda: "1. Écolo Me" in screen_text(app))
            shown = screen_text(app)
            assert "The game starts once every seat is taken" in shown
            assert "creator says so" not in shown
        writer.close()


async def test_a_refused_seat_goes_back_to_the_lobby_and_the_picker_numbers_seats_as_the_lobby(
    tmp_path,
):
    """The picker offers the free seat 2 as "2" (the lobby's number); a wrong code is
    refused: the player is told and back in the lobby, not left in a waiting room."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        reader, writer = await asyncio.open_unix_connection(str(path))
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "raw", identity="host")))
        writer.write(pr.client_line(pr.CreateTable("den", "1v1", (0, 1), code="sesame")))
        writer.write(pr.client_line(pr.TakeSeat("den", 0, "sesame")))
        app = JoinApp(lang="en", socket_path=path, identity="me", name="Me")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(
                pilot,
                lambda: (
                    isinstance(app.screen, LobbyScreen)
                    and any(s["player"] for t in app.client.tables for s in t["seats"])
                ),
            )
            await pilot.press("enter")
            await pilot.pause(0.2)
            assert "2. Lobby" in screen_text(app) and "1. Lobby" not in screen_text(app)
            await pilot.press("1")  # not a number offered: nothing happens
            await pilot.pause(0.1)
            assert "2. Lobby" in screen_text(app)
            await pilot.press("2")
            await pilot.pause(0.2)
            for key in "wrong":
                await pilot.press(key)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.pause(0.3)
            assert isinstance(app.screen, LobbyScreen), "not left in the waiting room"
            assert "den" not in app.client.seats
        writer.close()


async def test_a_player_waiting_at_a_table_reads_whose_decision_it_is(tmp_path):
    """At a table the footer says who decides while one's own keys wait, as it does for
    a bot at one terminal (whose turn or choice it is, is public)."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path) as server:
        reader, writer = await asyncio.open_unix_connection(str(path), limit=1 << 24)
        writer.write(pr.client_line(pr.Hello(pr.PROTOCOL, "raw", identity="bob", name="Bob")))
        app = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.name)
            await pilot.press("n", "1", "2", "1", "1", "enter", "enter")  # a 1v1 for two humans
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            (name,) = [t.name for t in server.tables.values()]
            writer.write(pr.client_line(pr.TakeSeat(name, 1)))
            await until(pilot, lambda: "Bob" in screen_text(app))
            await pilot.press("s")
            table = next(iter(server.tables.values()))
            # Ann's mulligan and her turn's moves go by; then Bob decides, and says nothing
            for _ in range(200):
                pending = table.game.state.pending
                if pending.seat == 1 and pending.kind != "react":
                    break
                if app.screen.is_modal:
                    await pilot.press("1")
                elif isinstance(app.screen, GameScreen) and app.screen._my_turn():
                    await pilot.press("e")
                else:
                    await pilot.pause(0.05)
            assert pending.seat == 1
            game = app.screen
            assert isinstance(game, GameScreen)
            await until(pilot, lambda: "⏳" in game.query_one(KeyBar).shown)
            assert "Bob decides" in screen_text(app)
        writer.close()


def test_a_servers_refusal_keeps_its_rule_and_values_and_drops_the_rest():
    """The server's refusal reads as a local game's; odd values (a card this terminal does
    not know, a nested object, a bool) fall back to "not offered", never to a traceback."""
    from weathering_tui.tui.join import _refusal
    from weathering_tui.words import Tr, render_refusal

    tr = Tr("en")
    told = render_refusal(tr, _refusal("card_cost", {"card": "boycott#1", "cost": 4, "ap": 3}))
    assert told == f"{tr.card('boycott#1')} costs 4 PA and you have 3"
    offered = render_refusal(tr, _refusal("not_an_option", {}))
    for params in (
        {"card": "no_such_card#1", "cost": 4, "ap": 3},
        {"card": {"x": 1}, "cost": 4, "ap": 3},
        {"card": "boycott#1", "cost": True, "ap": 3},
        "params",
        None,
    ):
        assert render_refusal(tr, _refusal("card_cost", params)) == offered
    assert render_refusal(tr, _refusal("[b]made up[/b]", {})) == offered


def test_a_move_refused_at_a_table_is_explained_from_the_seats_own_view():
    """No round trip: another's turn says so (as the engine says it, never who reacts),
    one's own card names its rule; a spectator's key is another's decision."""
    from weathering_tui.bots import BOTS
    from weathering_tui.engine import SPECTATOR, apply, new_game, view_for
    from weathering_tui.engine import actions as act
    from weathering_tui.play.remote import why_not
    from weathering_tui.sim.simulate import setup_for

    state = new_game(setup_for("1v1", 3))
    bots = [BOTS["heuristic"](seed=i) for i in range(2)]
    while state.pending.kind != "turn":
        seat = state.pending.seat
        apply(state, bots[seat].choose(view_for(state, seat)))
    turn = state.pending.seat
    other = 1 - turn
    for viewer, seat in ((other, other), (SPECTATOR, turn)):
        refusal = why_not(view_for(state, viewer), act.EndTurn(seat))
        assert (refusal.code, refusal.params) == ("not_your_decision", {"waiting": "turn"})
    view = view_for(state, turn)  # (a card too dear: the pilot test above)
    refusal = why_not(view, act.PlayCard(turn, "no_such_card#9"))
    assert refusal.code == "card_not_in_hand"


async def test_the_creator_of_a_table_picks_their_side(tmp_path):
    """A 2v1 made by ann as the Lobbyiste: she sits at the Lobbyiste's seat (3), the
    table's human seat is that one, and the Écolos are bots."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path) as server:
        host = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
        async with host.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(host.screen, LobbyScreen))
            # 2v1, one human, the Lobbyiste's side, no hints, no code
            await pilot.press("n", "2", "1")
            await until(pilot, lambda: "Your side" in screen_text(host))
            await pilot.press("2", "1", "enter", "enter")
            await until(pilot, lambda: isinstance(host.screen, WaitingScreen))
            table = next(iter(server.tables.values()))
            await until(pilot, lambda: table.seats[2].owner == "ann")
            assert [s.owner for s in table.seats[:2]] == [None, None]
            assert table.game is None or table.game.setup.seats[2].human


async def test_a_player_whose_time_ran_out_reads_that_a_bot_plays_and_takes_the_seat_back(
    tmp_path,
):
    """A player who lets a decision's time run out is told on top of the screen; the
    footer says a bot plays for them and Enter takes the seat back (the recaps and
    dialogs of the bot's moves stay away meanwhile)."""
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, decision_time=1.0, pace=1.0) as server:
        app = JoinApp(lang="en", socket_path=path, identity="ann", name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.name)
            await pilot.press("n", "1", "1", "1", "1", "enter", "enter")  # 1v1, a bot opposite
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen))
            await pilot.press("s")
            table = next(iter(server.tables.values()))
            await until(pilot, lambda: app.session is not None and app.session.bot_plays, 100)
            assert table.seats[0].botted and table.seats[0].owner == "ann"
            told = lambda: [n.message for n in app._notifications]  # noqa: E731
            await until(pilot, lambda: any("You took too long to decide" in m for m in told()))
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            await until(pilot, lambda: "Enter: take your seat back" in screen_text(app))
            await pilot.press("enter")
            await until(pilot, lambda: not table.seats[0].botted)
            await until(pilot, lambda: any("Ann is back." in n[2] for n in app.session.notices))
            assert not app.session.bot_plays
            await until(pilot, lambda: "take your seat back" not in screen_text(app))
