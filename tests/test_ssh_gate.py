"""The SSH door's counts, from the TCP accept: every connection (logged in or not) per
network and in all, the ones not logged in yet, random early drop, and a logged-in
connection that opens no session closed (a hostile review held 1012 such connections
with one key and ran the server out of descriptors)."""

import asyncio
import contextlib
import random

import asyncssh
import pytest

from weathering_tui.net import ssh_gate
from weathering_tui.net.ssh_gate import Gate, network


def test_a_network_is_a_v4_slash_24_a_v6_slash_56_and_a_loopback_address_alone():
    assert network("203.0.113.7") == network("203.0.113.250") == "203.0.113.0/24"
    assert network("203.0.114.7") != network("203.0.113.7")
    # one customer's /56 is one network (a /64 each let one party be sixteen)
    assert network("2001:db8:1:2:aaaa::1") == network("2001:db8:1:ff:ffff::9")
    assert network("2001:db8:1:100::1") != network("2001:db8:1:2::1")
    assert network("::ffff:203.0.113.9") == "203.0.113.0/24"  # a v4 client on a v6 socket
    # One machine, one network: any local user may pick among 16 million 127.x addresses.
    assert network("127.0.0.2") == network("127.0.0.3") == network("::1") == "loopback"
    assert network("::ffff:127.9.9.9") == "loopback"
    assert network("fe80::1%eth0") == network("fe80::2")
    assert network("?") == "?"  # no address: counted under what was given


def test_logged_in_connections_count_per_network_and_not_logged_in_ones_again():
    gate = Gate(random.Random(1))
    net = network("198.51.100.1")
    admitted = 0
    for _ in range(ssh_gate.PRE_LOGIN * 3):
        if gate.arrive(net):
            admitted += 1
            gate.logged_in(net)  # logged in: no longer waiting, still connected
    assert admitted == ssh_gate.PER_NETWORK
    assert gate.connected.total == ssh_gate.PER_NETWORK and gate.waiting.total == 0
    gate.leave(net, waiting=False)
    assert gate.arrive(net)  # one closed: one more may come
    other = network("198.51.101.1")
    waiting = sum(gate.arrive(other) for _ in range(ssh_gate.PRE_LOGIN * 2))
    assert waiting == ssh_gate.PRE_LOGIN  # silent sockets: fewer, and per network


def test_past_the_early_mark_a_new_connection_is_dropped_more_often_as_they_fill():
    gate = Gate(random.Random(7))
    nets = [f"10.0.{i}.0/24" for i in range(64)]
    for i in range(ssh_gate.PRE_LOGIN_EARLY):  # below the mark: every one is let in
        assert gate.arrive(nets[i % 64])
    tried = kept = 0
    while gate.waiting.total < ssh_gate.PRE_LOGIN_TOTAL and tried < 10_000:
        tried += 1
        kept += gate.arrive(nets[tried % 64])
    assert 0 < kept < tried  # some dropped, some let in
    late = sum(gate.arrive(nets[i % 64]) for i in range(200))
    assert late == 0  # full: none


@pytest.fixture
async def door_port(tmp_path, monkeypatch):
    from weathering_tui.net.server import Server
    from weathering_tui.net.ssh import Door, load_host_key

    monkeypatch.setattr(ssh_gate, "SESSION_WITHIN", 0.5)
    path = tmp_path / "s.sock"
    server = Server(tmp_path / "saves", path, pace=0, grace=30)
    await server.start()
    gate = Door(path)
    await gate.start("127.0.0.1", 0, load_host_key(tmp_path / "host_key"))
    gate.table_server = server  # (what the door's join processes talk to)
    yield gate, gate.server.sockets[0].getsockname()[1]
    gate.close()
    await server.stop()


async def login(port, key):
    return await asyncssh.connect(
        "127.0.0.1", port, username="mallory", client_keys=[key], known_hosts=None
    )


async def test_logged_in_connections_without_a_session_are_few_and_closed(door_port):
    door, port = door_port
    key = asyncssh.generate_private_key("ssh-ed25519")
    held = []
    for _ in range(ssh_gate.PER_NETWORK + 4):  # one key, one address, never a session
        with contextlib.suppress(OSError, asyncssh.Error, TimeoutError):
            held.append(await asyncio.wait_for(login(port, key), 10))
    assert len(held) <= ssh_gate.PER_NETWORK
    assert door.gate.connected.total <= ssh_gate.PER_NETWORK
    await asyncio.sleep(1.5)  # past SESSION_WITHIN: each is closed by the door
    assert door.gate.connected.total == 0
    for conn in held:
        await asyncio.wait_for(conn.wait_closed(), 5)
    # and a player logs in and plays as ever
    conn = await login(port, key)
    chan, _ = await conn.create_session(
        asyncssh.SSHClientSession, term_type="xterm", term_size=(80, 24)
    )
    await asyncio.sleep(1.5)  # a session open: the connection stays
    assert door.gate.connected.total == 1 and not conn.is_closed()
    conn.close()


