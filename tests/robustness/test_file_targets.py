"""Issue #29 items 2 and 3: the one writer refuses links it should not follow, special files, read-only files
and missing folders (with a message, never silently), and ``bench --out`` is checked before the run."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from advisor.atomic import UnsafeTargetError, write_text_atomic
from tests.robustness.hostile import HostileServer

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX links, FIFOs and owners")
OTHER_UID = 65534  # nobody


def _advisor(*args, timeout=90):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_a_link_to_someone_elses_file_is_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / "out.json"
    link.symlink_to(victim)
    if os.getuid() == 0:
        os.chown(victim, OTHER_UID, OTHER_UID)
    else:  # a link someone else planted: we cannot chown, so the link points at a file of root's instead
        link.unlink()
        link.symlink_to("/etc/hostname")
    with pytest.raises(UnsafeTargetError, match="not a regular file that you own"):
        write_text_atomic(link, "overwritten")
    assert victim.read_text() == "precious" and link.is_symlink()


def test_a_link_to_a_fifo_or_device_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (fifo, Path("/dev/null")):
        link = tmp_path / f"to-{target.name}.json"
        link.symlink_to(target)
        done = threading.Event()
        errors = []

        def write(link=link, errors=errors, done=done):
            try:
                write_text_atomic(link, "x")
            except OSError as exc:
                errors.append(exc)
            done.set()

        threading.Thread(target=write, daemon=True).start()
        assert done.wait(5), "the writer hung on a FIFO"
        assert errors and isinstance(errors[0], UnsafeTargetError)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_fifo_or_a_folder_as_the_target_is_refused(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeTargetError, match="not a regular file"):
        write_text_atomic(fifo, "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    with pytest.raises(UnsafeTargetError, match="is a folder"):
        write_text_atomic(tmp_path, "x")


def test_a_read_only_file_is_not_replaced_silently(tmp_path):
    ro = tmp_path / "memo.md"
    ro.write_text("signed-off version")
    ro.chmod(0o444)
    with pytest.raises(UnsafeTargetError, match="read-only"):
        write_text_atomic(ro, "new")
    assert ro.read_text() == "signed-off version"


def test_a_missing_folder_is_not_created_silently(tmp_path):
    with pytest.raises(UnsafeTargetError, match="does not exist"):
        write_text_atomic(tmp_path / "no" / "such" / "memo.md", "x")
    assert not (tmp_path / "no").exists()
    write_text_atomic(tmp_path / "app" / "settings.json", "{}", make_parents=True)  # the app's own folder
    assert (tmp_path / "app" / "settings.json").read_text() == "{}"


def test_an_owned_link_to_an_owned_file_is_still_written_through(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


@pytest.mark.parametrize("bad", ["folder", "missing", "readonly"])
def test_bench_out_is_checked_before_the_run(tmp_path, bad):
    out = {"folder": tmp_path, "missing": tmp_path / "nope" / "r.json", "readonly": tmp_path / "r.json"}[bad]
    if bad == "readonly":
        out.write_text("{}")
        out.chmod(0o444)
    with HostileServer() as srv:
        proc = _advisor("bench", "--url", srv.url, "--model", "m", "--requests", "2", "--warmup", "0", "--no-probe",
                        "--no-telemetry", "--no-store", "--out", str(out))
        posts = srv.posts()
    assert proc.returncode == 2, proc.stderr
    assert "--out" in proc.stderr and "Traceback" not in proc.stderr
    assert posts == 0  # no load was sent


def test_history_export_into_a_link_is_refused(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep")
    if os.getuid() == 0:
        os.chown(victim, OTHER_UID, OTHER_UID)
    link = tmp_path / "e.json"
    link.symlink_to(victim if os.getuid() == 0 else Path("/etc/hostname"))
    db = tmp_path / "b.sqlite3"
    with HostileServer() as srv:
        proc = _advisor("bench", "--url", srv.url, "--model", "m", "--requests", "1", "--warmup", "0", "--no-probe",
                        "--no-telemetry", "--db", str(db), "--json")
    run_id = json.loads(proc.stdout)["run_id"]
    exp = _advisor("bench", "--db", str(db), "--export", run_id, "--out", str(link))
    assert exp.returncode == 2 and "Traceback" not in exp.stderr, exp.stderr
    assert victim.read_text() == "keep"
