"""The latency table's flat first-token row, its jump past the engine's cap and a throughput dip, said for what they
are (issue 25, tenth blind review, q04/q07/q20; s21-replica21: ``advisor.plan.memo_curve_reading``).

The physics first: continuous batching loses no throughput with more requests below the engine's cap and the KV
limit. The simulator holds to it on a sample long enough to read (q04's H20 setup, 400 requests a level); the plan's
short samples (8-128 requests a level) can dip, and the memo says so where they do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan import sizing
from advisor.plan.answers import PlanAnswers
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_curve_reading import flat_ttft, seat_jump, throughput_dip
from advisor.plan.result import CurvePoint
from tests.support.planned import planned

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
NAMES = sorted(p.stem for p in SCEN.glob("*.json"))


def _answers(name: str) -> dict:
    return json.loads((SCEN / f"{name}.json").read_text(encoding="utf-8"))["answers"]


def _pt(c: int, ttft: float, tput: float, n: int | None = None) -> CurvePoint:
    return CurvePoint(concurrency=c, ttft_p50_ms=ttft, ttft_p99_ms=ttft, tpot_p50_ms=10.0, tpot_p99_ms=20.0,
                      output_tokens_per_s=tput, requests=n)  # fmt: skip


def test_q04_throughput_rises_with_concurrency_on_a_long_sample(monkeypatch):
    """q04's chosen setup (H20 TP4 fp8, 4,000-token prompts) re-simulated on 400 requests a level: throughput never
    falls from one level to the next below the cap (the plan's short samples read 355 at 7 and 315 at 14)."""
    from advisor.plan import engine

    seen: dict = {}
    orig = sizing.simulate_at

    def spy(ctx, cand, c, measure=None, cap=None):
        seen[(cand.gpu.id, cand.tp, cand.weights)] = (ctx, cand)
        return orig(ctx, cand, c, measure, cap)

    monkeypatch.setattr(sizing, "simulate_at", spy)
    r = engine.plan(PlanAnswers(**_answers("q04_securities_h20_l20_fleet")), check_fixes=False)
    hw = r.hardware
    ctx, cand = seen[(hw.gpu, hw.tp, hw.weights)]
    cap = hw.max_num_seqs
    assert cap and cap >= 8
    levels = [2, cap // 2, cap]
    tput = [orig(ctx, cand, c, 400, cap).output_tokens_per_s for c in levels]
    assert all(b >= a for a, b in zip(tput, tput[1:], strict=False)), list(zip(levels, tput, strict=True))


def test_the_readers_find_a_flat_row_a_jump_and_a_dip():
    pts = [_pt(1, 4570, 97, 8), _pt(3, 4590, 243, 8), _pt(7, 4610, 355, 9), _pt(14, 4648, 315, 18),
           _pt(16, 4660, 314, 21), _pt(28, 34290, 312, 40)]
    assert flat_ttft(pts, 16) == (1, 16)
    assert seat_jump(pts, 16) == 28
    hi, lo = throughput_dip(pts, 16)
    assert (hi.concurrency, lo.concurrency) == (7, 14)
    rising = [_pt(1, 300, 30), _pt(6, 380, 171), _pt(12, 700, 312), _pt(25, 1500, 556)]
    assert flat_ttft(rising, 25) is None and seat_jump(rising, 25) is None and throughput_dip(rising, 25) is None
    # a level past the cap is queueing: its throughput is not a dip below the cap
    assert throughput_dip([_pt(1, 1, 10), _pt(8, 1, 80), _pt(16, 9, 70)], 8) is None


@pytest.mark.parametrize("name", NAMES)
def test_every_dip_and_jump_the_table_shows_is_said(name):
    r = planned(_answers(name))
    curve, hw = r.latency_curve, r.hardware
    if curve is None or len(curve.points) < 2 or (r.answers or {}).get("use_case") == "offline_batch":
        return
    for lang, dip_word, seat_word in (("en", "do not lower its throughput", "wait for a seat"), ("zh_CN", "请求增多不会降低吞吐量", "排队")):
        memo = render_memo_markdown(r, lang=lang)
        if "## 3" not in memo and "## 三" not in memo:
            return  # no latency section (a hosted API's or an infeasible plan's memo)
        dip = throughput_dip(curve.points, hw.max_num_seqs)
        if dip is not None:
            assert dip_word in memo and f"{dip[1].output_tokens_per_s:,.0f}" in memo, (name, lang)
        if seat_jump(curve.points, hw.max_num_seqs) is not None:
            assert seat_word in memo, (name, lang)
