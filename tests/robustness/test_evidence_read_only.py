"""Issue #29: the memo's evidence reader and a stored result's reader only read. Writing a memo with
``--evidence RUN`` (``advisor.plan.evidence.evidence_from_runs``) or opening a stored run
(``advisor.bench.report.load_result``) leaves the benchmark database folder byte for byte and mtime for mtime as
it was (no WAL switch, no telemetry tables created, no -wal/-shm files), and still reads the run's GPU telemetry."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from advisor.bench.report import load_result
from advisor.bench.store import BenchStore
from advisor.domain.bench import Percentiles, StepSummary
from advisor.domain.telemetry import GpuSample
from advisor.plan.evidence import evidence_from_runs
from advisor.telemetry.store import TelemetryStore

GIB = 1024**3


def _state(folder: Path) -> dict[str, tuple[str, int]]:
    return {p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.iterdir()) if p.is_file()}


def _run_with_telemetry(db: Path, *, telemetry: bool) -> str:
    store = BenchStore(db)
    run_id = store.start_run("{}", model="qwen", url="http://127.0.0.1:1/v1")
    store.add_step(StepSummary(step=0, concurrency=4, requests_ok=8, output_tokens_per_s=120.0,
                               ttft_ms=Percentiles(p99=300.0), window_start_s=0.0, window_end_s=2.0))
    store.finish_run("completed", json.dumps({"steps": []}))
    store.close()
    if telemetry:
        tstore = TelemetryStore(db)
        tstore.add_gpu_samples(run_id, [GpuSample(t_s=1.0, index="0", name="NVIDIA L40S",
                                                  memory_used_bytes=30 * GIB, memory_total_bytes=45 * GIB)])
        tstore.close()
    conn = sqlite3.connect(db)  # at rest: the WAL folded back into the file, as after a clean exit
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    return run_id


def test_memo_evidence_and_stored_result_read_without_writing(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "bench.sqlite3"
    run_id = _run_with_telemetry(db, telemetry=True)
    before = _state(folder)

    [evidence] = evidence_from_runs(db, [run_id], slo_ttft_ms=500.0)
    result = load_result(run_id, db)

    assert _state(folder) == before  # nothing written, no journal mode switched, no -wal/-shm file
    assert evidence.peak_gpu_memory_bytes == 30 * GIB  # the telemetry is still read
    assert evidence.gpu_names == ["NVIDIA L40S"]
    assert evidence.max_concurrency_within_slo == 4
    assert result is not None and result["steps"]


def test_a_database_without_telemetry_tables_reads_as_no_telemetry(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "bench.sqlite3"
    run_id = _run_with_telemetry(db, telemetry=False)
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE IF EXISTS gpu_samples")
    conn.execute("DROP TABLE IF EXISTS server_samples")
    conn.commit()
    conn.close()
    before = _state(folder)

    [evidence] = evidence_from_runs(db, [run_id], slo_ttft_ms=500.0)
    assert load_result(run_id, db) is not None

    assert _state(folder) == before  # the telemetry tables are not created in the user's file
    assert evidence.peak_gpu_memory_bytes is None and evidence.gpu_names == []
