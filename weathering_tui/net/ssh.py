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
import os
import pty
import signal
import sys
import time
from pathlib import Path

import asyncssh

from ..words import Tr, detect_lang
from .ssh_gate import LOGIN_WITHIN, Channel, Gate, Login
from .ssh_pipe import Pipe, _set_size

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


class Door:
    """The SSH sessions: who they are, how many, and the `join` process behind each."""

    def __init__(
        self,
        socket_path: Path,
        authorized_keys: Path | None = None,
        max_sessions: int = 64,
        max_per_key: int = 3,
        max_per_address: int = 8,
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
        # Keys cost nothing: one network making new ones must not hold every session.
        self.max_per_address = max_per_address
        self.by_address: dict[str, int] = {}  # network -> sessions open
        self.idle = idle
        self.lang = lang
        self.join_command = join_command or [sys.executable, "-m", "weathering_tui", "join"]
        self.sessions: dict[str, int] = {}  # fingerprint -> sessions open
        self.gate = Gate()  # every connection, counted from accept (no address is exempt)
        self.children: set = set()  # the join processes running now
        self.server: asyncssh.SSHAcceptor | None = None

    async def start(self, host: str, port: int, host_key: asyncssh.SSHKey) -> None:
        self.server = await asyncssh.create_server(
            lambda: Login(self),
            host,
            port,
            server_host_keys=[host_key],
            encoding=None,
            line_editor=False,
            login_timeout=LOGIN_WITHIN,
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

    async def session(self, process: Channel) -> None:
        key = process.get_extra_info("weathering_key") or "?"
        user = process.get_extra_info("username") or "?"
        words = Tr(detect_lang({"LANG": _lang(process.env, self.lang)}))
        if process.term_type is None:  # in the client's language, when its ssh sends LANG
            process.stderr.write(f"{words('door.no_pty')}\r\n".encode())
            process.exit(2)
            return
        login = process.login  # (a `Channel` of its connection's `Login`)
        address = login.net
        total = sum(self.sessions.values())
        if (
            not self.gate.may_start(address, time.monotonic())
            or total >= self.max_sessions
            or self.sessions.get(key, 0) >= self.max_per_key
            or self.by_address.get(address, 0) >= self.max_per_address
        ):
            process.stderr.write(f"{words('door.busy')}\r\n".encode())
            process.exit(2)
            return
        self.sessions[key] = self.sessions.get(key, 0) + 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        login.sessions += 1
        try:
            await self._run_join(process, key, user, address)
        finally:
            login.sessions -= 1
            for counts, name in ((self.sessions, key), (self.by_address, address)):
                counts[name] -= 1
                if not counts[name]:
                    del counts[name]

    async def _run_join(self, process, key: str, user: str, origin: str) -> None:
        width, height, _, _ = process.term_size
        if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
            words = Tr(detect_lang({"LANG": _lang(process.env, self.lang)}))
            process.stderr.write(f"{words('door.small', w=width, h=height)}\r\n".encode())
        master, slave = pty.openpty()
        try:
            child = await self._spawn(process, key, user, origin, master, slave)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)  # the child has its own copy; ours would keep the pty open
        self.children.add(child)
        try:
            words = Tr(detect_lang({"LANG": _lang(process.env, self.lang)}))
            await Pipe(process, master, child, self.idle, words).run()
        finally:
            self.children.discard(child)

    async def _spawn(self, process, key: str, user: str, origin: str, master: int, slave: int):
        width, height, _, _ = process.term_size
        _set_size(master, width, height)
        lang = _lang(process.env, self.lang)
        env = {
            "TERM": process.term_type if _plain(process.term_type) else "xterm-256color",
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
            f"--origin={origin}",
            # one argument (a user name "-h" is a name); the fingerprint always shows
            f"--name={user[:12]}·{key.removeprefix('SHA256:')[:6]}",
            "--lang",
            detect_lang({"LANG": lang}),
            "--door",
        ]
        return await asyncio.create_subprocess_exec(
            *command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )


def _lang(env, default: str | None) -> str:
    """The client's language when its ssh sends LANG (SendEnv); else the server's."""
    env = env or {}
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        if _plain(value):
            return value
    return default or os.environ.get("LANG", "C.UTF-8")


def _plain(value) -> bool:
    """A client's word fit for an environment variable: short, printable, no NUL (a
    LANG holding a NUL once made the spawn raise and dropped the whole connection)."""
    return isinstance(value, str) and 0 < len(value) <= 64 and value.isprintable()
