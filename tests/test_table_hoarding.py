"""Tables cannot be hoarded: an unstarted table nobody else joined goes after
`serve --unstarted-expiry` (its creator is told), every identity of one network counts
towards that network's tables, no network holds more than its share of --max-tables,
and a refused table says which limit, and when one frees up, in the player's words."""

import asyncio

import pytest
from helpers import running_server
from test_net import answers, raw
from test_net_abuse import codes, door_player
from ui.test_join import until

from weathering_tui.net import protocol as pr
from weathering_tui.net import server_messages as msg
from weathering_tui.net.lobby_limits import TABLES_PER_CREATOR, TABLES_PER_ORIGIN
from weathering_tui.tui.join import JoinApp
from weathering_tui.tui.screens.lobby import LobbyScreen, expired_line, net_error
from weathering_tui.words import Tr

NETWORK = "192.0.2.0/24"


def refusal(messages) -> dict:
    errors = [m for m in messages if m.get("type") == "error"]
    assert len(errors) == 1, messages
    return errors[0]


async def test_an_unstarted_table_nobody_joined_goes_and_its_creator_is_told(tmp_path):
    async with running_server(tmp_path, unstarted_expiry=0.5) as server:
        host_r, host_w = await raw(server.socket_path, "host")
        host_w.write(pr.client_line(pr.CreateTable("lonely", "1v1", (0, 1))))
        host_w.write(pr.client_line(pr.TakeSeat("lonely", 0)))
        await answers(host_r, "seated")
        host_w.write(pr.client_line(pr.Leave("lonely")))  # back in the lobby: told there
        pair_r, pair_w = await raw(server.socket_path, "pair")  # someone else sits down
        pair_w.write(pr.client_line(pr.CreateTable("met", "1v1", (0, 1))))
        pair_w.write(pr.client_line(pr.TakeSeat("met", 0)))
        await answers(pair_r, "seated")
        guest_r, guest_w = await raw(server.socket_path, "guest")
        guest_w.write(pr.client_line(pr.TakeSeat("met", 1)))
        await answers(guest_r, "seated")
        guest_w.write(pr.client_line(pr.Leave("met")))  # joined once: it keeps its hour
        solo_r, solo_w = await raw(server.socket_path, "solo")  # started alone: it plays on
        solo_w.write(pr.client_line(pr.CreateTable("solo", "1v1", (0,))))
        solo_w.write(pr.client_line(pr.TakeSeat("solo", 0)))
        solo_w.write(pr.client_line(pr.Start("solo")))
        await answers(solo_r, "view")
        watcher_r, _ = await raw(server.socket_path, "watcher")

        told = [m for m in await answers(host_r, "notice", timeout=3) if m["type"] == "notice"]
        assert [(m["kind"], m["table"]) for m in told] == [("expired", "lonely")], told
        assert told[0]["text"] == "1"  # the seconds it waited (0.5, rounded up)
        assert "lonely" not in server.tables
        await asyncio.sleep(0.6)  # more than the expiry again: the others stay
        assert {"met", "solo"} <= set(server.tables)
        lobbies = [m for m in await answers(watcher_r, timeout=0.5) if m["type"] == "tables"]
        assert lobbies and {t["name"] for t in lobbies[-1]["tables"]} == {"met", "solo"}
        host_w.write(pr.client_line(pr.CreateTable("again", "1v1", (0, 1))))
        assert codes(await answers(host_r, "created")) == []  # its count went with it


async def test_one_network_holds_no_more_than_its_share_of_the_servers_tables(tmp_path):
    """With --max-tables 16 a quarter is 4, below the network's own cap of 6: four keys
    from one network (one table started) fill its share; a fifth key is refused, with
    the share named and when the first of its waiting tables goes."""
    async with running_server(tmp_path, max_tables=16) as server:
        assert server.lobby.limits.origin_most() == (4, "share") and TABLES_PER_ORIGIN > 4
        for n in range(4):
            reader, writer = await door_player(server.socket_path, f"k{n}", NETWORK)
            writer.write(pr.client_line(pr.CreateTable(f"t{n}", "1v1", (0,))))
            if n == 0:
                writer.write(pr.client_line(pr.TakeSeat("t0", 0)))
                writer.write(pr.client_line(pr.Start("t0")))
            assert codes(await answers(reader, "view" if n == 0 else "created")) == []
        assert server.tables["t0"].started
        reader, writer = await door_player(server.socket_path, "fresh", NETWORK)
        writer.write(pr.client_line(pr.CreateTable("one-more", "1v1", (0, 1))))
        error = refusal(await answers(reader, "error"))
        assert error["code"] == "full"
        params = error["params"]
        assert (params["reason"], params["most"], params["max"]) == ("share", 4, 16)
        assert 290 <= params["wait"] <= 300  # t1, the first waiting one, goes in 5 minutes
        assert "one-more" not in server.tables
        reader, writer = await door_player(server.socket_path, "elsewhere", "198.51.100.0/24")
        writer.write(pr.client_line(pr.CreateTable("theirs", "1v1", (0, 1))))
        assert codes(await answers(reader, "created")) == []  # another network plays on


