"""The one file writer: a temp file in the same folder, fsync, then ``os.replace``.

A crash mid-write leaves the old file intact, never a truncated one. Before anything is written the target
is checked (:func:`check_target`, also called up front by commands that write only after a long run), and
refused with a message a user can act on (:class:`UnsafeTargetError`, an ``OSError``) when it is

- a symlink, unless both the link and the regular file it points to belong to the user (a link planted by
  someone else in a shared folder such as /tmp, a dangling link, a link to a device, a FIFO or a folder is
  never followed: the kernel's protection of shared folders is not bypassed by a rename);
- a folder, a FIFO, a device or a socket;
- an existing file the user may not write (read-only): it is never replaced silently;
- in a folder that does not exist (no folder is created silently, except where the caller says so: the app's
  own data folder).

Saving over an existing file keeps what the user set up around it:

- a symlink the user owns stays a symlink: the write goes to the file it points to (in that file's folder,
  so the rename stays on one filesystem), not over the link;
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


class UnsafeTargetError(OSError):
    """The target of a write is refused; ``str()`` is the user's message."""


def _refuse(key: str, path: Path, **extra: object) -> UnsafeTargetError:
    from advisor.i18n import tr

    return UnsafeTargetError(tr(f"atomic.{key}", path=str(path), **extra))


def _owned(st: os.stat_result) -> bool:
    getuid = getattr(os, "getuid", None)
    return getuid is None or st.st_uid == getuid()  # Windows: no owners to compare


def check_target(path: str | os.PathLike[str], *, make_parents: bool = False) -> Path:
    """The real file a write to ``path`` will replace, or :class:`UnsafeTargetError` saying why not (see the
    module's rules). ``make_parents``: create missing folders (for the app's own data folder only)."""
    given = Path(os.fspath(path))
    try:
        lst: os.stat_result | None = os.lstat(given)
    except FileNotFoundError:
        lst = None
    if lst is not None and stat.S_ISLNK(lst.st_mode):
        real = Path(os.path.realpath(given))
        try:
            linked = os.stat(real)
        except FileNotFoundError:
            raise _refuse("dangling_link", given, target=str(real)) from None
        if not stat.S_ISREG(linked.st_mode) or not _owned(lst) or not _owned(linked):
            raise _refuse("link_refused", given, target=str(real))
        target = real
        st: os.stat_result | None = linked
    else:
        target = Path(os.path.realpath(given.parent)) / given.name  # a linked folder is fine; the name is not
        st = lst
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise _refuse("is_folder", given)
        if not stat.S_ISREG(st.st_mode):
            raise _refuse("special_file", given)
        # the mode bits too: root may write anything, but a file someone made read-only is not replaced silently
        if not os.access(target, os.W_OK) or not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise _refuse("read_only", given)
        return target
    parent = target.parent
    if not parent.is_dir():
        if parent.exists() or not make_parents:
            raise _refuse("no_folder", given, folder=str(given.parent))
        parent.mkdir(parents=True, exist_ok=True)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise _refuse("folder_not_writable", given, folder=str(given.parent))
    return target


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes, *, make_parents: bool = False) -> None:
    target = check_target(path, make_parents=make_parents)
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


def write_text_atomic(path: str | os.PathLike[str], text: str, *, make_parents: bool = False) -> None:
    write_bytes_atomic(path, text.encode("utf-8"), make_parents=make_parents)
