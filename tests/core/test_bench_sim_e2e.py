"""End to end over real loopback HTTP against the simulated server (``advisor sim`` in a subprocess):
every injected fault is classified, the run continues, failures are counted apart, and the measured token
times agree with the server's own ground truth."""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from advisor.bench.runner import Runner
from advisor.bench.store import BenchStore
from advisor.domain.bench import BenchConfig

ROOT = Path(__file__).resolve().parents[2]
FAULTS = "429:0.06,503:0.04,500:0.03,reset:0.07,stall=0.3:0.04,malformed:0.07,error:0.06,error_tgi:0.06,error_llamacpp:0.06"


def start_sim(*extra):
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor", "sim", "--model", "qwen2.5-3b", "--gpu", "h100-sxm-80g", "--weights", "bf16",
         "--port", "0", "--time-scale", "0.2", *extra],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("listening on "):
            return proc, line.split("listening on ", 1)[1].strip()
        if not line and proc.poll() is not None:
            break
    proc.kill()
    _, err = proc.communicate(timeout=10)
    pytest.fail(f"the simulated server did not start: {err[-2000:]}")


def stop_sim(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate(timeout=5)


@pytest.fixture(scope="module")
def sim_with_faults():
    proc, url = start_sim("--faults", FAULTS, "--seed", "7")
    yield url
    stop_sim(proc)


def _expected(truth):
    fault = truth.get("fault") or ""
    status = truth.get("status")
    if status and status >= 400:
        return "http_error", f"http_{status}"
    if "reset_after" in fault:
        return "truncated", None
    if "malformed_after" in fault:
        return "invalid", "malformed_chunk"
    if "error_after" in fault:
        dialect = fault.split("dialect=")[1]
        return "stream_error", {"vllm": "InternalServerError", "tgi": "generation", "llamacpp": "server_error"}[dialect]
    return "ok", None


def test_every_injected_fault_is_classified_and_the_run_continues(sim_with_faults, tmp_path):
    url = sim_with_faults
    cfg = BenchConfig.model_validate({
        "endpoint": {"url": url, "model": "qwen2.5-3b", "read_timeout_s": 20, "timeout_s": 60},
        "workload": {"prompt_tokens": {"mean": 64}, "output_tokens": {"mean": 24}},
        "schedule": {"kind": "fixed", "concurrency": [8], "requests": 120, "warmup_requests": 0},
    })
    store = BenchStore(tmp_path / "b.sqlite3")
    runner = Runner(cfg, store=store, keep_records=True)
    result = runner.run()
    (step,) = result["steps"]
    assert step["requests_ok"] + step["requests_failed"] == 120
    records = runner.records
    seen = set()
    with httpx.Client(timeout=10) as client:
        for rec in records:
            uuid.UUID(rec.request_id)  # llama-cpp-python's server rejects any other X-Request-Id with HTTP 400
            truth = client.get(url + "/debug/ground-truth", params={"request_id": rec.request_id}).json()
            outcome, error_class = _expected(truth)
            assert rec.outcome == outcome, (truth.get("fault"), rec.outcome, rec.error_class, rec.error_message)
            if error_class is not None:
                assert rec.error_class == error_class, (truth.get("fault"), rec.error_class)
            seen.add(outcome)
            if rec.ok:
                content = [c["t"] for c in truth["chunks"] if c["kind"] == "content"]
                assert rec.output_tokens == truth["completion_tokens"] == len(rec.token_times) == len(content)
                assert rec.output_tokens_source == "usage"
                # each token was stamped after the server sent it, and not long after; the client converts the
                # kernel's wall-clock stamp through its age, so it is never early (tests/core/test_kernel_stamp_clock.py):
                # the 1 ms is for float rounding of the ~1.7e9 s wall values, not for clock error
                for measured, sent in zip(rec.token_times, content, strict=True):
                    assert sent - 0.001 <= measured <= sent + 0.25
    assert seen == {"ok", "http_error", "truncated", "invalid", "stream_error"}
    ok = [r for r in records if r.ok]
    assert step["ttft_ms"]["count"] == len(ok) == step["requests_ok"]
    assert step["itl_kind"] == "per_token"  # the simulator sends per-chunk usage when asked
    assert sum(step["failures"].values()) == step["requests_failed"]
    # faults on purpose: the step is below the success rate, and the run says so
    assert step["status"] == "degraded" and result["status"] == "degraded" and result["exit_code"] == 5
    assert store.run(result["run_id"])["status"] == "degraded"
    store.connection.close()


def test_cli_ramp_against_the_simulated_server():
    import json

    proc, url = start_sim()
    try:
        p = subprocess.run(
            [sys.executable, "-m", "advisor", "bench", "--url", url, "--model", "qwen2.5-3b", "--concurrency", "1,4,16",
             "--requests", "16", "--max-tokens", "32", "--prompt-tokens", "128", "--json", "--no-store"],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=180,
        )
    finally:
        stop_sim(proc)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["probe"]["dialect"] == "simulated"
    assert data["probe"]["usage_in_stream"] and data["probe"]["continuous_usage"]
    assert data["probe"]["metrics_endpoint"] and data["probe"]["tokenize_endpoint"] == "vllm"
    steps = data["steps"]
    assert [s["concurrency"] for s in steps] == [1, 4, 16]
    assert all(s["requests_failed"] == 0 for s in steps)
    # continuous batching: more concurrency, more throughput; the server really saw the concurrency
    assert steps[2]["output_tokens_per_s"] > 2 * steps[0]["output_tokens_per_s"]
    assert steps[2]["achieved_concurrency"] > 8
    assert data["workload"]["prompt_token_counts"] == "tokenizer"  # calibrated with its /tokenize


@pytest.mark.parametrize(
    ("fault", "outcome", "error_class"),
    [("stall=3@2", "timeout", "read_timeout"), ("401", "http_error", "http_401"), ("reset_after=0", "truncated", None),
     ("malformed_after=1", "invalid", "malformed_chunk"), ("error_after=2,dialect=tgi", "stream_error", "generation")],
)
def test_faults_requested_per_request_are_classified(sim_with_faults, fault, outcome, error_class):
    import asyncio

    from advisor.bench.client import StreamClient, build_record

    async def go():
        client = StreamClient(sim_with_faults, read_timeout_s=1.0, timeout_s=10)
        try:
            body = {"model": "qwen2.5-3b", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 8,
                    "stream": True, "stream_options": {"include_usage": True}}
            return await client.send(body, headers={"X-Sim-Fault": fault})
        finally:
            await client.aclose()

    rec = build_record(asyncio.run(go()), seq=0, max_tokens=8)
    assert rec.outcome == outcome, (rec.error_class, rec.error_message)
    if error_class:
        assert rec.error_class == error_class
