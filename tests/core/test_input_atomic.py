"""Atomic saves keep what the user set up around the file: its mode, and a symlink pointing at it."""

from __future__ import annotations

import os
import stat

import pytest

from advisor.atomic import write_text_atomic
from advisor.domain.project import Project
from advisor.project import load_project, save_project

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX modes and symlinks")


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_save_keeps_the_file_mode(tmp_path):
    path = tmp_path / "shared.advisor.json"
    save_project(Project(title="first"), path)
    os.chmod(path, 0o644)
    save_project(Project(title="second"), path)
    assert _mode(path) == 0o644  # issue #13 item 9: was reset to 0600
    os.chmod(path, 0o600)
    save_project(Project(title="third"), path)
    assert _mode(path) == 0o600
    assert load_project(path).title == "third"


def test_a_new_file_gets_the_umask_mode_not_0600(tmp_path):
    old = os.umask(0o022)
    try:
        path = tmp_path / "new.json"
        write_text_atomic(path, "{}")
        assert _mode(path) == 0o644
    finally:
        os.umask(old)


def test_save_writes_through_a_symlink(tmp_path):
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    real_dir = tmp_path / "synced"
    real_dir.mkdir()
    real = real_dir / "plan.advisor.json"
    save_project(Project(title="original"), real)
    link = tmp_path / "plan.advisor.json"
    link.symlink_to(real)
    save_project(Project(title="through the link"), link)
    assert link.is_symlink()  # issue #13 item 9: was replaced by a regular file
    assert os.readlink(link) == str(real)
    assert load_project(real).title == "through the link"
    assert [p.name for p in real_dir.iterdir()] == ["plan.advisor.json"]  # no temp file left beside the target
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.advisor.json", "synced"]


def test_a_dangling_symlink_is_refused_not_followed(tmp_path):
    # issue #29 item 2 (was: its target created): a dangling link in a shared folder can point anywhere
    target = tmp_path / "later" / "later.json"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    with pytest.raises(OSError, match="does not exist"):
        write_text_atomic(link, "{}")
    assert link.is_symlink() and not target.parent.exists()


def test_a_failed_write_keeps_the_old_file_and_mode(tmp_path, monkeypatch):
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    path = tmp_path / "keep.json"
    write_text_atomic(path, "old")
    os.chmod(path, 0o640)

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError):
        write_text_atomic(path, "new")
    assert path.read_text() == "old" and _mode(path) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]
