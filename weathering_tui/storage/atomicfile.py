"""Crash-safe file replacement, free of heavy imports so a killed writer is cheap to test."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


def fsync_dir(folder: Path) -> None:
    """The folder's entries made durable (a file created or renamed in it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: Path, data: bytes, durable: bool = True) -> None:
    """Temporary file in the same folder, fsync, rename over, fsync the folder:
    a crash at any instant leaves the old file or the new one, never a torn one.
    Without `durable` there is no fsync: the rename alone already keeps a killed
    process from leaving a torn file (only a machine that loses power may lose it)."""
    folder = path.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # as an ordinary new file, not mkstemp's 0600
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if durable:
        fsync_dir(folder)


# A file system that refuses hard links (some network or FAT ones): a copy instead.
NO_LINKS = {errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP}


def atomic_copy(path: Path, copy: Path) -> bool:
    """`copy` replaced, atomically and durably, by the file now at `path` (a hard link
    renamed over it: no byte is written; where links are refused, a copy written as
    `atomic_write` does). False when there is no file at `path`; any other failure
    raises (the caller must not go on as if the copy were kept)."""
    tmp = copy.with_name(f".{copy.name}.{os.getpid()}.link")
    tmp.unlink(missing_ok=True)  # (one a killed process left)
    try:
        os.link(path, tmp, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError as exc:
        if exc.errno not in NO_LINKS:
            raise
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return False
        atomic_write(copy, data, True)
        return True
    try:
        os.replace(tmp, copy)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(copy.parent)
    return True
