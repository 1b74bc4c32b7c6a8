"""Benchmark evidence for the memo, read back from a real SQLite benchmark database."""

import json
from pathlib import Path

import pytest

from advisor.bench.report import sim_label
from advisor.bench.store import BenchStore
from advisor.domain.bench import Percentiles, StepSummary
from advisor.domain.telemetry import GpuSample
from advisor.i18n import translate
from advisor.plan.charts import latency_chart
from advisor.plan.evidence import EvidenceError, evidence_from_runs, plan_evidence
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from advisor.telemetry.store import TelemetryStore

GIB = 2**30
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "memo"


def _step(i: int, c: int, ttft_p99: float, tps: float, ok: int = 40) -> StepSummary:
    return StepSummary(step=i, concurrency=c, requests_ok=ok, ttft_ms=Percentiles(count=ok, p99=ttft_p99),
                       tpot_ms=Percentiles(count=ok, p99=20.0 + c), output_tokens_per_s=tps)


def _record_run(db, *, label: str, slo_ms: float | None, gpu: bool = True, dialect: str = "vllm",
                model: str = "qwen2.5-7b", gpu_name: str = "NVIDIA L40S", total_gib: int = 48,
                status: str = "completed", steps: list[StepSummary] | None = None) -> str:
    store = BenchStore(db)
    config = {"slo": {"ttft_ms": slo_ms}} if slo_ms else {}
    run_id = store.start_run(json.dumps(config), label=label, url="http://127.0.0.1:8000", model=model)
    if steps is None:
        steps = [_step(0, 1, 90.0, 40.0), _step(1, 4, 150.0, 150.0), _step(2, 16, 420.0, 520.0),
                 _step(3, 64, 2400.0, 610.0), _step(4, 128, 0.0, 0.0, ok=0)]
    for s in steps:
        store.add_step(s)
    store.flush()
    knee = {"concurrency": 16, "reason": "throughput_plateau", "message": ""}
    store.finish_run(status, json.dumps({"knee": knee, "dialect": dialect,
                                         "steps": [s.model_dump(mode="json") for s in steps]}))
    store.close()
    if gpu:
        tele = TelemetryStore(db)
        tele.add_gpu_samples(run_id, [
            GpuSample(t_s=float(t), index="0", name=gpu_name, memory_used_bytes=(total_gib - 18 + t) * GIB,
                      memory_total_bytes=total_gib * GIB)
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


def _plan() -> PlanResult:
    """The memo fixture's plan: Qwen3 8B on one L20 (48 GB)."""
    return PlanResult.model_validate_json((FIXTURES / "plan_result.json").read_text(encoding="utf-8"))


def _evidence_section(text: str, lang: str = "en") -> str:
    return text.split("## " + translate(lang, "memo.h.evidence"))[1].split("## " + translate(lang, "memo.h.findings"))[0]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_only_a_real_run_of_the_plans_model_and_gpu_is_measured_evidence(tmp_path, lang):
    db = tmp_path / "bench.sqlite3"
    real = _record_run(db, label="real L20", slo_ms=500.0, model="Qwen/Qwen3-8B", gpu_name="NVIDIA L20")
    sim = _record_run(db, label=sim_label("qwen3-8b", "l20-48g", "bf16", 1, 0.25), slo_ms=500.0,
                      dialect="simulated", model="qwen3-8b", gpu=False)
    other_gpu = _record_run(db, label="real L40S", slo_ms=500.0, model="Qwen/Qwen3-8B", gpu_name="NVIDIA L40S")
    other_model = _record_run(db, label="llama run", slo_ms=500.0, model="meta-llama/Llama-3.1-8B-Instruct",
                              gpu_name="NVIDIA L20")
    no_gpu = _record_run(db, label="remote box", slo_ms=500.0, model="Qwen/Qwen3-8B", gpu=False)
    ev = evidence_from_runs(db, [real, sim, other_gpu, other_model, no_gpu])
    assert [e.simulated for e in ev] == [False, True, False, False, False]
    assert ev[1].time_scale == 0.25 and ev[1].sim_gpu == "l20-48g" and ev[0].time_scale is None
    report = plan_evidence(_plan(), ev)
    assert [e.label for e in report.measured] == ["real L20"]
    assert [e.run_id for e in report.simulated] == [sim]
    assert {x.run.label: x.reason for x in report.excluded} == {
        "real L40S": "other_gpu", "llama run": "other_model", "remote box": "gpu_unknown"}
    assert report.bench_command is None  # something real was measured
    t = translate
    section = _evidence_section(render_memo_markdown(_plan(), lang, evidence=ev), lang)
    measured_table = section.split(t(lang, "evidence.sim.heading"))[0]
    assert "real L20" in measured_table and "real L40S |" not in measured_table and sim_label(
        "qwen3-8b", "l20-48g", "bf16", 1, 0.25) not in measured_table
    simulated = section.split(t(lang, "evidence.sim.heading"))[1]
    # the simulated run, with its time scale, its speeds at the simulated GPU's real-time speed (÷ scale / × scale)
    assert t(lang, "evidence.sim.scale", k="0.25") in simulated
    assert t(lang, "evidence.sim.speed", c=64, ttft="9,600", tps="152") in simulated
    excluded = section.split(t(lang, "evidence.excluded_intro"))[1]
    for label, why in (("real L40S", t(lang, "evidence.reason.other_gpu", gpu="NVIDIA L40S")),
                       ("llama run", t(lang, "evidence.reason.other_model", model="meta-llama/Llama-3.1-8B-Instruct")),
                       ("remote box", t(lang, "evidence.reason.gpu_unknown"))):
        assert t(lang, "evidence.excluded_item", run=label, why=why) in excluded, label
    # the latency chart draws only the real run as measured
    chart = latency_chart(_plan(), lang, measured=ev)
    assert [s.label for s in chart.series if s.role == "measured"] == [
        t(lang, "memo.chart.latency.measured", run="real L20")]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_plan_with_no_matching_measurement_says_so_and_gives_the_command(tmp_path, lang):
    db = tmp_path / "bench.sqlite3"
    # the A/B page's simulated side: no GPU and no time scale in its record
    ab = _record_run(db, label="A/B · B · awq-int4", slo_ms=500.0, dialect="simulated", model="qwen3-8b", gpu=False)
    ev = evidence_from_runs(db, [ab])
    assert ev[0].simulated and ev[0].time_scale is None
    plan = _plan()
    report = plan_evidence(plan, ev)
    assert report.measured == [] and report.simulated == []
    ramp = next(s.command for s in plan.next_steps if s.id == "ramp")
    assert report.bench_command == ramp and ramp.startswith("advisor bench ")
    section = _evidence_section(render_memo_markdown(plan, lang, evidence=ev), lang)
    assert translate(lang, "evidence.none_for_plan") in section and ramp in section
    assert translate(lang, "memo.evidence.intro") not in section  # no measured table at all
    # without any run the memo says the same: nothing measured for this plan, and how to measure it
    bare = _evidence_section(render_memo_markdown(plan, lang), lang)
    assert translate(lang, "evidence.none_for_plan") in bare and ramp in bare


def test_a_simulated_run_without_its_time_scale_shows_no_speed(tmp_path):
    db = tmp_path / "bench.sqlite3"
    sim = _record_run(db, label="sim", slo_ms=500.0, dialect="simulated", model="qwen3-8b", gpu_name="L20 (simulated)")
    [ev] = evidence_from_runs(db, [sim])
    report = plan_evidence(_plan(), [ev])
    assert report.simulated == [ev] and ev.time_scale is None
    section = _evidence_section(render_memo_markdown(_plan(), "en", evidence=[ev]))
    assert translate("en", "evidence.sim.speed_unknown") in section
    assert translate("en", "evidence.sim.scale_unknown") in section
    assert "tokens/s" not in section.split(translate("en", "evidence.sim.heading"))[1]


def _failed_steps(code: str, n: int = 8) -> list[StepSummary]:
    return [StepSummary(step=i, concurrency=c, requests_ok=0, requests_failed=n, failures={code: n}, status="failed")
            for i, c in enumerate((1, 4))]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize(("kind", "status", "steps", "reason"), [
    ("interrupted", "interrupted", None, "interrupted"),
    ("all_failed", "completed", _failed_steps("http_error:http_500"), "all_failed"),
    ("all_429", "completed", _failed_steps("http_error:http_429"), "rate_limited"),
    ("degraded_everywhere", "degraded", [_step(0, 1, 90.0, 40.0).model_copy(update={"status": "degraded"})],
     "nothing_measured"),
])
def test_interrupted_and_failed_runs_are_not_evidence(tmp_path, lang, kind, status, steps, reason):
    db = tmp_path / "bench.sqlite3"
    run_id = _record_run(db, label=f"run {kind}", slo_ms=500.0, model="Qwen/Qwen3-8B", gpu_name="NVIDIA L20",
                         status=status, steps=steps)
    ev = evidence_from_runs(db, [run_id])
    report = plan_evidence(_plan(), ev)
    assert report.measured == [] and [x.reason for x in report.excluded] == [reason]
    if reason in ("all_failed", "rate_limited"):
        assert report.excluded[0].params == {"n": 16}  # both levels' failures counted
    section = _evidence_section(render_memo_markdown(_plan(), lang, evidence=ev), lang)
    # "no level met the target" is never said of a run that served nothing
    assert translate(lang, "memo.evidence.none_within", ms="500") not in section
    assert f"run {kind}" in section.split(translate(lang, "evidence.excluded_intro"))[1]
    assert translate(lang, "evidence.none_for_plan") in section


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


def test_a_plan_without_a_gpu_of_its_own_has_no_measured_evidence_and_no_command(tmp_path):
    db = tmp_path / "bench.sqlite3"
    run = _record_run(db, label="real L20", slo_ms=500.0, model="Qwen/Qwen3-8B", gpu_name="NVIDIA L20")
    plan = _plan()
    hosted = plan.model_copy(update={"hardware": plan.hardware.model_copy(update={"gpu": None, "gpu_name": None})})
    report = plan_evidence(hosted, evidence_from_runs(db, [run]))
    assert report.measured == [] and [x.reason for x in report.excluded] == ["no_gpu_plan"]
    assert report.bench_command is None