async def test_a_flood_of_window_changes_reaches_join_as_a_few_and_the_last_wins(
    door_port, monkeypatch
):
    """Each window change redraws the whole screen: 400 of them in a burst reach the join
    process as one or two, the newest size (clamped to what a terminal can be)."""
    from weathering_tui.net import ssh_pipe

    applied = []
    real = ssh_pipe.Pipe._apply_size

    def counted(pipe):
        applied.append(pipe.size)
        real(pipe)

    monkeypatch.setattr(ssh_pipe.Pipe, "_apply_size", counted)
    door, port = door_port
    conn = await login(port, asyncssh.generate_private_key("ssh-ed25519"))
    chan, _ = await conn.create_session(
        asyncssh.SSHClientSession, term_type="xterm", term_size=(80, 24)
    )
    for _ in range(100):  # its join says where the player comes from: tables count there
        if any(c.origin == "loopback" for c in door.table_server.connections):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the door's join never said its player's network")
    for i in range(400):
        chan.change_terminal_size(81 + i % 50, 25 + i % 30)
    chan.change_terminal_size(5000, 120)
    await asyncio.sleep(2.0)
    assert 1 <= len(applied) <= 4, len(applied)
    assert applied[-1] == (5000, 120)  # the newest, given to the pty as 400 columns
    conn.close()


def test_the_pty_is_never_given_more_than_a_terminal_can_be():
    import os
    import pty

    from weathering_tui.net.ssh_pipe import MAX_HEIGHT, MAX_WIDTH, _set_size

    main, other = pty.openpty()
    try:
        _set_size(main, 70000, 70000)
        assert os.get_terminal_size(other) == (MAX_WIDTH, MAX_HEIGHT)
    finally:
        os.close(main)
        os.close(other)


def test_a_clients_lang_or_term_with_a_nul_or_too_long_is_not_used():
    from weathering_tui.net.ssh import _lang, _plain

    assert _lang({"LANG": "a\x00b"}, "fr_FR.UTF-8") == "fr_FR.UTF-8"
    assert _lang({"LANG": b"x" * 5000}, "C.UTF-8") == "C.UTF-8"
    assert _lang({"LC_ALL": "\x1b[2J", "LANG": "fr_FR.UTF-8"}, None) == "fr_FR.UTF-8"
    assert _lang({"LANG": b"fr_FR.UTF-8"}, None) == "fr_FR.UTF-8"
    assert not _plain("xterm\x00") and not _plain(None) and _plain("xterm-256color")


async def test_a_connection_holds_a_few_session_channels_however_it_uses_them(door_port):
    """A hostile review opened 29,000 session channels that asked for nothing on one
    connection (190 MB held): a connection has CHANNELS_PER_CONNECTION at once."""
    from asyncssh.channel import SSHClientChannel

    async def bare(conn):  # a session channel opened, and nothing asked of it
        loop = asyncio.get_running_loop()
        chan = SSHClientChannel(conn, loop, "strict", None, "strict", 2**21, 32768)
        await chan._open(b"session")
        return chan

    _, port = door_port
    conn = await login(port, asyncssh.generate_private_key("ssh-ed25519"))
    opened, refused = [], 0
    for _ in range(ssh_gate.CHANNELS_PER_CONNECTION + 6):
        try:
            opened.append(await bare(conn))
        except asyncssh.ChannelOpenError:
            refused += 1
    assert len(opened) == ssh_gate.CHANNELS_PER_CONNECTION and refused == 6
    opened[0].close()
    await asyncio.sleep(0.3)
    opened.append(await bare(conn))  # one closed: one more may open
    conn.close()


def test_sessions_start_a_few_at_once_then_one_every_two_seconds_per_network():
    gate = Gate()
    net, now = network("203.0.113.5"), 100.0
    started = sum(gate.may_start(net, now) for _ in range(ssh_gate.SESSION_BURST * 3))
    assert started == ssh_gate.SESSION_BURST  # a game night arriving together
    assert not gate.may_start(net, now + 1.0)
    assert gate.may_start(net, now + 1.0 + 1 / ssh_gate.SESSION_STARTS)
    assert gate.may_start(network("198.51.100.5"), now)  # another network: its own bucket


async def test_a_connection_stays_while_any_of_its_sessions_runs(door_port):
    """Two sessions on one connection: one ends, the other keeps it past SESSION_WITHIN;
    the last ends, and the door closes the connection."""
    door, port = door_port
    conn = await login(port, asyncssh.generate_private_key("ssh-ed25519"))
    chans = []
    for _ in range(2):
        chan, _ = await conn.create_session(
            asyncssh.SSHClientSession, term_type="xterm", term_size=(80, 24)
        )
        chans.append(chan)
    await asyncio.sleep(1.0)
    chans[0].close()
    await asyncio.sleep(1.5)  # past SESSION_WITHIN, one session still running
    assert not conn.is_closed() and door.gate.connected.total == 1
    chans[1].close()
    await asyncio.wait_for(conn.wait_closed(), 5)
    assert door.gate.connected.total == 0
