"""Issue #29 item 11: ``--rate R --duration D`` ends at D against a slow server: requests in flight are
cancelled and counted, arrivals still waiting for a slot are dropped and counted, nothing drains for minutes."""

from __future__ import annotations

import time

from advisor.bench.runner import Runner
from advisor.domain.bench import BenchConfig
from tests.robustness.hostile import HostileServer, good


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
