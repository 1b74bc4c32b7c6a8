"""advisor.bench.report: the words and tables of a result — knee, SLO verdict, client-bound steps, Markdown."""

from __future__ import annotations

import json

import pytest

from advisor import i18n, run_prediction
from advisor.bench import report
from advisor.bench.store import BenchStore
from advisor.domain.bench import ClientHealth, Percentiles, StepSummary


def step(c: int, ttft_p99: float, tpot_p99: float, tok_s: float, *, client_bound: bool = False) -> dict:
    s = StepSummary(
        step=c,
        concurrency=c,
        requests_ok=20,
        output_tokens_per_s=tok_s,
        ttft_ms=Percentiles(count=20, p50=ttft_p99 / 2, p99=ttft_p99),
        tpot_ms=Percentiles(count=20, p50=tpot_p99 / 2, p99=tpot_p99),
        client=ClientHealth(
            client_bound=client_bound, reasons=["client_cpu_saturated"] if client_bound else []
        ),
    )
    return s.model_dump(mode="json")


def result(**extra) -> dict:
    return {
        "run_id": "r1",
        "status": "completed",
        "url": "http://127.0.0.1:8000",
        "model": "m",
        "steps": [
            step(1, 300, 20, 50),
            step(2, 400, 22, 95),
            step(4, 900, 30, 180),
            step(8, 3000, 80, 190),
            step(16, 9000, 200, 100, client_bound=True),
        ],
        "knee": {
            "concurrency": 4,
            "reason": "throughput_plateau_latency_inflation",
            "message": "Knee at 4",
            "evidence": {
                "step_concurrency": 8,
                "previous_concurrency": 4,
                "baseline_concurrency": 1,
                "throughput_tok_s": [180, 190],
                "throughput_efficiency": 0.06,
                "latency_inflation_vs_baseline": {"tpot_p99": 4.0, "ttft_p99": 10.0},
                "server_queue": None,
            },
        },
        "slo": {"ttft_ms": 2000, "tpot_ms": 100, "percentile": 99},
        **extra,
    }


def test_slo_verdict_names_the_highest_concurrency_that_meets_it():
    text = report.slo_verdict(result())
    assert (
        text == "Meets TTFT p99 ≤ 2,000 ms and TPOT p99 ≤ 100 ms up to concurrency 4 (broken at 8)."
    )
    r = result()
    r["slo"] = {"ttft_ms": 100, "percentile": 99}
    assert report.slo_verdict(r).startswith("Does not meet TTFT p99 ≤ 100 ms, not even at concurrency 1")
    r["slo"] = {}
    assert "No SLO set" in report.slo_verdict(r)
    i18n.set_language("zh_CN")
    assert "4 个并发请求" in report.slo_verdict(result())


def lost_at(c: int, *, ok: int = 5, stop_reason: str | None = None) -> dict:
    """A step at concurrency c during which the server was killed: refused and dropped connections."""
    s = step(c, 60, 4, 300)
    failures = {"connect_error:ConnectionRefusedError": 2, "truncated:closed_without_finish_reason": 1}
    s.update(requests_ok=ok, requests_failed=3, error_rate=3 / (ok + 3), failures=failures, stop_reason=stop_reason)
    return s


def test_a_server_lost_mid_run_leaves_the_slo_unjudged_there_not_failed():
    # Killed at concurrency 1 (a real llama.cpp): this read "Does not meet …, not even at concurrency 1. At
    # concurrency 1, 38% of the requests failed …: the latency limits held, the failures broke it."
    for last in (lost_at(1), lost_at(1, ok=0, stop_reason="server_lost")):
        text = report.slo_verdict(result(steps=[last]))
        assert text == ("TTFT p99 ≤ 2,000 ms and TPOT p99 ≤ 100 ms could not be judged: the server stopped "
                        "answering at concurrency 1.")  # fmt: skip
        i18n.set_language("zh_CN")
        text = report.slo_verdict(result(steps=[last]))
        assert "无法判断" in text and "不再响应" in text and "达不到" not in text
        i18n.set_language("en")
    # levels before it met the SLO: they stand, and the lost level is named as not judged
    text = report.slo_verdict(result(steps=[step(1, 300, 20, 50), step(2, 400, 22, 95), lost_at(4)]))
    assert text == ("Meets TTFT p99 ≤ 2,000 ms and TPOT p99 ≤ 100 ms up to concurrency 2; at 4 it could "
                    "not be judged: the server stopped answering.")  # fmt: skip
    # a level that broke it before the server was lost still broke it
    text = report.slo_verdict(result(steps=[step(1, 300, 20, 50), step(2, 4000, 22, 95), lost_at(4)]))
    assert text == "Meets TTFT p99 ≤ 2,000 ms and TPOT p99 ≤ 100 ms up to concurrency 1 (broken at 2)."
    # failures that are not a lost server (answers cut off by a live one) still break it
    cut = lost_at(1)
    cut["failures"] = {"truncated:done_without_finish_reason": 3}
    text = report.slo_verdict(result(steps=[cut]))
    assert text.startswith("Does not meet") and "the failures broke it" in text


def test_knee_row_and_client_bound_step_are_told_apart():
    rows = report.step_rows(result())
    assert [r["concurrency"] for r in rows if r["knee"]] == [4]
    assert [r["concurrency"] for r in rows if r["client_bound"]] == [16]
    notes = report.client_bound_notes(result())
    assert len(notes) == 1 and "concurrency 16" in notes[0] and "more client processes" in notes[0]
    # a client-bound step is never shown as the knee, even if the knee says so
    r = result()
    r["knee"]["concurrency"] = 16
    assert not any(row["knee"] for row in report.step_rows(r))


