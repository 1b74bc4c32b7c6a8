"""Benchmark evidence for the memo, read back from a real SQLite benchmark database."""

import json
from pathlib import Path

import pytest

from advisor.bench.store import BenchStore
from advisor.domain.bench import Percentiles, StepSummary
from advisor.domain.telemetry import GpuSample
from advisor.plan.evidence import EvidenceError, evidence_from_runs
from advisor.telemetry.store import TelemetryStore

GIB = 2**30


def _step(i: int, c: int, ttft_p99: float, tps: float, ok: int = 40) -> StepSummary:
    return StepSummary(step=i, concurrency=c, requests_ok=ok, ttft_ms=Percentiles(count=ok, p99=ttft_p99),
                       tpot_ms=Percentiles(count=ok, p99=20.0 + c), output_tokens_per_s=tps)


def _record_run(db, *, label: str, slo_ms: float | None, gpu: bool = True, dialect: str = "vllm") -> str:
    store = BenchStore(db)
    config = {"slo": {"ttft_ms": slo_ms}} if slo_ms else {}
    run_id = store.start_run(json.dumps(config), label=label, url="http://127.0.0.1:8000", model="qwen2.5-7b")
    steps = [_step(0, 1, 90.0, 40.0), _step(1, 4, 150.0, 150.0), _step(2, 16, 420.0, 520.0), _step(3, 64, 2400.0, 610.0),
             _step(4, 128, 0.0, 0.0, ok=0)]
    for s in steps:
        store.add_step(s)
    store.flush()
    knee = {"concurrency": 16, "reason": "throughput_plateau", "message": ""}
    store.finish_run("completed", json.dumps({"knee": knee, "dialect": dialect,
                                              "steps": [s.model_dump(mode="json") for s in steps]}))
    store.close()
    if gpu:
        tele = TelemetryStore(db)
        tele.add_gpu_samples(run_id, [
            GpuSample(t_s=float(t), index="0", name="NVIDIA L40S", memory_used_bytes=(30 + t) * GIB,
                      memory_total_bytes=48 * GIB)
            for t in range(5)
        ])
        tele.close()
    return run_id


def test_evidence_reads_knee_ttft_at_the_target_and_peak_memory(tmp_path):
    db = tmp_path / "bench.sqlite3"
    run_id = _record_run(db, label="ramp on L40S", slo_ms=500.0)
    [ev] = evidence_from_runs(db, [run_id])
    assert ev.run_id == run_id and ev.label == "ramp on L40S" and ev.status == "completed"
    assert ev.knee_concurrency == 16
    assert ev.slo_ttft_ms == 500.0
    assert ev.max_concurrency_within_slo == 16  # 64 broke the 500 ms target
    assert ev.ttft_p99_at_slo_ms == 420.0
    assert ev.output_tokens_per_s_at_slo == 520.0
    assert ev.peak_gpu_memory_bytes == 34 * GIB
    assert ev.gpu_memory_total_bytes == 48 * GIB
    assert ev.gpu_names == ["NVIDIA L40S"]
    assert [lv.concurrency for lv in ev.levels] == [1, 4, 16, 64]  # the step with no successful request is left out


def test_the_plans_target_wins_over_the_runs(tmp_path):
    db = tmp_path / "bench.sqlite3"
    run_id = _record_run(db, label="", slo_ms=500.0)
    [ev] = evidence_from_runs(db, [run_id], slo_ttft_ms=100.0)
    assert ev.slo_ttft_ms == 100.0
    assert ev.max_concurrency_within_slo == 1 and ev.ttft_p99_at_slo_ms == 90.0
    [strict] = evidence_from_runs(db, [run_id], slo_ttft_ms=50.0)
    assert strict.max_concurrency_within_slo is None and strict.ttft_p99_at_slo_ms is None


def test_no_target_and_no_telemetry_are_reported_as_unknown(tmp_path):
    db = tmp_path / "bench.sqlite3"
    run_id = _record_run(db, label="", slo_ms=None, gpu=False)
    [ev] = evidence_from_runs(db, [run_id])
    assert ev.slo_ttft_ms is None and ev.max_concurrency_within_slo is None
    assert ev.peak_gpu_memory_bytes is None and ev.gpu_names == []


def test_runs_come_back_in_the_order_asked(tmp_path):
    db = tmp_path / "bench.sqlite3"
    first = _record_run(db, label="a", slo_ms=500.0)
    second = _record_run(db, label="b", slo_ms=500.0)
    assert [e.label for e in evidence_from_runs(db, [second, first])] == ["b", "a"]
    assert evidence_from_runs(db, []) == []


def test_unknown_run_or_missing_database_is_a_clear_error(tmp_path):
    db = tmp_path / "bench.sqlite3"
    _record_run(db, label="a", slo_ms=500.0)
    with pytest.raises(EvidenceError, match="no-such-run"):
        evidence_from_runs(db, ["no-such-run"])
    with pytest.raises(EvidenceError, match="advisor bench"):
        evidence_from_runs(tmp_path / "absent.sqlite3", ["x"])


def test_runs_against_the_simulated_server_are_labelled(tmp_path):
    from advisor.i18n import translate
    from advisor.plan.memo import render_memo_markdown
    from advisor.plan.result import PlanResult

    db = tmp_path / "bench.sqlite3"
    real = _record_run(db, label="real", slo_ms=500.0)
    sim = _record_run(db, label="sim", slo_ms=500.0, dialect="simulated")
    ev = evidence_from_runs(db, [real, sim])
    assert [e.simulated for e in ev] == [False, True]
    result = PlanResult.model_validate_json(
        (Path(__file__).resolve().parents[1] / "fixtures" / "memo" / "plan_result.json").read_text(encoding="utf-8"))
    text = render_memo_markdown(result, "en", evidence=ev)
    assert f"sim {translate('en', 'memo.evidence.simulated')}" in text
    assert f"real {translate('en', 'memo.evidence.simulated')}" not in text


def test_a_level_with_failures_or_a_lost_server_is_no_evidence_of_serving_that_load(tmp_path):
    # steps 1 and 4 fine; at 16 the server died: 1 of 8 requests finished, quickly — it must not read as
    # "serves 16 within the TTFT target", nor be drawn on the memo's latency chart
    db = tmp_path / "bench.sqlite3"
    store = BenchStore(db)
    run_id = store.start_run(json.dumps({"slo": {"ttft_ms": 500.0}}), label="killed", url="http://127.0.0.1:8000", model="m")
    lost = _step(2, 16, 80.0, 30.0, ok=1).model_copy(update={
        "requests_failed": 7, "error_rate": 7 / 8, "status": "degraded", "stop_reason": "server_lost",
        "failures": {"connect_error:ConnectionRefusedError": 5, "truncated:connection_lost": 2}})  # fmt: skip
    for s in (_step(0, 1, 90.0, 40.0), _step(1, 4, 150.0, 150.0), lost):
        store.add_step(s)
    store.flush()
    store.finish_run("failed", json.dumps({"knee": {}, "dialect": "vllm"}))
    store.close()
    [ev] = evidence_from_runs(db, [run_id])
    assert [lv.concurrency for lv in ev.levels] == [1, 4, 16] and ev.levels[-1].status == "degraded"
    assert ev.max_concurrency_within_slo == 4 and ev.ttft_p99_at_slo_ms == 150.0
    assert [c for c, _ in ev.ttft_p99_by_concurrency] == [1, 4]
