"""`weathering serve --ssh ADDR:PORT`: the SSH front door (asyncssh).

`ssh -p PORT you@host` and you are in the lobby: the client's public key is who you
are (any key, unless `--authorized-keys` lists the allowed ones), the SSH user name
is the name shown, with a short fingerprint. Each session with a pty gets its own
`weathering join` process on a local pty sized like the client's terminal and resized
with it, connected to the table server as that identity. Password and
keyboard-interactive logins are refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import asyncssh

MIN_SIZE = (80, 24)


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's Ed25519 host key, made on first start and kept with mode 0600."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = asyncssh.generate_private_key("ssh-ed25519")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key.export_private_key())
    os.chmod(path, 0o600)
    return asyncssh.read_private_key(str(path))


def fingerprint(key) -> str:
    return key.get_fingerprint("sha256")


class Door:
    """The SSH sessions: who they are, how many, and the `join` process behind each."""

    def __init__(
        self,
        socket_path: Path,
        authorized_keys: Path | None = None,
        max_sessions: int = 64,
        max_per_key: int = 3,
        idle: float = 1800.0,
        lang: str | None = None,
        join_command: list[str] | None = None,
    ):
        self.socket_path = Path(socket_path)
        self.authorized = None
        if authorized_keys is not None:
            self.authorized = asyncssh.read_authorized_keys(str(authorized_keys))
        self.max_sessions = max_sessions
        self.max_per_key = max_per_key
        self.idle = idle
        self.lang = lang
        self.join_command = join_command or [sys.executable, "-m", "weathering_tui", "join"]
        self.sessions: dict[str, int] = {}  # fingerprint -> sessions open
        self.children: set = set()  # the join processes running now
        self.server = None

    async def start(self, host: str, port: int, host_key: asyncssh.SSHKey) -> None:
        door = self

        class Server(asyncssh.SSHServer):
            def connection_made(self, conn):
                self.conn = conn

            def begin_auth(self, username: str) -> bool:
                return True

            def password_auth_supported(self) -> bool:
                return False

            def kbdint_auth_supported(self) -> bool:
                return False

            def public_key_auth_supported(self) -> bool:
                return True

            def validate_public_key(self, username: str, key) -> bool:
                if door.authorized is not None:
                    address = self.conn.get_extra_info("peername", ("", 0))[0]
                    if door.authorized.validate(key, "", address) is None:
                        return False  # not listed (a listed key without options gives {})
                self.conn.set_extra_info(weathering_key=fingerprint(key))
                return True

        self.server = await asyncssh.create_server(
            Server,
            host,
            port,
            server_host_keys=[host_key],
            process_factory=self.session,
            encoding=None,
            line_editor=False,
            login_timeout=30,
            keepalive_interval=60,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
        )

    def close(self) -> None:
        """Stop listening, and end every session's join process (the seats stay)."""
        if self.server is not None:
            self.server.close()
        for child in list(self.children):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)

    async def session(self, process: asyncssh.SSHServerProcess) -> None:
        key = process.get_extra_info("weathering_key") or "?"
        user = process.get_extra_info("username") or "?"
        if process.term_type is None:
            process.stderr.write(
                b"weathering: a terminal is needed: connect with ssh -t (a pty), "
                b"from a terminal of at least 80x24\r\n"
            )
            process.exit(2)
            return
        total = sum(self.sessions.values())
        if total >= self.max_sessions or self.sessions.get(key, 0) >= self.max_per_key:
            process.stderr.write(b"weathering: too many sessions right now, try again later\r\n")
            process.exit(2)
            return
        self.sessions[key] = self.sessions.get(key, 0) + 1
        try:
            await self._run_join(process, key, user)
        finally:
            self.sessions[key] -= 1
            if not self.sessions[key]:
                del self.sessions[key]

    async def _run_join(self, process, key: str, user: str) -> None:
        width, height, _, _ = process.term_size
        if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
            process.stderr.write(
                f"weathering: the terminal is {width}x{height}; the game needs at least "
                f"80x24 (it waits for you to enlarge it)\r\n".encode()
            )
        master, slave = pty.openpty()
        _set_size(master, max(width, 1), max(height, 1))
        lang = _lang(process.env, self.lang)
        env = {
            "TERM": process.term_type or "xterm-256color",
            "LANG": lang,
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/"),
        }
        command = [
            *self.join_command,
            "--socket",
            str(self.socket_path),
            "--identity",
            f"ssh:{key}",
            "--name",
            f"{user[:12]}·{key.removeprefix('SHA256:')[:6]}",  # the fingerprint always shows
            "--lang",
            "fr" if lang.startswith("fr") else "en",
        ]
        child = await asyncio.create_subprocess_exec(
            *command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        self.children.add(child)
        try:
            await Pipe(process, master, child, self.idle).run()
        finally:
            self.children.discard(child)


class Pipe:
    """Bytes between an SSH channel and the pty of its `join` process, both ways, with
    the window size following the client's; ends when either side does."""

    def __init__(self, process, master: int, child, idle: float):
        self.process, self.master, self.child, self.idle = process, master, child, idle
        self.done = asyncio.Event()
        self.last_input = time.monotonic()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(self.master, self.readable)
        tasks = [loop.create_task(self.keys()), loop.create_task(self.idle_watch())]
        waiter = loop.create_task(self.child.wait())
        await asyncio.wait(
            [waiter, loop.create_task(self.done.wait())], return_when="FIRST_COMPLETED"
        )
        for task in tasks:
            task.cancel()
        loop.remove_reader(self.master)
        await self.stop_child()
        with contextlib.suppress(OSError):
            os.close(self.master)
        with contextlib.suppress(Exception):
            self.process.exit(self.child.returncode or 0)

    def readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            self.done.set()
            return
        self.process.stdout.write(data)

    async def keys(self) -> None:
        while not self.done.is_set():
            try:
                data = await self.process.stdin.read(4096)
            except asyncssh.TerminalSizeChanged as change:
                _set_size(self.master, change.width, change.height)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.child.pid, signal.SIGWINCH)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            if not data:
                break  # the SSH session ended
            self.last_input = time.monotonic()
            with contextlib.suppress(OSError):
                os.write(self.master, data)
        self.done.set()

    async def idle_watch(self) -> None:
        while not self.done.is_set():
            await asyncio.sleep(min(30.0, self.idle))
            if time.monotonic() - self.last_input > self.idle:
                self.process.stderr.write(b"\r\nweathering: idle too long, goodbye\r\n")
                self.done.set()

    async def stop_child(self) -> None:
        """The player left: the join process ends with the session (the seat stays)."""
        if self.child.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.pid, signal.SIGHUP)
        try:
            await asyncio.wait_for(self.child.wait(), 3)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.child.pid, signal.SIGKILL)
            await self.child.wait()


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def _lang(env, default: str | None) -> str:
    """The client's language when its ssh sends LANG (SendEnv); else the server's."""
    env = env or {}
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        if value:
            return value
    return default or os.environ.get("LANG", "C.UTF-8")