def test_knee_evidence_lines():
    message, lines = report.knee_text(result())
    # rebuilt from the reason and evidence in the current language, not the stored sentence
    assert message.startswith("Knee at concurrency 4: going to 8 added only 6%")
    assert report.knee_text(result(knee={"concurrency": 4, "reason": "from_elsewhere", "message": "Knee at 4"}))[0] \
        == "Knee at 4"  # a reason this version does not know: the stored sentence
    assert any("6% of a linear gain" in line for line in lines)
    assert any("TTFT P99 grew to 10.00×" in line for line in lines)


def test_markdown_has_the_table_and_the_flags():
    md = report.to_markdown(result(simulated=True))
    assert "| concurrency | ok | failed |" in md
    assert "◀ knee" in md and "client-bound" in md and "simulated · 模拟" in md
    assert md.count("\n| ") == 1 + 5  # header row + one row per step


def test_load_result_from_the_store(tmp_path):
    db = tmp_path / "bench.sqlite3"
    store = BenchStore(db)
    label = report.sim_label("qwen2.5-7b-instruct", "l4", None, 1)
    run_id = store.start_run(
        json.dumps({"slo": {"ttft_ms": 2000}, "workload": {"seed": 0}}),
        label=label,
        url="http://127.0.0.1:1",
        model="qwen2.5-7b-instruct",
    )
    store.finish_run("completed", json.dumps(result()))
    store.close()
    loaded = report.load_result(run_id, db)
    assert loaded is not None and loaded["status"] == "completed" and len(loaded["steps"]) == 5
    assert loaded["simulated"] is True
    assert loaded["setup"]["model"] == "qwen2.5-7b-instruct" and loaded["setup"]["gpu"] == "l4"
    assert report.load_result("no-such-run", db) is None
    assert report.parse_sim_label("my own label") is None


def test_predicted_curve_for_the_same_setup():
    from advisor.bench.presets import get_preset

    p = run_prediction.predicted_curve(
        "qwen2.5-7b-instruct", "h100-sxm-80g", None, 1, get_preset("short_chat").workload(), [1, 4]
    )
    assert [lv.concurrency for lv in p.levels] == [1, 4]
    assert p.levels[1].output_tokens_per_s > p.levels[0].output_tokens_per_s


def test_a_step_is_predicted_as_it_ran_so_measured_and_predicted_count_the_same_thing():
    # 8 users, 24 requests in all (3 each), started together: the step spends part of its time filling up and
    # draining, which the steady-state curve does not see (its TTFT missed the lock-step prefills by ~60 % and its
    # throughput read ~10 % high on this very setup). Measured over real HTTP against the simulated server.
    from advisor.bench.runner import Runner
    from advisor.domain.bench import BenchConfig
    from advisor.sim.launcher import SimLauncher, SimLaunchSpec

    model, gpu, scale = "qwen2.5-7b-instruct", "l4", 0.5
    with SimLauncher(SimLaunchSpec(model=model, gpu=gpu, weights="bf16", time_scale=scale)) as sim:
        config = BenchConfig.model_validate({
            "endpoint": {"url": sim.base_url, "model": model, "timeout_s": 60, "read_timeout_s": 30},
            "workload": {"prompt_tokens": {"mean": 256}, "output_tokens": {"mean": 32}},
            # started together, as the comment says: the default stagger would spread the first requests and take
            # away the lock-step prefills this test is about
            "schedule": {"kind": "fixed", "concurrency": [8], "requests": 24, "warmup_requests": 0, "stagger": False},
        })  # fmt: skip
        result = Runner(config).run()
    (step,) = result["steps"]
    assert step["requests_ok"] == 24
    as_run = run_prediction.predicted_curve(model, gpu, "bf16", 1, config.workload, [8], time_scale=scale,
                                    steps=result["steps"]).levels[0]  # fmt: skip
    steady = run_prediction.predicted_curve(model, gpu, "bf16", 1, config.workload, [8], time_scale=scale).levels[0]
    measured_tps, measured_ttft = step["output_tokens_per_s"], step["ttft_ms"]["p50"]
    assert as_run.output_tokens_per_s == pytest.approx(measured_tps, rel=0.12)
    assert as_run.ttft_ms.p50 == pytest.approx(measured_ttft, rel=0.25)
    assert abs(as_run.ttft_ms.p50 - measured_ttft) < abs(steady.ttft_ms.p50 - measured_ttft)


def test_simulate_step_counts_every_request_over_the_whole_span():
    from advisor.catalog import get_gpu, get_model
    from advisor.domain.sim import LengthDistribution, SimWorkload
    from advisor.sim.costs import build_setup
    from advisor.sim.predict import simulate_concurrency, simulate_step

    setup = build_setup(get_model("qwen2.5-7b-instruct"), get_gpu("l4"), "bf16")
    wl = SimWorkload(prompt=LengthDistribution.fixed(256), output=LengthDistribution.fixed(32))
    lv = simulate_step(setup.costs, setup.limits, wl, 8, 24)
    assert lv.ttft_ms.p50 is not None and lv.concurrency == 8
    # 24 answers of 32 tokens over the span from the first send to the last answer
    span_s = 24 * 32 / lv.output_tokens_per_s
    assert lv.requests_per_s == pytest.approx(24 / span_s)
    # a whole step, start-up and drain included, sustains less than the steady state
    assert lv.output_tokens_per_s < simulate_concurrency(setup.costs, setup.limits, wl, 8).output_tokens_per_s
    with pytest.raises(ValueError):
        simulate_step(setup.costs, setup.limits, wl, 8, 24, stagger_s=-1.0)
