"""Reaction windows at a table server: every seat asked at once, a public countdown,
answers applied in seat order, and every message the same whatever a seat holds
(network.md Fairness; rules-reference §8.3)."""

import asyncio
import time

from helpers import find, running_server, set_hand, turn_of
from test_net import answers, raw

from weathering_tui.bots import pacing
from weathering_tui.engine import actions as act
from weathering_tui.net import protocol as pr


async def table_of(server, humans: dict[int, str], config="2v2", spectator=True):
    """A started table "w" whose `humans` (seat -> identity) sit on raw connections;
    the other seats are bots. Returns the server's table and each identity's link."""
    path = server.socket_path
    links = {name: await raw(path, name) for name in humans.values()}
    first = next(iter(humans.values()))
    links[first][1].write(
        pr.client_line(pr.CreateTable("w", config, tuple(humans), seed=1, events=False))
    )
    await answers(links[first][0], "created")
    for seat, name in humans.items():
        links[name][1].write(pr.client_line(pr.TakeSeat("w", seat)))
        await answers(links[name][0], "seated")
    if spectator:
        links["eve"] = await raw(path, "eve")
    links[first][1].write(pr.client_line(pr.Start("w")))
    if spectator:
        links["eve"][1].write(pr.client_line(pr.Spectate("w")))
    await asyncio.sleep(0.3)
    for reader, _ in links.values():
        await answers(reader, timeout=0.2)
    return server.tables["w"], links


def ready(server, table, seat: int, hands: dict[int, tuple]) -> None:
    """`seat` to play its turn now, with these hands and PA to pay any cancel."""
    state = table.game.state
    while state.pending.kind == "mulligan":  # everyone keeps their hand
        table.game.play(act.ChooseCard(state.pending.seat, None))
    for other, cards in hands.items():
        set_hand(state, other, *cards)
        state.players[other].ap = 5
    turn_of(state, seat, ap=5)
    state.version += 1
    server.lobby.driver(table.name).show()


def send(links, name, table, action) -> None:
    version = table.game.state.version
    links[name][1].write(pr.client_line(pr.Act("w", version, pr.action_data(action))))


def views(messages):
    return [m for m in messages if m["type"] == "view"]


async def test_the_window_asks_every_opponent_at_once_and_applies_seat_order(tmp_path):
    async with running_server(tmp_path, pace=30) as server:
        table, links = await table_of(server, {0: "ann", 2: "bob", 3: "cy"})
        boycott = ("boycott", "potager_partage")
        ready(server, table, 0, {0: ("troc",), 2: boycott, 3: boycott})
        for reader, _ in links.values():
            await answers(reader, timeout=0.2)
        state = table.game.state
        start = time.monotonic()
        send(links, "ann", table, act.Draw(0))
        shown = {name: views(await answers(links[name][0], "view")) for name in links}
        for name, seat in (("bob", 2), ("cy", 3)):  # both asked, neither waits its turn
            pending = shown[name][-1]["view"]["pending"]
            assert (pending["kind"], pending["seat"]) == ("react", seat)
            assert 0 < shown[name][-1]["window"] <= pacing.REACTION_SECONDS
        for name in ("ann", "eve"):  # the others: reactions, nobody named, the same time
            assert shown[name][-1]["view"]["pending"]["kind"] == "reactions"
            assert shown[name][-1]["view"]["pending"]["seat"] == -1
            assert shown[name][-1]["window"] > 0
        send(links, "cy", table, act.Cancel(3, find(state, 3, "boycott")))  # cy first
        mine = views(await answers(links["cy"][0], "view"))
        assert mine[-1]["view"]["pending"]["kind"] == "reactions"  # answered: no prompt
        assert await answers(links["ann"][0], timeout=0.3) == []  # bob, before cy, is asked
        send(links, "bob", table, act.Cancel(2, find(state, 2, "boycott")))
        after = views(await answers(links["ann"][0], "view"))
        assert time.monotonic() - start < pacing.REACTION_SECONDS  # all answered: closed
        cancels = [e.data["seat"] for e in state.log if e.kind == "cancel"]
        assert cancels == [2]  # bob comes first after ann in seat order
        assert after[-1]["view"]["pending"]["kind"] == "turn" and after[-1]["window"] == 0
        assert len(state.players[3].hand) == 2  # cy's Boycott was not spent


