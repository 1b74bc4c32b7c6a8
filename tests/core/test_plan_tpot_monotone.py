"""Latency numbers that agree with each other (#25): in a closed loop more concurrent requests never make each token
come faster, so the plan's curve never shows TPOT falling as concurrency rises (q11 printed TPOT p99 53.9 ms at 5
per replica and 42.4 ms at 6: the noise of a short simulated sample), and the capacity the plan claims meets the TPOT
target at every level up to it, as the curve the memo prints shows them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sim import LevelPrediction, Percentiles
from advisor.domain.sizing import SizingRequest
from advisor.sim.monotone import monotone_latency
from advisor.sizing_curve import request_curve
from tests.support.planned import planned, scenario_answers

ROOT = Path(__file__).resolve().parents[2]
ADVICE = sorted((ROOT / "bench" / "advice_scenarios").glob("*.json"))
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "plan_scenarios").glob("*.json"))


def _non_decreasing(values: list[float | None]) -> bool:
    known = [v for v in values if v is not None]
    return all(b >= a for a, b in zip(known, known[1:], strict=False))


@pytest.mark.parametrize("path", ADVICE + FIXTURES, ids=lambda p: p.stem)
def test_curve_tpot_never_falls_and_the_claim_meets_the_target(path: Path) -> None:
    r = planned(scenario_answers(path))
    pts = r.latency_curve.points
    assert [p.concurrency for p in pts] == sorted({p.concurrency for p in pts})
    assert _non_decreasing([p.tpot_p99_ms for p in pts]), [(p.concurrency, p.tpot_p99_ms) for p in pts]
    assert _non_decreasing([p.tpot_p50_ms for p in pts]), [(p.concurrency, p.tpot_p50_ms) for p in pts]
    assert _non_decreasing([p.ttft_p99_ms for p in pts])
    cap, slo = r.capacity, r.latency_curve.slo_tpot_p99_ms
    if pts and cap.simulated:
        at = next((p for p in pts if p.concurrency == cap.concurrency_per_replica), None)
        if at is not None:  # the card and the curve read the same level
            assert cap.tpot_p99_ms == at.tpot_p99_ms
    claim = cap.max_concurrency_per_replica
    if pts and slo is not None and claim and cap.meets_slo:
        # every level the curve shows up to the claim meets the TPOT target: the claim never rests on a dip
        for p in pts:
            if p.concurrency <= claim:
                assert p.tpot_p99_ms is not None and p.tpot_p99_ms <= slo, (claim, p)


def _level(c: int, tpot_p99: float, tpot_p50: float) -> LevelPrediction:
    def pct(p50: float, p99: float) -> Percentiles:
        return Percentiles(mean=p50, p50=p50, p90=p99, p95=p99, p99=p99)

    return LevelPrediction(concurrency=c, requests=10, ttft_ms=pct(100.0, 200.0), tpot_ms=pct(tpot_p50, tpot_p99),
                           itl_ms=pct(1.0, 2.0), e2e_ms=pct(1.0, 2.0), output_tokens_per_s=1.0, requests_per_s=0.1,
                           kv_usage={}, queue={}, running={}, preemptions=0, mean_in_flight=float(c))  # fmt: skip


def test_monotone_latency_raises_a_dip_and_never_lowers() -> None:
    raw = [_level(1, 31.4, 20.0), _level(5, 53.9, 35.3), _level(6, 42.4, 36.0), _level(10, 58.2, 34.0)]
    out = monotone_latency(raw)
    assert [lv.tpot_ms.p99 for lv in out] == [31.4, 53.9, 53.9, 58.2]
    assert [lv.tpot_ms.p50 for lv in out] == [20.0, 35.3, 36.0, 36.0]
    assert out[0] is raw[0] and out[1] is raw[1]  # a level that needs nothing is the same object
    assert out[2].tpot_ms.mean == 36.0  # the sample's own mean stays


def test_sizing_page_curve_tpot_never_falls() -> None:
    """The Sizing page draws the predictor's levels through the same running maximum as the plan."""
    req = SizingRequest(model=get_model("qwen2.5-32b-instruct"), gpu=get_gpu("l20-48g"), weights="fp8", gpus=2,
                        context=8192, concurrency=6)  # fmt: skip
    levels = request_curve(req).levels
    assert len(levels) > 3
    assert _non_decreasing([lv.tpot_ms.p99 for lv in levels])
    assert _non_decreasing([lv.tpot_ms.p50 for lv in levels])
    assert _non_decreasing([lv.ttft_ms.p99 for lv in levels])


def test_scenario_files_are_found() -> None:
    assert ADVICE and FIXTURES
    assert all("answers" in json.loads(p.read_text(encoding="utf-8")) for p in ADVICE)
