"""After ``kill -9`` of ``advisor bench --client-processes 2`` the client processes stop sending load."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.robustness.hostile import HostileServer, Reply, good

ROOT = Path(__file__).resolve().parents[2]


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_client_processes_die_with_their_parent(tmp_path):
    with HostileServer(lambda p, b: Reply(good().pieces, pause_s=0.01)) as srv:
        proc = subprocess.Popen(
            [sys.executable, "-m", "advisor", "bench", "--url", srv.url, "--model", "m", "--concurrency", "4",
             "--requests", "100000", "--client-processes", "2", "--no-probe", "--no-store", "--quiet",
             "--no-telemetry"],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        kids: list[int] = []
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                kids = [k for k in _children(proc.pid) if _alive(k)]
                # the spawn machinery may add a resource tracker; the clients are the ones sending
                if len(kids) >= 2 and srv.posts() > 20:
                    break
                time.sleep(0.1)
            assert srv.posts() > 20, proc.stderr.read().decode() if proc.poll() is not None else "no load"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
            t = time.monotonic()
            while any(_alive(k) for k in kids) and time.monotonic() - t < 5:
                time.sleep(0.05)
            assert not any(_alive(k) for k in kids), "client processes outlived their parent"
            sent = srv.posts()
            time.sleep(0.5)
            assert srv.posts() == sent  # no more load
        finally:
            if proc.poll() is None:
                proc.kill()
            for k in set(_children(proc.pid)) | set(kids):  # never leave a process behind, even on failure
                try:
                    os.kill(k, signal.SIGKILL)
                except OSError:
                    pass
