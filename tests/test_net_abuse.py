"""What a hostile player tried, and the server's answer to each: tables hoarded, a
coded table watched without its code, codes guessed with many identities, chat from
many sockets, the lobby asked for in a loop, a table of bots alone."""

import asyncio
import json

import pytest
from helpers import running_server
from test_net import answers, raw
from test_server_limits import DAEMON, as_root, in_child, shared_folder

from weathering_tui.net import protocol as pr
from weathering_tui.net.lobby_limits import (
    ALL_CODES,
    TABLE_CODES,
    TABLES_PER_CREATOR,
    TABLES_PER_ORIGIN,
)
from weathering_tui.net.table_summary import table_summary


def codes(messages) -> list:
    return [m.get("code") for m in messages if m.get("type") == "error"]


async def test_tables_per_creator_count_started_ones_too(tmp_path):
    async with running_server(tmp_path) as server:
        reader, writer = await raw(server.socket_path, "hoarder")
        for n in range(TABLES_PER_CREATOR):
            writer.write(pr.client_line(pr.CreateTable(f"t{n}", "1v1", (0,))))
            writer.write(pr.client_line(pr.TakeSeat(f"t{n}", 0)))
            writer.write(pr.client_line(pr.Start(f"t{n}")))
            await answers(reader, "view")
        assert all(t.started for t in server.tables.values())
        writer.write(pr.client_line(pr.CreateTable("one-more", "1v1", (0,))))
        assert "full" in codes(await answers(reader, "error"))
        assert "one-more" not in server.tables


async def door_player(path, key: str, origin: str):
    """What the SSH door's join says for a player: their key, and their network."""
    reader, writer = await asyncio.open_unix_connection(str(path))
    hello = pr.Hello(pr.PROTOCOL, "join", identity=f"ssh:{key}", name=key, origin=origin)
    writer.write(pr.client_line(hello))
    await reader.readline()  # welcome
    return reader, writer


async def test_fresh_ssh_keys_from_one_network_share_its_tables(tmp_path):
    """A hostile review made 50 tables (the server's cap) with 17 throwaway keys, each
    making 3: a legitimate player got "full" for an hour. Tables count per network too."""
    async with running_server(tmp_path) as server:
        made = []
        for n in range(TABLES_PER_ORIGIN):  # three keys, two tables each
            reader, writer = await door_player(server.socket_path, f"k{n // 2}", "192.0.2.0/24")
            writer.write(pr.client_line(pr.CreateTable(f"t{n}", "1v1", (0, 1))))
            made.append((reader, writer))
            assert codes(await answers(reader, "created")) == []
        reader, writer = await door_player(server.socket_path, "fresh", "192.0.2.0/24")
        writer.write(pr.client_line(pr.CreateTable("one-more", "1v1", (0, 1))))
        assert "full" in codes(await answers(reader, "error"))
        assert "one-more" not in server.tables
        reader, writer = await door_player(server.socket_path, "elsewhere", "198.51.100.0/24")
        writer.write(pr.client_line(pr.CreateTable("theirs", "1v1", (0, 1))))
        assert codes(await answers(reader, "created")) == []  # another network plays on
        assert "theirs" in server.tables


def claims_an_origin(path, uid, out):
    """Another user says it comes from a network (as the door's join does) and makes a
    table: it is counted as itself, never as that network."""
    import socket

    from test_server_limits import become

    become(uid)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(path)
        sock.settimeout(3)
        sock.sendall(pr.client_line(pr.Hello(pr.PROTOCOL, "x", origin="192.0.2.0/24")))
        sock.sendall(pr.client_line(pr.CreateTable("theirs", "1v1", (0, 1))))
        lines = sock.makefile("rb")
        out.send([json.loads(lines.readline()).get("type"), json.loads(lines.readline())])