async def test_a_networks_tables_still_count_after_a_restart(tmp_path):
    """A table's origin is kept with it while unfinished: a restart gives the network
    no new tables (it was counted by creator alone)."""
    async with running_server(tmp_path, max_tables=16) as server:
        for n in range(4):
            reader, writer = await door_player(server.socket_path, f"k{n}", NETWORK)
            writer.write(pr.client_line(pr.CreateTable(f"t{n}", "1v1", (0,))))
            writer.write(pr.client_line(pr.TakeSeat(f"t{n}", 0)))
            writer.write(pr.client_line(pr.Start(f"t{n}")))
            assert codes(await answers(reader, "view")) == []
            writer.close()
    async with running_server(tmp_path, max_tables=16) as server:
        assert {t.origin for t in server.tables.values()} == {NETWORK}
        reader, writer = await door_player(server.socket_path, "fresh", NETWORK)
        writer.write(pr.client_line(pr.CreateTable("one-more", "1v1", (0, 1))))
        params = refusal(await answers(reader, "error"))["params"]
        assert params["reason"] == "share" and "wait" not in params  # all four started
        writer.close()


async def test_a_big_server_keeps_the_networks_own_cap():
    from weathering_tui.net.server import Server

    assert Server("unused", max_tables=50).lobby.limits.origin_most() == (
        TABLES_PER_ORIGIN,
        "origin",
    )
    assert Server("unused", max_tables=4).lobby.limits.origin_most() == (
        TABLES_PER_CREATOR,
        "share",
    )


async def test_the_lobby_says_in_words_why_a_table_is_refused(tmp_path):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path):
        reader, writer = await raw(path, "me")
        for n in range(TABLES_PER_CREATOR):
            writer.write(pr.client_line(pr.CreateTable(f"mine{n}", "1v1", (0, 1))))
            await answers(reader, "created")
        app = JoinApp(lang="en", socket_path=path, identity="me", name="Me")
        async with app.run_test(size=(100, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.tables)
            await pilot.press(
                "n", "1", "1", "1", "1", "enter", "enter"
            )  # a 1v1, one human, no code
            said = "No new table: you have 3 unfinished, the most one player may; your "
            said += "first waiting one closes in 5 min unless its players come."
            await until(pilot, lambda: any(n.message == said for n in app._notifications))
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.pause(0.5)
            told = [n.message for n in app._notifications]
            assert told == [said], told  # one sentence: not "no such table" after it
            assert app.client.seats == {}
        writer.close()


async def test_a_creator_waiting_alone_is_told_the_table_closed_and_is_back_in_the_lobby(
    tmp_path,
):
    path = tmp_path / "s.sock"
    async with running_server(tmp_path, unstarted_expiry=0.5) as server:
        app = JoinApp(lang="en", socket_path=path, identity="me", name="Me")
        async with app.run_test(size=(100, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.client.name)
            await pilot.press("n", "1", "2", "1", "1", "enter", "enter")  # a 1v1 for two humans
            await until(pilot, lambda: "Me-1v1" in app.client.seats)
            said = "Table Me-1v1 is closed: nobody joined it within 1 s."
            await until(pilot, lambda: any(n.message == said for n in app._notifications))
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert app.client.seats == {} and "Me-1v1" not in server.tables


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("reason", ["server", "creator", "origin", "share"])
def test_every_refusal_reads_as_one_sentence_with_its_numbers(lang, reason):
    tr = Tr(lang)
    params = {"reason": reason, "most": 4, "max": 16, "table": "t"}
    plain = net_error(tr, msg.ErrorMessage("full", "x", params))
    waiting = net_error(tr, msg.ErrorMessage("full", "x", {**params, "wait": 61}))
    assert "4" in plain and "2 min" not in plain and plain != tr("net.full")
    assert "4" in waiting and "2 min" in waiting
    assert ("16" in plain) == (reason == "share")
    broken = msg.ErrorMessage("full", "x", {"reason": reason, "most": "many"})
    assert net_error(tr, broken) == tr("net.full")  # a refusal without its numbers


def test_an_expired_table_is_named_with_how_long_it_waited():
    message = msg.Notice("den", "expired", "", 0, text="300")
    assert expired_line(Tr("en"), message) == "Table den is closed: nobody joined it within 5 min."
    assert "5 min" in expired_line(Tr("fr"), message)
