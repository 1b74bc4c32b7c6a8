"""Telemetry lands in the benchmark store with the run, on the clock the request records use."""

import json
import subprocess
import sys
from pathlib import Path

from advisor.bench.store import BenchStore
from advisor.sim import start_sim_server
from advisor.telemetry.store import TelemetryStore

ROOT = Path(__file__).resolve().parents[2]


def test_bench_records_server_and_gpu_samples_with_the_run(tmp_path):
    db = tmp_path / "bench.sqlite"
    # Four times faster than the simulated L40S (~4 s of run instead of ~15 s): still several 1 s /metrics scrapes
    # (a loaded machine only makes the run longer and the samples more), on the clock the request records use
    with start_sim_server("qwen2.5-7b-instruct", "l40s", "bf16", time_scale=0.25) as server:
        out = subprocess.run(
            [sys.executable, "-m", "advisor", "bench", "--url", server.base_url, "--model", "qwen2.5-7b-instruct",
             "--concurrency", "1,2", "--requests", "4", "--max-tokens", "96", "--prompt-tokens", "128",
             "--db", str(db), "--json", "--quiet"],
            cwd=ROOT, capture_output=True, text=True, timeout=180,
        )  # fmt: skip
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    tel = result["telemetry"]
    assert tel["nvml_state"] == "no_driver"  # this machine; the run goes on without local GPUs
    assert tel["simulated"] is True and "simulated" in tel["note_ids"]
    assert not any(n.startswith("telemetry.note.") for n in tel["notes"])  # words, never raw message keys
    assert tel["server_samples"] >= 2
    assert tel["kv_cache_peak"] is not None and 0 < tel["kv_cache_peak"] <= 1
    assert [s["label"] for s in tel["steps"]] == ["1", "2"]

    run_id = result["run_id"]
    records = BenchStore(db).records(run_id)
    store = TelemetryStore(db)
    server_samples = store.server_samples(run_id)
    gpu_samples = store.gpu_samples(run_id)  # the simulated server's DCGM-style readings
    assert len(server_samples) == tel["server_samples"]
    assert gpu_samples and all(s.simulated for s in gpu_samples)
    # One clock: the samples fall inside the span of the run's requests (give or take one sampling period).
    first = min(r.t_start for r in records)
    last = max(r.t_end for r in records if r.t_end)
    assert all(first - 1.5 <= s.t_s <= last + 1.5 for s in server_samples)
    assert any(first <= s.t_s <= last for s in server_samples)


def test_no_telemetry_flag(tmp_path):
    with start_sim_server("qwen2.5-7b-instruct", "l40s", "bf16", time_scale=0.2) as server:
        out = subprocess.run(
            [sys.executable, "-m", "advisor", "bench", "--url", server.base_url, "--model", "qwen2.5-7b-instruct",
             "--single", "--requests", "2", "--max-tokens", "8", "--no-store", "--no-telemetry", "--json", "--quiet"],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "telemetry" not in json.loads(out.stdout)


def test_a_run_shorter_than_the_sampling_period_still_has_gpu_figures(tmp_path):
    """The run takes well under the 10 s scrape period, and the sampler's first scrape is over before the run is
    bound (the worst case of the race a busy machine made likely): the run's start and end readings still give
    it the simulated server's DCGM-style GPU figures, per step in History."""
    import time

    from advisor.bench.history import RunHistory
    from advisor.bench.run_telemetry import RunTelemetry
    from advisor.bench.runner import Runner
    from advisor.domain.bench import BenchConfig

    db = tmp_path / "bench.sqlite3"
    with start_sim_server("qwen2.5-3b", "h100-sxm-80g", "bf16", time_scale=0.1) as server:
        store = BenchStore(db)
        telemetry = RunTelemetry(store.path, server.base_url + "/metrics", nvml=False, server_period_s=10.0).start()
        deadline = time.monotonic() + 10
        while telemetry.server.stats().ticks < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        config = BenchConfig.model_validate({
            "endpoint": {"url": server.base_url, "model": "qwen2.5-3b", "timeout_s": 20},
            "workload": {"prompt_tokens": {"mean": 64}, "output_tokens": {"mean": 16}},
            "schedule": {"kind": "fixed", "concurrency": [2], "requests": 4, "warmup_requests": 0}})

        def on_event(ev):
            if ev.kind == "run_started":
                telemetry.bind(ev.data["run_id"])

        try:
            run_id = Runner(config, store=store, on_event=on_event).run()["run_id"]
        finally:
            telemetry.stop()
            store.connection.close()
    records = BenchStore(db).records(run_id)
    gpu = TelemetryStore(db).gpu_samples(run_id)
    assert max(r.t_end for r in records) - min(r.t_start for r in records) < 10.0  # shorter than the period
    assert gpu and all(s.simulated and s.memory_used_bytes for s in gpu)
    assert max(s.t_s for s in gpu) >= max(r.t_end for r in records)  # the final reading, after the last request
    with RunHistory(db) as history:
        assert history.summary(run_id).gpu.endswith("(simulated)")
        memory = history.step_memory(run_id)
    assert memory and all(m["gpu_memory_peak_bytes"] and m["simulated"] for m in memory)
