"""Where the server keeps its socket and its saves: folders no one else may change.

A folder that another user can write to (without the sticky bit) lets them delete
and rebind the socket — and receive the others' hellos — or swap the saves for a game
whose hands they know. `serve` refuses such a folder with a sentence saying which one
and why (README § "Host a game night": a server-owned folder the players' group may
only pass through).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def unsafe_folder(folder: Path, own_uid: int | None = None) -> str | None:
    """Why `folder` (or a folder above it) could be changed by someone other than the
    server's user or root, or None when it cannot."""
    own = os.getuid() if own_uid is None else own_uid
    folder = Path(folder).absolute()
    for place in (folder, *folder.parents):
        try:
            info = place.stat()
        except OSError:
            continue  # not made yet: the server makes it, its own
        if info.st_uid not in (own, 0):
            return f"{place} belongs to another user (uid {info.st_uid})"
        writable = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        if writable and not info.st_mode & stat.S_ISVTX:
            who = "anyone" if info.st_mode & stat.S_IWOTH else "its group"
            return (
                f"{place} can be changed by {who} (mode {stat.S_IMODE(info.st_mode):o}): "
                "another user could replace the socket or the saves"
            )
    return None
