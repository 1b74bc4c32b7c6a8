"""Issue #29 item 4: SIGTERM and SIGHUP stop a run as Ctrl+C does: the partial result is printed and written
to --out, and the run is kept as cancelled (not left "running")."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.robustness.hostile import HostileServer, good

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_keeps_and_prints_the_partial_run(tmp_path, sig):
    def slow(path, body):
        reply = good(4)
        reply.pause_s = 0.1
        return reply

    db, out = tmp_path / "b.sqlite3", tmp_path / "r.json"
    with HostileServer(slow) as srv:
        proc = subprocess.Popen([sys.executable, "-m", "advisor", "bench", "--url", srv.url, "--model", "m",
                                 "--concurrency", "2", "--requests", "100000", "--warmup", "0", "--no-probe",
                                 "--no-telemetry", "--db", str(db), "--out", str(out), "--json"],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        deadline = time.monotonic() + 30
        while srv.posts() < 6 and time.monotonic() < deadline:
            time.sleep(0.1)
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, stderr
    result = json.loads(stdout)
    assert result["status"] == "stopped" and result["requests_ok"] >= 1
    assert json.loads(out.read_text())["run_id"] == result["run_id"]
    with sqlite3.connect(db) as conn:
        status = conn.execute("SELECT status FROM runs WHERE run_id = ?", (result["run_id"],)).fetchone()[0]
    assert status == "stopped"
