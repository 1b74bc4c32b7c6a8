"""The plan's latency curve is physically sensible: TTFT never falls as concurrency rises (issue 9 follow-up)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, make_plan, sizing
from advisor.plan.context import resolve
from tests.support.planned import planned

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.answers.json"))
SCENARIOS = sorted((ROOT / "tests" / "fixtures" / "plan_scenarios").glob("*.json"))


def _answers(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data.get("answers", data)


@pytest.mark.parametrize("path", EXAMPLES + SCENARIOS, ids=lambda p: p.stem)
def test_ttft_non_decreasing_in_concurrency(path: Path) -> None:
    r = planned(_answers(path))  # planned once per session, shared with the other files that read it
    pts = r.latency_curve.points
    for a, b in zip(pts, pts[1:], strict=False):
        assert b.concurrency > a.concurrency
        assert b.ttft_p99_ms >= a.ttft_p99_ms, (a, b)
        assert b.ttft_p50_ms >= a.ttft_p50_ms, (a, b)
    if pts:
        at = next(p for p in pts if p.concurrency == r.capacity.concurrency_per_replica)
        assert r.capacity.ttft_p99_ms == at.ttft_p99_ms  # the card and the curve agree


def test_fast_launch_p99_at_one_user_is_the_p99_prompt_prefill() -> None:
    """At one user the TTFT p99 is the prefill of the p99 prompt, not the maximum of two samples."""
    a = answers_from_dict(_answers(ROOT / "examples" / "fast-launch.answers.json"))
    r = make_plan(a)
    one = r.latency_curve.points[0]
    assert one.concurrency == 1
    ctx = resolve(a)
    p99 = sizing.prompt_p99_tokens(ctx)
    assert ctx.prompt_p95 <= p99 <= int(ctx.prompt_p95 * 1.5)  # the stated p95 prompt is really drawn
    assert one.ttft_p99_ms >= one.ttft_p50_ms
    assert one.ttft_p99_ms <= r.latency_curve.points[2].ttft_p99_ms


def test_monotone_ttft_raises_never_lowers() -> None:
    from advisor.domain.sim import LevelPrediction

    fields = LevelPrediction.model_fields
    assert "ttft_ms" in fields
    ctx = resolve(answers_from_dict(_answers(ROOT / "examples" / "fast-launch.answers.json")))
    raw = {c: sizing.simulate_concurrency(*_sim_args(ctx), c, measure=2) for c in (1, 8)}
    out = sizing.monotone_ttft([raw[1], raw[8]])
    assert out[0].ttft_ms.p99 == raw[1].ttft_ms.p99
    assert out[1].ttft_ms.p99 == max(raw[1].ttft_ms.p99, raw[8].ttft_ms.p99)


def _sim_args(ctx):
    from advisor.plan import engine

    region, _ = engine.decide_region(ctx)
    ok, _near = sizing.screen(ctx, engine.candidate_gpus(ctx, region), lambda g: 1.0)
    cand = ok[0]
    return cand.costs, sizing.limits(ctx, cand), sizing.workload(ctx)
