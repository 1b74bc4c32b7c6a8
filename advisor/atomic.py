"""Atomic file writes: a temp file in the same folder, fsync, then ``os.replace``.

A crash mid-write leaves the old file intact, never a truncated one. Saving over an existing file keeps what
the user set up around it:

- a symlink stays a symlink: the write goes to the file it points to (in that file's folder, so the rename
  stays on one filesystem), not over the link;
- the file's permission bits are kept (a shared 0644 project file does not become 0600); a new file gets
  the usual ``0666 & ~umask``, as ``open()`` would give it.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def _read_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _read_umask()  # read once at import: os.umask() can only be read by setting it, which races threads


def resolve_target(path: str | os.PathLike[str]) -> Path:
    """The real file a write to ``path`` should replace: symlinks followed (also dangling ones, whose target
    is then created)."""
    return Path(os.path.realpath(os.fspath(path)))


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    target = resolve_target(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), mode)
            else:  # Windows before 3.13
                os.chmod(tmp, mode)
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:  # make the rename itself durable (best effort: not every filesystem allows opening a folder)
        dir_fd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))
