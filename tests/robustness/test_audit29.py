"""Issue #29, cases the audit of items 1–19 found without an end-to-end test (docs/robustness.md): ``bench --out``
failing at the end of a run still prints the result (item 3); a memo is refused into a link or a missing folder
by ``advisor plan`` itself, not only by the writer (item 2); a trickling ``/metrics`` cannot hold a run (item 9);
``advisor history`` on a full disk says the disk is full — not "a damaged file can be moved aside" (item 17)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.robustness.hostile import HostileServer, Reply, good, trickle_head
from tests.support.small_disk import small_tmpfs

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fast-launch.answers.json"
OTHER_UID = 65534  # nobody


def _advisor(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"})


def test_an_out_that_fails_at_the_end_of_the_run_still_prints_the_result(tmp_path):
    """Checked before the run, the folder is removed while it runs: the measurement is printed (without --json)
    and the exit code says it was not written — with --no-store it is the only copy."""
    folder = tmp_path / "results"
    folder.mkdir()
    slow = Reply(good().pieces, pause_s=0.1)
    with HostileServer(lambda p, b: slow) as srv:
        proc = subprocess.Popen(
            [sys.executable, "-m", "advisor", "bench", "--url", srv.url, "--model", "m", "--requests", "12",
             "--concurrency", "1", "--warmup", "0", "--no-probe", "--no-telemetry", "--no-store", "--quiet",
             "--out", str(folder / "run.json")],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        t0 = time.monotonic()
        while srv.posts() == 0 and time.monotonic() - t0 < 60:
            time.sleep(0.05)
        shutil.rmtree(folder)
        out, err = proc.communicate(timeout=120)
    assert srv.posts() > 0
    assert proc.returncode == 6, err
    assert "Could not write" in err and "printed instead" in err and "Traceback" not in err
    printed = json.loads(out)
    assert printed["requests_ok"] == 12  # the measurement itself, not an empty promise


@pytest.mark.skipif(os.name != "posix", reason="POSIX links and owners")
def test_plan_refuses_a_memo_into_a_link_or_a_missing_folder(tmp_path):
    victim = tmp_path / "victim.md"
    victim.write_text("precious")
    link = tmp_path / "memo.md"
    if os.getuid() == 0:
        os.chown(victim, OTHER_UID, OTHER_UID)
        link.symlink_to(victim)
    else:  # we cannot plant someone else's file: a link to root's
        link.symlink_to("/etc/hostname")
    linked = _advisor("plan", "--answers", str(EXAMPLE), "--memo", str(link), "--lang", "en")
    missing = _advisor("plan", "--answers", str(EXAMPLE), "--memo", str(tmp_path / "no" / "such" / "memo.md"),
                       "--lang", "en")
    assert linked.returncode != 0 and "Traceback" not in linked.stderr, linked.stderr
    assert link.is_symlink() and (os.getuid() != 0 or victim.read_text() == "precious")
    assert missing.returncode != 0 and "Traceback" not in missing.stderr, missing.stderr
    assert "does not exist" in missing.stderr and not (tmp_path / "no").exists()


def test_a_trickling_metrics_page_cannot_hold_a_run():
    """The server answers every request at once but trickles its /metrics a byte at a time: the run (probe,
    telemetry sampler and all) ends promptly with every request measured."""
    with HostileServer(routes={"/metrics": trickle_head(0.3)}) as srv:
        t0 = time.monotonic()
        proc = _advisor("bench", "--url", srv.url, "--model", "m", "--requests", "4", "--warmup", "0", "--no-store",
                        "--json", "--quiet", timeout=90)
        took = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["requests_ok"] == 4
    assert took < 30, took  # the probe's /metrics look-up is bounded at 5 s, each scrape at its timeout


def test_history_on_a_full_disk_says_the_disk_is_full(tmp_path):
    with small_tmpfs(tmp_path / "small") as mnt:
        db = mnt / "bench.sqlite3"
        src = tmp_path / "other.sqlite3"
        with HostileServer() as srv:
            for path, n in ((db, "2"), (src, "200")):
                made = _advisor("bench", "--url", srv.url, "--model", "m", "--requests", n, "--warmup", "0",
                                "--no-probe", "--no-telemetry", "--db", str(path), "--json", "--quiet")
                assert made.returncode == 0, made.stderr
        fd = os.open(mnt / "fill", os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(fd, b"x" * 65536)
        except OSError:
            pass
        finally:
            os.close(fd)
        listed = _advisor("history", "--db", str(db))
        imported = _advisor("history", "--db", str(db), "--import", str(src))
    assert listed.returncode == 0, listed.stderr  # reading writes nothing: a full disk does not matter
    assert imported.returncode == 6 and "Traceback" not in imported.stderr, imported.stderr
    assert "is full" in imported.stderr and "moved aside" not in imported.stderr