@as_root
async def test_an_origin_is_heard_from_the_servers_own_user_only():
    folder = shared_folder()
    async with running_server(folder) as server:
        server.socket_path.chmod(0o666)
        for n in range(TABLES_PER_ORIGIN):  # the door's players from one network: its share
            reader, writer = await door_player(server.socket_path, f"k{n}", "192.0.2.0/24")
            writer.write(pr.client_line(pr.CreateTable(f"t{n}", "1v1", (0, 1))))
            assert codes(await answers(reader, "created")) == []
        welcome, answer = await in_child(claims_an_origin, str(server.socket_path), DAEMON)
    assert welcome == "welcome" and answer["type"] == "created", answer
    assert server.tables["theirs"].origin != "192.0.2.0/24"


def bots_only(path, uid, out):
    import socket

    from test_server_limits import become

    become(uid)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(path)
        sock.settimeout(3)
        sock.sendall(pr.client_line(pr.Hello(pr.PROTOCOL, "x")))
        sock.sendall(pr.client_line(pr.CreateTable("bots", "3v2", (), bots="expert")))
        lines = sock.makefile("rb")
        out.send([json.loads(lines.readline()).get("type"), json.loads(lines.readline())])


@as_root
async def test_a_stranger_cannot_make_a_table_of_bots_alone():
    folder = shared_folder()
    async with running_server(folder) as server:
        server.socket_path.chmod(0o666)
        welcome, answer = await in_child(bots_only, str(server.socket_path), DAEMON)
    assert welcome == "welcome" and answer["code"] == "bad_seat"
    assert not server.tables


async def test_a_coded_table_is_watched_only_with_its_code(tmp_path):
    async with running_server(tmp_path) as server:
        owner_r, owner_w = await raw(server.socket_path, "owner")
        owner_w.write(pr.client_line(pr.CreateTable("secret", "1v1", (0, 1), code="k3y")))
        owner_w.write(pr.client_line(pr.TakeSeat("secret", 0, "k3y")))
        await answers(owner_r, "seated")
        eye_r, eye_w = await raw(server.socket_path, "eye")
        eye_w.write(pr.client_line(pr.Spectate("secret")))
        assert codes(await answers(eye_r, "error")) == ["bad_code"]
        eye_w.write(pr.client_line(pr.Spectate("secret", "k3y")))
        assert "watching" in [m["type"] for m in await answers(eye_r, "watching")]


async def test_many_identities_guessing_one_code_are_stopped_by_their_network(tmp_path):
    """Fresh SSH keys from one network guessing a table's code are stopped together,
    and the right code from another network still seats its player: counted from
    everyone, 20 wrong codes a minute kept the invited players out (a hostile review)."""
    async with running_server(tmp_path) as server:
        owner_r, owner_w = await raw(server.socket_path, "owner")
        owner_w.write(pr.client_line(pr.CreateTable("secret", "2v2", (0, 1, 2), code="k3y")))
        owner_w.write(pr.client_line(pr.TakeSeat("secret", 0, "k3y")))
        await answers(owner_r, "seated")
        refusals = []
        for n in range(TABLE_CODES + 1):  # a new identity (a new SSH key) each time
            reader, writer = await door_player(server.socket_path, f"guess{n}", "192.0.2.0/24")
            writer.write(pr.client_line(pr.TakeSeat("secret", 1, f"guess{n}")))
            refusals.append(json.loads(await reader.readline())["message"])
            writer.close()
        assert "too many wrong codes" not in refusals[0]
        assert "too many wrong codes" in refusals[-1]
        reader, writer = await door_player(server.socket_path, "late", "192.0.2.0/24")
        writer.write(pr.client_line(pr.TakeSeat("secret", 1, "k3y")))  # that network: no
        assert "too many" in json.loads(await reader.readline())["message"]
        reader, writer = await door_player(server.socket_path, "friend", "198.51.100.0/24")
        writer.write(pr.client_line(pr.TakeSeat("secret", 1, "k3y")))  # another: seated
        assert json.loads(await reader.readline())["type"] == "seated"


