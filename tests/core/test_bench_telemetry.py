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
    with start_sim_server("qwen2.5-7b-instruct", "l40s", "bf16") as server:
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
