"""The plan's latency curve and ``advisor predict`` / the Sizing page read one simulator setup (issues #25, #27).

For the plan's chosen setup, the predictor's own builder (``advisor.sim.costs.build_setup`` on the plan's sizing
request, as ``advisor.sizing_curve.request_curve`` calls it) gives the same step costs and engine limits — the
serving engine's per-request overhead and step-ahead scheduling included — and each level the memo prints is the
predictor's level on that setup and workload, read the way the plan documents (``advisor.plan.sizing``, comment
at STEPS_PER_LEVEL): the plan measures ``measured_requests`` requests per level (the Sizing page more), floors a
short sample's TTFT p99 at the analytic p99, and reads levels through a running maximum. Nothing else differs.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, make_plan, sizing
from advisor.plan.context import resolve
from advisor.sim.costs import build_setup
from advisor.sim.monotone import monotone_latency
from advisor.sim.predict import simulate_concurrency

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"


def _chosen(scenario: str):
    """(ctx, the plan's chosen candidate, the plan's result) for an advice scenario."""
    answers = answers_from_dict(json.loads(next(SCENARIOS.glob(f"{scenario}_*.json")).read_text("utf-8"))["answers"])
    result = make_plan(answers)
    ctx = resolve(answers)
    hw = result.hardware
    ok, near = sizing.screen(ctx, [hw.gpu], lambda _gpu: 1.0)
    cand = next((c for c in [*ok, *near] if (c.weights, c.kv_dtype, c.tp) == (hw.weights, hw.kv_dtype, hw.tp)), None)
    if cand is None and hw.kv_dtype == "fp8":  # the plan set an FP8 cache for the failover load (kv_fp8_set.py)
        base = next(c for c in [*ok, *near] if (c.weights, c.tp) == (hw.weights, hw.tp))
        cand = dataclasses.replace(base, kv_dtype="fp8", memory=sizing._memory(
            ctx, base.gpu, base.weights, "fp8", base.tp, sizing._engine(ctx, base.gpu)),
            costs=sizing.step_costs(ctx, base.gpu, base.weights, "fp8", base.tp), checked={})
        cand._peak = base._peak
    assert cand is not None
    return ctx, cand, result


def _predictor_setup(ctx, cand):
    req = sizing.sizing_request(ctx, cand)
    return build_setup(req.model, req.gpu, req.weights, gpus=req.gpus, kv_dtype=req.kv_dtype, context=req.context,
                       engine=req.engine, factors=req.factors, profile=req.engine_profile)  # fmt: skip


@pytest.mark.parametrize("scenario", ["q14", "q24"])
def test_plan_simulates_the_predictors_setup(scenario):
    ctx, cand, _ = _chosen(scenario)
    setup = _predictor_setup(ctx, cand)
    assert sizing.limits(ctx, cand) == setup.limits
    assert setup.limits.request_overhead_s > 0 and setup.limits.schedule_ahead  # vLLM today: both apply
    assert cand.costs.scheduler_s_per_seq > 0  # the engine's scheduling cost per running request
    for f in dataclasses.fields(setup.costs):
        if f.compare:  # not the caches of computed terms (_token_terms, _fixed_read): they are not costs
            assert getattr(cand.costs, f.name) == getattr(setup.costs, f.name), f.name


@pytest.mark.parametrize("scenario", ["q14", "q24"])
def test_memo_curve_is_the_predictors_levels(scenario):
    ctx, cand, result = _chosen(scenario)
    setup = _predictor_setup(ctx, cand)
    work = sizing.workload(ctx)
    points = result.latency_curve.points
    assert len(points) >= 4
    expected = []
    for pt in points:
        n = sizing.measured_requests(ctx, pt.concurrency)
        lv = simulate_concurrency(setup.costs, setup.limits, work, pt.concurrency, measure=n)
        if n < sizing.STABLE_P99_SAMPLES:  # the documented floor of a short sample's TTFT p99
            floor = sizing.analytic_ttft_p99_ms(ctx, cand, pt.concurrency)
            lv = lv.model_copy(update={"ttft_ms": lv.ttft_ms.model_copy(update={"p99": max(lv.ttft_ms.p99, floor)})})
        expected.append(lv)
    for pt, lv in zip(points, monotone_latency(expected), strict=True):
        got = (pt.ttft_p50_ms, pt.ttft_p99_ms, pt.tpot_p50_ms, pt.tpot_p99_ms)
        want = tuple(round(v, 1) for v in (lv.ttft_ms.p50, lv.ttft_ms.p99, lv.tpot_ms.p50, lv.tpot_ms.p99))
        assert got == pytest.approx(want, abs=0.051), pt.concurrency
    # the highest level measures enough requests for its p99s: there the memo prints the predictor's figures as is
    top = points[-1]
    n = sizing.measured_requests(ctx, top.concurrency)
    if n >= sizing.STABLE_P99_SAMPLES:
        raw = simulate_concurrency(setup.costs, setup.limits, work, top.concurrency, measure=n)
        assert top.ttft_p99_ms >= round(raw.ttft_ms.p99, 1) - 0.051


def test_ttft_floor_counts_the_servers_time_and_the_step_planned_ahead():
    ctx, cand, _ = _chosen("q14")
    lim = sizing.limits(ctx, cand)
    one = sizing.analytic_ttft_p99_ms(ctx, cand, 1)  # nothing running: no step to wait for
    assert one >= lim.request_overhead_s * 1000
    # with others running, the wait is the step under way and the one already planned (schedule ahead)
    busy = sizing.analytic_ttft_p99_ms(ctx, cand, 16)
    assert busy > one


def test_the_curve_reaches_the_level_the_binding_line_says_breaks_the_target():
    """q39: the binding line says the target breaks at 37 per replica; the memo's curve stopped at twice the load
    (12), so "at most 12 within the target" read as the end of what was predicted. The curve now shows that level."""
    _, _, result = _chosen("q39")
    size = result.binding_constraint.figures.get("size", result.binding_constraint.figures)
    at = size["at"]
    points = {p.concurrency: p for p in result.latency_curve.points}
    assert at in points and at <= 8 * result.latency_curve.operating_concurrency
    curve = result.latency_curve
    broke = points[at]
    assert broke.tpot_p99_ms > curve.slo_tpot_p99_ms or broke.ttft_p99_ms > curve.slo_ttft_p99_ms
    for c, p in points.items():
        if c < at:  # every level shown below it meets the target
            assert p.tpot_p99_ms <= curve.slo_tpot_p99_ms and p.ttft_p99_ms <= curve.slo_ttft_p99_ms, c
