"""Issue #29 item 10: HTTP 429 with Retry-After is honoured (every stream to the host waits, capped), a 429
without it backs off, and the CLI reports rate limiting with the rate reached."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from advisor.bench.client import retry_after_seconds
from advisor.bench.runner import Runner
from advisor.domain.bench import BenchConfig
from tests.robustness.hostile import HostileServer, Reply

ROOT = Path(__file__).resolve().parents[2]


def _limited(retry_after: str | None):
    head = b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
    if retry_after is not None:
        head += b"Retry-After: " + retry_after.encode() + b"\r\n"

    def behaviour(path, body):
        return Reply([b"{}"], head=head + b"\r\n", chunked=False)

    return behaviour


def _run(url: str, seconds: float = 3.0) -> dict:
    config = BenchConfig.model_validate({
        "endpoint": {"url": url, "model": "m", "timeout_s": 10, "read_timeout_s": 5},
        "workload": {"prompt_tokens": {"mean": 16}, "output_tokens": {"mean": 8}},
        "schedule": {"kind": "fixed", "concurrency": [4], "duration_s": seconds, "warmup_requests": 0},
    })
    return Runner(config).run()


def test_retry_after_holds_every_stream():
    with HostileServer(_limited("1")) as srv:
        result = _run(srv.url)
        posts = srv.posts()
    assert posts <= 20, posts  # was: thousands in 3 s at concurrency 4
    assert result["steps"][0]["failures"].get("http_error:http_429") == posts


def test_a_429_without_retry_after_backs_off():
    with HostileServer(_limited(None)) as srv:
        _run(srv.url)
        posts = srv.posts()
    assert posts <= 40, posts


def test_the_cli_reports_rate_limiting():
    with HostileServer(_limited("1")) as srv:
        proc = subprocess.run([sys.executable, "-m", "advisor", "bench", "--url", srv.url, "--model", "m",
                               "--no-probe", "--no-telemetry", "--no-store", "--concurrency", "2", "--duration", "2",
                               "--warmup", "0"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Rate limited" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_retry_after_forms():
    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now_wall=1445412470.0) == 10.0
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None