async def test_nobody_presses_anything_the_action_happens_when_the_time_is_up(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(pacing, "REACTION_SECONDS", 0.6)
    async with running_server(tmp_path, pace=30) as server:
        table, links = await table_of(server, {0: "ann", 2: "bob"}, spectator=False)
        ready(server, table, 0, {0: ("troc",), 2: ("boycott", "troc")})
        for reader, _ in links.values():
            await answers(reader, timeout=0.2)
        state = table.game.state
        hand = len(state.players[0].hand)
        send(links, "ann", table, act.Draw(0))
        await answers(links["ann"][0], "view")  # the window opens
        start = time.monotonic()
        later = views(await answers(links["ann"][0], "view", timeout=3))
        assert 0.3 < time.monotonic() - start < 2.5
        assert later[-1]["view"]["pending"]["kind"] == "turn"
        assert len(state.players[0].hand) == hand + 1  # the draw resolved
        assert not [e for e in state.log if e.kind == "cancel"]
        assert table.game.actions[-1] == act.Pass(2)  # bob let it happen, by the clock


async def test_a_seat_that_publicly_cannot_cancel_is_not_waited_for(tmp_path):
    """bob has 0 PA: no card or power of his could pay a cancel, as everyone sees. The
    window lets the draw happen at once, with no prompt for him and no clock."""
    async with running_server(tmp_path, pace=30) as server:
        table, links = await table_of(server, {0: "ann", 2: "bob"}, spectator=False)
        ready(server, table, 0, {0: ("troc",), 2: ("boycott", "troc")})
        state = table.game.state
        state.players[2].ap = 0
        state.players[3].ap = 0  # (the bot, too: no window at all)
        for reader, _ in links.values():
            await answers(reader, timeout=0.2)
        hand = len(state.players[0].hand)
        start = time.monotonic()
        send(links, "ann", table, act.Draw(0))
        seen = views(await answers(links["bob"][0], "view", timeout=2))
        assert time.monotonic() - start < pacing.REACTION_SECONDS / 2
        assert all(m["view"]["pending"]["kind"] != "react" for m in seen)
        assert len(state.players[0].hand) == hand + 1  # the draw resolved
        assert table.game.actions[-1] in (act.Pass(2), act.Pass(3))


async def world(tmp_path, bot_holds_cancel: bool) -> dict[str, list]:
    """ann plays a card that is not worth a cancel; bob lets it happen; the bot at seat
    3, the last of the window, holds a Boycott or not. What each connection got."""
    async with running_server(tmp_path / str(bot_holds_cancel), pace=30) as server:
        table, links = await table_of(server, {0: "ann", 2: "bob"})
        bot = ("boycott", "betonisation") if bot_holds_cancel else ("greenwashing", "betonisation")
        hands = {0: ("potager_partage", "zero_dechet"), 2: ("troc", "entraide"), 3: bot}
        ready(server, table, 0, hands)
        got = {}
        for name, (reader, _) in links.items():
            got[name] = await answers(reader, timeout=0.2)
        state = table.game.state
        send(links, "ann", table, act.PlayCard(0, find(state, 0, "potager_partage"), 0))
        asked = await answers(links["bob"][0], "view")
        send(links, "bob", table, act.Pass(2))
        await asyncio.sleep(0.5)
        for name, (reader, _) in links.items():
            got[name] += asked if name == "bob" else []
            got[name] += await answers(reader, timeout=0.3)
        assert [e for e in state.log if e.kind == "heal"]  # the card resolved: no cancel
        asked_bot = act.Pass(3) in table.game.actions
        assert asked_bot == bot_holds_cancel  # the bot was asked in one world only
        for messages in got.values():
            for m in messages:
                m.pop("window", None) if m.get("window", 0) == 0 else m.update(window=True)
        return got


async def test_every_message_each_seat_gets_is_the_same_whatever_a_bot_holds(tmp_path):
    """The comparison includes the reaction window's own messages: a "reactions" view
    that named who is asked, or a window that lasted longer for a bot that can cancel,
    would differ here."""
    holding, empty = await world(tmp_path, True), await world(tmp_path, False)
    for name in ("ann", "bob", "eve"):
        assert holding[name] == empty[name], name
    assert any(m.get("window") for m in holding["eve"])  # the window was shown


async def test_an_action_for_another_seat_is_refused_and_changes_nothing(tmp_path):
    async with running_server(tmp_path, pace=30) as server:
        table, links = await table_of(server, {0: "ann", 2: "bob"}, spectator=False)
        ready(server, table, 0, {})
        for reader, _ in links.values():
            await answers(reader, timeout=0.2)
        before = list(table.game.actions)
        send(links, "bob", table, act.Draw(0))  # bob acting in ann's name
        got = await answers(links["bob"][0], "error")
        assert got[-1]["code"] == "wrong_seat"
        assert table.game.actions == before


class AlwaysCancels:
    """A bot that cancels whenever it can."""

    name = "always-cancels"

    def choose(self, view):
        cancels = [a for a in view.legal if isinstance(a, act.Cancel)]
        return (cancels or list(view.legal))[0]


async def test_a_bot_after_a_silent_player_still_decides_when_the_time_is_up(tmp_path, monkeypatch):
    monkeypatch.setattr(pacing, "REACTION_SECONDS", 0.5)
    async with running_server(tmp_path, pace=30) as server:
        table, links = await table_of(server, {0: "ann", 2: "bob"}, spectator=False)
        ready(server, table, 0, {0: ("troc",), 2: ("troc",), 3: ("boycott", "entraide")})
        table.bots[3] = AlwaysCancels()
        for reader, _ in links.values():
            await answers(reader, timeout=0.2)
        send(links, "ann", table, act.Draw(0))
        await asyncio.sleep(1.2)  # bob says nothing: his time runs out, not the bot's
        assert [e.data["seat"] for e in table.game.state.log if e.kind == "cancel"] == [3]


async def test_a_window_reopened_by_a_restart_waits_for_its_players_then_its_clock_runs(
    tmp_path, monkeypatch
):
    from weathering_tui.net.server import Server

    monkeypatch.setattr(pacing, "REACTION_SECONDS", 0.5)
    server = Server(tmp_path / "saves", tmp_path / "s.sock", pace=30, grace=30)
    await server.start()
    table, links = await table_of(server, {0: "ann", 2: "bob"}, spectator=False)
    state = table.game.state
    while state.pending.kind == "mulligan":  # real moves only: the save must replay
        table.game.play(act.ChooseCard(state.pending.seat, None))
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    server.lobby.driver(table.name).commit()
    await asyncio.sleep(0.2)
    send(links, "ann", table, act.Draw(0))
    await answers(links["bob"][0], "view")
    assert state.pending.kind == "react"
    for _, writer in links.values():
        writer.close()
    await server.stop()
    actions = len(table.game.actions)
    await asyncio.sleep(1.0)  # the stopped server's clock does nothing after its stop
    assert len(table.game.actions) == actions
    again = Server(tmp_path / "saves", tmp_path / "s.sock", pace=30, grace=30)
    await again.start()
    try:
        reopened = again.tables["w"]
        await asyncio.sleep(1.0)  # everyone is away: no clock runs out on them
        assert reopened.game.state.pending.kind == "react"
        assert again.lobby.driver(reopened.name).window_left() == 0
        bob = await raw(again.socket_path, "bob")
        bob[1].write(pr.client_line(pr.TakeSeat("w", 2)))
        shown = views(await answers(bob[0], "view"))
        assert shown[-1]["view"]["pending"]["kind"] == "react"  # asked again, on time
        assert 0 < shown[-1]["window"] <= 0.5
        later = views(await answers(bob[0], "view", timeout=2))
        assert later[-1]["view"]["pending"]["kind"] != "react"  # and the clock ran
    finally:
        await again.stop()


async def test_a_finished_tables_window_answers_are_refused_plainly(tmp_path):
    async with running_server(tmp_path, pace=30) as server:
        table, links = await table_of(server, {0: "ann", 2: "bob"}, spectator=False)
        ready(server, table, 0, {})
        table.game.state.stage = "over"
        table.game.state.pending = None
        send(links, "bob", table, act.Pass(2))
        got = await answers(links["bob"][0], "error")
        assert (got[-1]["code"], got[-1]["message"]) == ("illegal", "game_over")


async def ann_draws_in_3v2(server, humans: dict, watcher: str):
    """A 3v2 where every Écolo holds Boycott (a cancel) and PA to pay it: ann, the first
    Lobbyiste, draws and its window opens; returns once `watcher` has the view of it."""
    table, links = await table_of(server, humans, config="3v2", spectator=False)
    boycott = ("boycott",)
    ready(server, table, 3, {3: ("troc",), 0: boycott, 1: boycott, 2: boycott})
    for reader, _ in links.values():
        await answers(reader, timeout=0.2)
    send(links, "ann", table, act.Draw(3))
    await answers(links[watcher][0], "view")
    return table, links


async def test_a_seat_asked_gets_one_refusal_whatever_was_applied_since(tmp_path):
    """A second answer must not tell whether the seats before it have answered."""
    codes = []
    humans = {3: "ann", 0: "bob", 1: "cy", 2: "dan"}  # ann (Lobbyiste) acts; dan stays silent
    for earlier_answers in (False, True):
        async with running_server(tmp_path / str(earlier_answers), pace=30) as server:
            table, links = await ann_draws_in_3v2(server, humans, "cy")
            if earlier_answers:  # bob, before cy in seat order
                send(links, "bob", table, act.Pass(0))
                await asyncio.sleep(0.1)
            send(links, "cy", table, act.Pass(1))
            await asyncio.sleep(0.1)
            send(links, "cy", table, act.Pass(1))  # again, while dan keeps the window open
            got = [m for m in await answers(links["cy"][0], timeout=0.5) if m["type"] == "error"]
            codes.append([(m["code"], m["message"]) for m in got])
            assert table.game.state.pending.kind == "react"
    assert codes[0] == codes[1] == [("illegal", "not_an_option")], codes


async def test_a_seat_the_window_does_not_ask_is_told_it_is_not_its_decision(tmp_path):
    """The actor answering its own window is told the table waits on a reaction, not
    that its answer was a wrong option: it was never asked."""
    humans = {3: "ann", 0: "bob", 1: "cy", 2: "dan"}
    async with running_server(tmp_path, pace=30) as server:
        table, links = await ann_draws_in_3v2(server, humans, "ann")
        assert table.game.state.pending.kind == "react"
        send(links, "ann", table, act.Pass(3))
        got = [m for m in await answers(links["ann"][0], timeout=0.5) if m["type"] == "error"]
        assert [(m["code"], m["message"], m.get("params")) for m in got] == [
            ("illegal", "not_your_decision", {"waiting": "react"})
        ]
        assert table.game.state.pending.kind == "react"