async def test_guesses_from_everyone_together_close_the_table_s_code_for_a_minute(tmp_path):
    async with running_server(tmp_path) as server:
        owner_r, owner_w = await raw(server.socket_path, "owner")
        owner_w.write(pr.client_line(pr.CreateTable("secret", "2v2", (0, 1, 2), code="k3y")))
        owner_w.write(pr.client_line(pr.TakeSeat("secret", 0, "k3y")))
        await answers(owner_r, "seated")
        for n in range(ALL_CODES):  # five networks, each at its limit
            net = f"203.0.{n // TABLE_CODES}.0/24"
            reader, writer = await door_player(server.socket_path, f"g{n}", net)
            writer.write(pr.client_line(pr.TakeSeat("secret", 1, f"guess{n}")))
            assert "needs its join code" in json.loads(await reader.readline())["message"]
            writer.close()
        reader, writer = await door_player(server.socket_path, "friend", "198.51.100.0/24")
        writer.write(pr.client_line(pr.TakeSeat("secret", 1, "k3y")))
        assert "too many" in json.loads(await reader.readline())["message"]


async def test_chat_is_limited_per_identity_not_per_socket(tmp_path):
    async with running_server(tmp_path) as server:
        first_r, first_w = await raw(server.socket_path, "talker")
        first_w.write(pr.client_line(pr.CreateTable("den", "1v1", (0, 1))))
        first_w.write(pr.client_line(pr.TakeSeat("den", 0)))
        await answers(first_r, "seated")
        others = [await raw(server.socket_path, "talker") for _ in range(4)]
        for _, writer in others:
            writer.write(pr.client_line(pr.Spectate("den")))
        for reader, _ in others:
            await answers(reader, "watching")
        first_w.write(pr.client_line(pr.Chat("den", "one")))
        for _, writer in others:
            writer.write(pr.client_line(pr.Chat("den", "more")))
        got = await answers(first_r, timeout=0.5)
        assert [m["text"] for m in got if m.get("kind") == "chat"] == ["one"]


async def test_the_lobby_asked_in_a_loop_is_answered_at_a_pace(tmp_path):
    async with running_server(tmp_path) as server:
        reader, writer = await raw(server.socket_path, "looper")
        await answers(reader, timeout=0.6)
        for _ in range(40):
            writer.write(pr.client_line(pr.ListTables()))
        await asyncio.sleep(0.3)
        got = await answers(reader, timeout=0.6)
        assert 1 <= sum(m["type"] == "tables" for m in got) <= 2
        assert not codes(got)  # asked too often is not an error: answered together


async def test_seats_taken_and_left_in_a_loop_send_the_lobby_at_a_pace(tmp_path):
    """Every seat taken or left changes the lobby; one player doing it in a loop must not
    send each lobby client a whole lobby every time (8 MB/s measured), and the last
    lobby sent is the lobby as it is."""
    async with running_server(tmp_path) as server:
        watcher_r, _watcher_w = await raw(server.socket_path, "watcher")
        reader, writer = await raw(server.socket_path, "churner")
        writer.write(pr.client_line(pr.CreateTable("spin", "1v1", (0, 1))))
        await answers(reader, "created")
        await answers(watcher_r, timeout=0.6)
        for n in range(40):
            writer.write(pr.client_line(pr.TakeSeat("spin", n % 2)))
            writer.write(pr.client_line(pr.Leave("spin")))
            await asyncio.sleep(0.01)
        writer.write(pr.client_line(pr.TakeSeat("spin", 1)))
        got = [m for m in await answers(watcher_r, timeout=1.0) if m["type"] == "tables"]
        assert 1 <= len(got) <= 8  # ~1 s of churn: about one lobby every 0.2 s
        (last,) = [t for t in got[-1]["tables"] if t["name"] == "spin"]
        assert server.tables["spin"].seats[1].owner is not None
        assert json.dumps(last) == json.dumps(table_summary(server.tables["spin"], 0))


