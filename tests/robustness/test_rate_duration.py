"""Issue #29 item 11: ``--rate R --duration D`` ends at D against a slow server: requests in flight are
cancelled and counted, arrivals still waiting for a slot are dropped and counted, nothing drains for minutes.
The same for a closed-loop step or a soak with ``--duration`` (after a short grace for requests in flight)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from advisor.bench.runner import Runner
from advisor.domain.bench import BenchConfig
from tests.robustness.hostile import HostileServer, Reply, good

ROOT = Path(__file__).resolve().parents[2]


def test_rate_with_duration_is_a_time_limit():
    def slow(path, body):
        reply = good(4)
        reply.pause_s = 1.0  # ~5 s per answer
        return reply

    with HostileServer(slow) as srv:
        config = BenchConfig.model_validate({
            "endpoint": {"url": srv.url, "model": "m", "timeout_s": 60, "read_timeout_s": 30},
            "workload": {"prompt_tokens": {"mean": 16}, "output_tokens": {"mean": 8}},
            "schedule": {"kind": "rate", "rate": 20, "duration_s": 2, "max_concurrency": 4, "warmup_requests": 0},
        })
        t0 = time.monotonic()
        result = Runner(config).run()
        took = time.monotonic() - t0
    assert took < 6, took  # was: the whole backlog drained (~40 arrivals × 5 s / 4 slots ≈ 50 s)
    step = result["steps"][0]
    assert step["stop_reason"] == "duration"
    assert step["requests_cancelled"] >= 1  # the four in flight at the deadline
    assert step["arrivals_not_sent"] >= 20


@pytest.mark.parametrize("shape", [["--concurrency", "2", "--duration", "3"], ["--soak", "3s", "--soak-concurrency", "2"]],
                         ids=["closed", "soak"])
def test_a_closed_loop_duration_is_a_time_limit_too(shape):
    """A closed-loop step or a soak with --duration D stops sending at D, gives requests in flight a grace (a
    quarter of D, at most 30 s) and then cancels and counts them: one 20-second answer held a "--soak 3s" for 21 s
    (and would have for the whole --timeout)."""
    slow = Reply(good(40).pieces, pause_s=0.5)  # each answer takes about 20 s
    with HostileServer(lambda path, body: slow) as srv:
        t0 = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "advisor", "bench", "--url", srv.url, "--model", "m",
                               "--warmup", "0", "--no-probe", "--no-telemetry", "--no-store", "--json", "--quiet",
                               *shape], cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        took = time.monotonic() - t0
    result = json.loads(proc.stdout)
    (step,) = result["steps"]
    assert step["requests_cancelled"] == 2 and step["requests_ok"] == 0, step  # counted, never a success
    assert took < 15, took  # 3 s + 0.75 s grace + start-up, not 20 s
    assert "Traceback" not in proc.stderr
