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
    server.push(table)


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