async def test_leaving_and_taking_a_seat_back_in_a_loop_tells_the_table_at_a_pace(tmp_path):
    """Each seat left and taken back is a notice in every other player's log: a loop of
    them sent 50 of each a second, around the chat's one line a second (a hostile
    review). A seat is taken back once a second per identity."""
    async with running_server(tmp_path, grace=60.0) as server:
        ann_r, ann_w = await raw(server.socket_path, "ann")
        ann_w.write(pr.client_line(pr.CreateTable("t", "1v1", (0, 1), start_when_full=True)))
        ann_w.write(pr.client_line(pr.TakeSeat("t", 0)))
        await answers(ann_r, "seated")
        bob_r, bob_w = await raw(server.socket_path, "bob")
        bob_w.write(pr.client_line(pr.TakeSeat("t", 1)))
        await answers(bob_r, "view")
        await answers(ann_r, timeout=0.3)
        bob_heard = asyncio.create_task(answers(bob_r, timeout=1.5))  # read as a client does
        started = asyncio.get_running_loop().time()
        for _ in range(40):
            bob_w.write(pr.client_line(pr.Leave("t")))
            bob_w.write(pr.client_line(pr.TakeSeat("t", 1)))
            await asyncio.sleep(0.02)
        spent = asyncio.get_running_loop().time() - started
        heard = await answers(ann_r, timeout=0.5)
        backs = [m for m in heard if m["type"] == "notice" and m["kind"] == "back"]
        assert 1 <= len(backs) <= spent + 1, (len(backs), spent)
        refused = [m for m in await bob_heard if m["type"] == "error"]
        assert refused and {m["code"] for m in refused} == {"rate_limited"}


@pytest.mark.serial  # its waits are measured: run alone
async def test_expert_bots_thinking_at_many_tables_leave_the_server_quick(tmp_path):
    """Expert bots think in a process of their own: hellos are answered at once while
    twelve tables of them play (in threads they held the interpreter lock: seconds)."""
    import time

    async with running_server(tmp_path) as server:
        for n in range(12):
            reader, writer = await raw(server.socket_path, f"host{n // 3}")
            writer.write(pr.client_line(pr.CreateTable(f"x{n}", "3v2", (), bots="expert")))
            writer.write(pr.client_line(pr.Start(f"x{n}")))
            await answers(reader, "view", timeout=0.5)
        await asyncio.sleep(1.5)  # the worker is up and thinking
        waits = []
        for _ in range(20):
            start = time.perf_counter()
            r, w = await raw(server.socket_path, "probe")
            waits.append(time.perf_counter() - start)
            w.close()
            await asyncio.sleep(0.1)
        moved = sum(len(t.game.actions) for t in server.tables.values())
        print(f"hello with 12 expert tables: worst {max(waits) * 1000:.1f} ms; {moved} actions")
        assert moved > 0
        assert max(waits) < 0.25, waits


async def test_a_join_code_is_read_as_the_table_s_was_when_it_was_made(tmp_path):
    """A code made with two spaces was kept with one and compared raw: typed exactly as
    its creator chose it, it was refused, and counted as a wrong guess (a hostile review)."""
    async with running_server(tmp_path) as server:
        owner_r, owner_w = await raw(server.socket_path, "owner")
        owner_w.write(pr.client_line(pr.CreateTable("club", "2v1", (0, 1), code="open  sesame")))
        owner_w.write(pr.client_line(pr.TakeSeat("club", 0, "open  sesame")))
        assert "seated" in [m["type"] for m in await answers(owner_r, "seated")]
        friend_r, friend_w = await raw(server.socket_path, "friend")
        friend_w.write(pr.client_line(pr.Spectate("club", "open  sesame")))
        assert "watching" in [m["type"] for m in await answers(friend_r, "watching")]
