"""The commands of the table server: `serve` (and its SSH door's children) and `join`."""

from __future__ import annotations

import contextlib
import sys

from .words import tr_for as _tr


def serve(args) -> int:
    import asyncio
    import signal
    from pathlib import Path

    from ..net.server import Server, serve
    from ..storage.savefile import saves_dir

    # A write past the file-size limit (ulimit -f) fails with EFBIG, which the journal
    # handles (cut back, table paused, tried again), instead of killing the server.
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    folder = saves_dir(getattr(args, "saves_dir", None))
    store = None
    if args.store:
        from ..storage.redis_store import RedisStore, StoreError

        try:
            store = RedisStore(args.store)
            store.ping()
        except StoreError as exc:
            print(_tr(args)("cli.serve.store", problem=exc), file=sys.stderr)
            return 1
    server = Server(
        folder,
        Path(args.socket) if args.socket else None,
        max_tables=args.max_tables,
        max_connections=args.max_connections,
        max_spectators=args.max_spectators,
        grace=args.grace,
        pace=args.pace,
        decision_time=args.decision_time,
        store=store,
        unstarted_expiry=args.unstarted_expiry,
    )

    door = None
    if args.ssh:
        host, _, port = args.ssh.rpartition(":")
        if not port.isdigit() or not 0 < int(port) < 65536:
            print(_tr(args)("cli.serve.ssh_addr", got=repr(args.ssh)), file=sys.stderr)
            return 2
        if args.authorized_keys and not Path(args.authorized_keys).is_file():
            print(_tr(args)("cli.serve.no_keys", path=args.authorized_keys), file=sys.stderr)
            return 2
        from ..net.ssh import Door

        door = Door(
            server.socket_path,
            Path(args.authorized_keys) if args.authorized_keys else None,
            max_sessions=args.max_ssh,
            max_per_key=args.max_ssh_per_key,
            max_per_address=args.max_ssh_per_address,
            idle=args.ssh_idle,
            lang=getattr(args, "lang", None),
        )
        door.address = (host or "0.0.0.0", int(port))
        door.key_path = Path(args.host_key) if args.host_key else folder / "ssh_host_ed25519_key"

    tr = _tr(args)
    where = tr("cli.serve.where", folder=server.tables_dir)
    if store is not None:
        where = tr("cli.serve.where_store", store=store.shown, folder=server.tables_dir)

    def ready():
        print(tr("cli.serve.listening", socket=server.socket_path, where=where), flush=True)

    try:
        asyncio.run(serve(server, ready, door))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        print(tr("cli.serve.error", problem=exc), file=sys.stderr)
        return 2
    return 0


def join(args) -> int:
    from pathlib import Path

    from ..words import detect_lang

    lang = getattr(args, "lang", None) or detect_lang()
    import os
    import signal

    from ..tui.join import JoinApp

    # The terminal is gone (a closed SSH session): nothing is kept here (the server
    # holds the game and the seat), so leave at once rather than spin on a dead pty.
    signal.signal(signal.SIGHUP, lambda *_: os._exit(0))
    if args.door:
        _door_child()
    app = JoinApp(
        lang=lang,
        socket_path=Path(args.socket) if args.socket else None,
        identity=args.identity,
        name=args.name,
        origin=args.origin,
    )
    app.run()
    return app.return_code or 0


def _door_child() -> None:
    """A join process run by the SSH door: its pty becomes its controlling terminal, so
    that the kernel hangs it up when the door closes the pty or dies (even by kill -9),
    and it leaves as soon as the door that started it is gone."""
    import fcntl
    import os
    import termios
    import threading
    import time

    with contextlib.suppress(OSError):
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
