"""A time-scaled simulator run's figures are shown at the simulated GPU's real speed, and runs of different
provenance are never ranked against each other (issue #26: "9,447 tok/s" for a 14B model, "best +703 %")."""

import json

import pytest

from advisor.bench import report
from advisor.bench.history import RunHistory
from advisor.bench.provenance import at_real_speed, time_scale_of
from advisor.bench.store import BenchStore
from advisor.domain.bench import Percentiles, StepSummary


def _step(concurrency: int, ttft: float, tpot: float, tok_s: float) -> StepSummary:
    return StepSummary(step=0, concurrency=concurrency, requests_ok=16, requests_failed=0, duration_s=10.0,
                       ttft_ms=Percentiles(mean=ttft, p50=ttft, p90=ttft, p95=ttft, p99=ttft),
                       tpot_ms=Percentiles(mean=tpot, p50=tpot, p90=tpot, p95=tpot, p99=tpot),
                       output_tokens_per_s=tok_s, requests_per_s=tok_s / 100)


def _store_run(db, label: str, step: StepSummary, result: dict) -> str:
    store = BenchStore(db)
    run_id = store.start_run(json.dumps({"workload": {"prompt_tokens": {"mean": 1000}}, "schedule": {"kind": "fixed"}}),
                             label=label, url="http://127.0.0.1:1/v1", model="qwen2.5-14b-instruct")
    store.add_step(step)
    store.finish_run("completed", json.dumps({**result, "steps": [step.model_dump(mode="json")]}))
    store.close()
    return run_id


@pytest.fixture
def runs(tmp_path):
    db = tmp_path / "bench.sqlite3"
    fast = _store_run(db, report.sim_label("qwen2.5-14b-instruct", "l40s", "bf16", 1, 0.1),
                      _step(8, 40.0, 4.5, 9447.0), {"simulated": True})
    real = _store_run(db, report.sim_label("qwen2.5-14b-instruct", "l40s", "bf16", 1, 1.0),
                      _step(8, 400.0, 45.0, 1176.0), {"simulated": True})
    return db, fast, real


def test_the_scale_is_read_from_what_the_run_recorded():
    assert time_scale_of({"setup": {"time_scale": 0.25}}) == 0.25
    assert time_scale_of({"provenance": {"time_scale": 0.5}}) == 0.5
    assert time_scale_of(label=report.sim_label("m", "l4", "bf16", 1, 0.1)) == 0.1
    assert time_scale_of({"steps": []}, {}, "my own label") is None  # a real server: nothing to convert


def test_a_sped_up_run_is_shown_at_the_simulated_gpus_real_speed():
    raw = {"setup": {"time_scale": 0.1}, "steps": [_step(8, 40.0, 4.5, 9447.0).model_dump(mode="json")]}
    shown = at_real_speed(raw)
    step = shown["steps"][0]
    assert step["ttft_ms"]["p50"] == pytest.approx(400.0) and step["tpot_ms"]["p99"] == pytest.approx(45.0)
    assert step["output_tokens_per_s"] == pytest.approx(944.7)
    assert shown["provenance"]["shown_at_real_speed"] and shown["provenance"]["time_scale"] == 0.1
    assert at_real_speed(shown) is shown  # converted once, never twice
    assert raw["steps"][0]["ttft_ms"]["p50"] == 40.0  # the stored figures stay as measured
    markdown = report.to_markdown(raw)
    assert "944.7" in markdown or "945" in markdown
    assert "9447" not in markdown and "9,447" not in markdown
    assert "×0.1" in markdown


def test_history_lists_real_speed_and_compare_does_not_rank_different_time_scales(runs):
    db, fast, real = runs
    with RunHistory(db) as h:
        assert h.summary(fast).time_scale == 0.1
        assert h.summary(fast).peak_output_tokens_per_s == pytest.approx(944.7)
        c = h.compare([fast, real])
    rows = {(d["metric"], d["concurrency"]): d for d in c["differences"]}
    thr = rows[("output_tokens_per_s", 8)]
    assert thr["values"] == [pytest.approx(944.7), pytest.approx(1176.0)]
    assert all(d["best"] is None for d in c["differences"])  # not ranked: +703 % "best" was the bug
    assert any("time scales" in n for n in c["notes"]) and any("none is marked best" in n for n in c["notes"])
