"""The SSH front door: asyncssh clients with a pty see the lobby, play a whole 1v1 game,
resize, drop and come back; what must be refused is refused; and a real OpenSSH sshd
with ForceCommand reaches the same server through its Unix socket."""

import asyncio
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pyte
import pytest
from helpers import openssh, screen_text

from weathering_tui.net.server import Server
from weathering_tui.net.ssh import Door, load_host_key


class Term(asyncssh.SSHClientSession):
    """A terminal at the client's end: the bytes drawn into a pyte screen."""

    def __init__(self, cols=80, rows=24):
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.errors = b""
        self.exit_status = None

    def data_received(self, data, datatype):
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.errors += data
        self.stream.feed(data)

    def exit_status_received(self, status):
        self.exit_status = status

    def text(self) -> str:
        return screen_text(self.screen)


async def session(port, key, user="alice", size=(80, 24), pty=True):
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, client_keys=[key], known_hosts=None
    )
    term = Term(*size)
    options = {"term_type": "xterm-256color", "term_size": size} if pty else {}
    chan, _ = await conn.create_session(lambda: term, encoding=None, **options)
    return conn, chan, term


async def until(term, test, limit=30.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if test(term.text()):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never showed:\n" + term.text())


@pytest.fixture
async def door(tmp_path):
    path = tmp_path / "s.sock"
    server = Server(tmp_path / "saves", path, pace=0, grace=30)
    await server.start()
    doors = []

    async def open_door(**options):
        gate = Door(path, **options)
        await gate.start("127.0.0.1", 0, load_host_key(tmp_path / "host_key"))
        doors.append(gate)
        return gate.server.sockets[0].getsockname()[1]

    yield server, open_door
    for gate in doors:
        gate.close()
    await server.stop()


def keys(tmp_path, name):
    key = asyncssh.generate_private_key("ssh-ed25519")
    (tmp_path / f"{name}.pub").write_bytes(key.export_public_key())
    return key


async def test_two_ssh_players_meet_play_a_whole_game_resize_and_come_back(tmp_path, door):
    server, open_door = door
    port = await open_door()
    alice, bob = keys(tmp_path, "alice"), keys(tmp_path, "bob")
    a_conn, a_chan, a = await session(port, alice, "alice")
    await until(a, lambda t: "Weathering · the tables" in t and "alice·" in t)
    b_conn, b_chan, b = await session(port, bob, "bob")
    await until(b, lambda t: "the tables" in t)
    # the window grows: the layout follows
    b_chan.change_terminal_size(120, 40)
    b.screen.resize(40, 120)
    await until(b, lambda t: len(t.splitlines()[2].rstrip()) > 100)
    a_chan.write(b"n")
    await until(a, lambda t: "configuration" in t)
    a_chan.write(b"1")  # 1v1
    await until(a, lambda t: "human" in t)
    a_chan.write(b"2")  # two humans
    await until(a, lambda t: "side" in t)
    a_chan.write(b"1")  # an Écolo
    await until(a, lambda t: "hints" in t)
    a_chan.write(b"1")  # no hints at this table
    await until(a, lambda t: "Name of the table" in t and "alice·" in t and "-1v1" in t)
    a_chan.write(b"\r")  # the name offered
    await until(a, lambda t: "code" in t)
    a_chan.write(b"\r")  # no join code
    await until(a, lambda t: "waiting for the players" in t)
    await until(b, lambda t: "1v1" in t)
    b_chan.write(b"\r")
    await until(b, lambda t: "Which seat" in t)
    b_chan.write(b"2")  # the free seat: 2, as the lobby numbers it
    await until(a, lambda t: "bob·" in t)
    a_chan.write(b"s")
    table = next(iter(server.tables.values()))
    await until(a, lambda t: "Ecosystem" in t)
    for chan in (a_chan, b_chan):
        chan.write(b"a")  # pass by myself where I cannot cancel: fewer prompts
    dropped = False
    for _ in range(3000):
        if table.over:
            break
        if not dropped and table.game.state.round >= 2:
            # alice's link drops mid-game; the same key comes back to the same seat
            a_conn.close()
            await asyncio.sleep(0.5)
            assert table.seats[0].away
            a_conn, a_chan, a = await session(port, alice, "alice")
            await until(a, lambda t: "alice·" in t and "Ecosystem" in t)
            assert not table.seats[0].away and table.seats[0].owner.startswith("ssh:")
            dropped = True
        for chan, term in ((a_chan, a), (b_chan, b)):
            text = term.text()
            if "since your last turn" in text:
                chan.write(b" ")  # the recap: any key goes on
            elif "▊ 1." in text:
                chan.write(b"1")
            elif re.search(r" e ?end\b", text.splitlines()[-1]):  # (e, in reverse: "end")
                chan.write(b"e")
        await asyncio.sleep(0.1)
    assert dropped and table.over, a.text() + "\n" + b.text()
    await until(a, lambda t: "Game over" in t)
    await until(b, lambda t: "Game over" in t)
    a_conn.close()
    b_conn.close()


async def test_what_the_door_refuses(tmp_path, door):
    server, open_door = door
    allowed = keys(tmp_path, "allowed")
    stranger = keys(tmp_path, "stranger")
    port = await open_door(authorized_keys=tmp_path / "allowed.pub", max_per_key=1)
    with pytest.raises(asyncssh.PermissionDenied):  # no password logins
        await asyncssh.connect(
            "127.0.0.1",
            port,
            username="x",
            password="secret",
            known_hosts=None,
            client_keys=None,
            preferred_auth="password,keyboard-interactive",
        )
    with pytest.raises(asyncssh.PermissionDenied):  # a key not in --authorized-keys
        await asyncssh.connect(
            "127.0.0.1", port, username="x", client_keys=[stranger], known_hosts=None
        )
    conn, chan, term = await session(port, allowed, pty=False)  # no pty: one clear line
    await chan.wait_closed()
    assert term.exit_status == 2 and b"a terminal is needed" in term.errors
    conn.close()
    first = await session(port, allowed)
    await until(first[2], lambda t: "the tables" in t)
    conn, chan, term = await session(port, allowed)  # one session per key here
    await chan.wait_closed()
    assert term.exit_status == 2 and b"too many sessions" in term.errors
    conn.close()
    first[0].close()


async def test_new_keys_from_one_address_cannot_hold_every_session(tmp_path, door):
    """Keys cost nothing: one address making a new key per session was refused by no
    per-key limit and held all 64 sessions. Its sessions count together, and one
    closed frees its place."""
    _, open_door = door
    port = await open_door(max_per_address=2)
    held = []
    for n in range(2):
        held.append(await session(port, keys(tmp_path, f"k{n}"), f"k{n}"))
        await until(held[-1][2], lambda t: "the tables" in t)
    conn, chan, term = await session(port, keys(tmp_path, "k2"), "k2")
    await chan.wait_closed()
    assert term.exit_status == 2 and b"too many sessions" in term.errors
    conn.close()
    held.pop()[0].close()
    await asyncio.sleep(0.5)
    again = await session(port, keys(tmp_path, "k3"), "k3")
    await until(again[2], lambda t: "the tables" in t)
    for conn in (again[0], held[0][0]):
        conn.close()


def test_the_host_key_is_made_once_with_mode_0600(tmp_path):
    path = tmp_path / "keys" / "host"
    key = load_host_key(path)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert load_host_key(path).get_fingerprint() == key.get_fingerprint()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_openssh_forcecommand_reaches_the_same_server(tmp_path, door):
    """A player's own account behind a real sshd: ForceCommand runs `weathering join`,
    identity from the uid on the server's socket."""
    sshd_program = openssh("sshd")
    server, _ = door
    key = keys(tmp_path, "player")
    host_key = tmp_path / "sshd_host_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(host_key)], check=True)
    port = free_port()
    join = f"{sys.executable} -m weathering_tui join --socket {server.socket_path} --lang en"
    config = tmp_path / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {host_key}\n"
        f"AuthorizedKeysFile {tmp_path / 'player.pub'}\nPasswordAuthentication no\n"
        "KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
        f"StrictModes no\nUsePAM no\nPidFile {tmp_path / 'sshd.pid'}\n"
        f"ForceCommand {join}\nSetEnv PYTHONPATH={Path(__file__).parent.parent}\n"
    )
    if os.getuid() == 0:  # privilege separation wants it; another user runs without
        Path("/run/sshd").mkdir(exist_ok=True)
    sshd = subprocess.Popen([sshd_program, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        user = os.environ.get("USER") or __import__("pwd").getpwuid(os.getuid()).pw_name
        conn, chan, term = await session(port, key, user)
        await until(term, lambda t: "the tables" in t and f"Connected as {user}" in t)
        chan.write(b"q")
        conn.close()
    finally:
        sshd.terminate()
        sshd.wait()


async def test_a_huge_terminal_size_is_clamped_and_leaks_nothing(tmp_path, door):
    _, open_door = door
    port = await open_door()
    key = keys(tmp_path, "huge")
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(3):
        conn, chan, term = await session(port, key, "huge", size=(70000, 24))
        await until(term, lambda t: "the tables" in t or "too small" in t.lower())
        chan.change_terminal_size(70000, 70000)  # mid-session too: the session lives on
        await asyncio.sleep(0.2)
        chan.write(b"n")
        conn.close()
        await asyncio.sleep(0.3)
    await asyncio.sleep(1.0)
    assert len(os.listdir("/proc/self/fd")) <= before + 2  # no pty pair left open


def test_a_terminal_of_a_few_columns_is_given_ten():
    """An ssh with no terminal says 0×0; at 3 or 4 columns the "too small" message was
    laid out again and again and the session's join spun at a third of a core."""
    import fcntl
    import pty
    import struct
    import termios

    from weathering_tui.net.ssh_pipe import MIN_HEIGHT, MIN_WIDTH, _set_size

    main, other = pty.openpty()
    try:
        for asked, given in (
            ((0, 0), (MIN_WIDTH, MIN_HEIGHT)),
            ((3, 24), (10, 24)),
            ((80, 24), (80, 24)),
        ):
            _set_size(main, *asked)
            rows, cols, _, _ = struct.unpack(
                "HHHH", fcntl.ioctl(other, termios.TIOCGWINSZ, bytes(8))
            )
            assert (cols, rows) == given
    finally:
        os.close(main)
        os.close(other)


async def test_many_loopback_addresses_are_limited_as_one_network(tmp_path, door):
    """Any local user can pick among 16 million 127.x addresses: silent sockets from
    many of them count as one network, held to the door's share of one (one user
    taking a new 127.x each once filled the door: 1 login in 10 got in). That players
    elsewhere still get in past such a flood is the gate's test (test_ssh_gate)."""
    from weathering_tui.net.ssh_gate import PER_NETWORK, PRE_LOGIN

    _, open_door = door
    port = await open_door()
    silent = []
    for n in range(200):  # never a word of SSH, each from another loopback address
        try:
            source = (f"127.0.{1 + n // 250}.{2 + n % 250}", 0)
            silent.append(socket.create_connection(("127.0.0.1", port), 1, source))
        except OSError:
            break
    assert len(silent) > 100
    await asyncio.sleep(0.5)
    alive = 0
    for sock in silent:
        sock.setblocking(False)
        try:
            alive += sock.recv(1) != b""
        except BlockingIOError:
            alive += 1  # still open, waiting
        except OSError:
            pass
        sock.close()
    assert alive <= min(PRE_LOGIN, PER_NETWORK) + 1, alive  # one network's share, not 200


async def test_a_user_name_that_looks_like_an_option_plays(tmp_path, door):
    _, open_door = door
    port = await open_door()
    conn, chan, term = await session(port, keys(tmp_path, "dash"), "--bot")
    await until(term, lambda t: "the tables" in t and "--bot·" in t)
    conn.close()
