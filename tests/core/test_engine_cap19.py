"""The serve command's ``--max-num-seqs`` and the curve that backs the memo's capacity claims agree (issues #25/#28,
s19-engine19): the memo's "each replica takes up to N concurrent requests within the target" ≤ the cap the
command sets ≤ the highest level the memo's curve shows meeting the target, and that curve is simulated with the
command's cap, not the engine's default of 256 (1,024 on big GPUs): above the cap its requests wait for a seat.

Every advice scenario is planned here with a spy on the curve the memo shows (``sizing.capped_curve``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, make_plan, sizing
from advisor.plan.result import PlanResult

ROOT = Path(__file__).parents[2]
SCENARIOS = sorted((ROOT / "bench" / "advice_scenarios").glob("q*.json"))
IDS = [p.stem.split("_")[0] for p in SCENARIOS]


def _within(result: PlanResult, ttft: float | None, tpot: float | None) -> bool:
    curve = result.latency_curve
    return ((curve.slo_ttft_p99_ms is None or (ttft is not None and ttft <= curve.slo_ttft_p99_ms))
            and (curve.slo_tpot_p99_ms is None or (tpot is not None and tpot <= curve.slo_tpot_p99_ms)))  # fmt: skip


def _planned_with_spy(path: Path, monkeypatch) -> tuple[PlanResult, list[tuple]]:
    calls: list[tuple] = []
    real = sizing.capped_curve

    def spy(ctx, cand, wanted, cap):
        points, knee = real(ctx, cand, wanted, cap)
        calls.append((list(wanted), cap, points, (cand.gpu.id, cand.weights, cand.tp)))
        return points, knee

    monkeypatch.setattr(sizing, "capped_curve", spy)
    answers = json.loads(path.read_text(encoding="utf-8"))["answers"]
    return make_plan(answers_from_dict(answers)), calls


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_claim_within_the_cap_and_the_curve_runs_with_it(path, monkeypatch):
    result, calls = _planned_with_spy(path, monkeypatch)
    hw, cap_row, curve = result.hardware, result.capacity, result.latency_curve
    if hw.gpu is None or hw.max_num_seqs is None:
        pytest.skip("no setup of its own")
    cap = hw.max_num_seqs
    if hw.command and "vllm serve" in hw.command:
        assert f"--max-num-seqs {cap}" in hw.command  # the command sets the cap the plan reasons with
    if result.answers.get("use_case") == "offline_batch":
        assert cap == cap_row.max_concurrency_per_replica  # a job's cap: the requests its KV cache holds
        return
    claim = cap_row.max_concurrency_per_replica
    assert claim is not None and 1 <= claim <= cap
    shown = {p.concurrency: p for p in curve.points}
    meeting = [c for c, p in shown.items() if _within(result, p.ttft_p99_ms, p.tpot_p99_ms)]
    if result.feasible and cap_row.meets_slo:
        assert claim in shown and cap in meeting, (claim, cap, sorted(meeting))
        assert cap <= max(meeting)
    # the memo's curve is the one simulated for the chosen setup with the command's cap: its levels, its figures.
    # Other setups are simulated on the same levels and cap too (s26-fleet26, q04: "Layouts tried" lays bf16 TP4
    # out on the fleet's free cards after the chosen fp8 curve, 5,872 ms at one request against fp8's 4,570), so
    # the spy's calls are those of the plan's own GPU, weights and TP, never merely the last one made.
    setup = (hw.gpu, hw.weights, hw.tp)
    ran = [(w, c, pts) for w, c, pts, k in calls if w == sorted(shown) and c == cap and k == setup]
    assert ran, f"no curve simulated for {setup} at --max-num-seqs {cap} for levels {sorted(shown)}"
    _, _, points = ran[-1]
    for lv, p in zip(points, curve.points, strict=True):
        assert lv.running["max"] <= cap  # never more requests at once than the command lets run
        assert round(lv.ttft_ms.p99, 1) == p.ttft_p99_ms


def test_a_level_above_the_cap_queues_where_the_default_cap_runs_it_all(monkeypatch):
    """The curve's level past the claim (q09: 44 per replica against a cap of 40) is the command's engine: requests
    past the cap wait for a seat (a longer first token, never more than the cap running at once, each token no
    slower than where the engine's default cap would run all 44 at once).

    s21-tie21: q09 now runs FP8 (kept for the first token under its 300 ms target, round 10's review), cap 40. The
    test held TPOT at the level past the cap *equal* to the cap's, which was true of BF16 only because the shown
    curve carries the higher figure forward (``monotone_latency``); on FP8 the 128 requests a level is timed on give
    28.8 ms at 44 against 26.2 at 40, and at 400 or 1,000 requests the capped 44 is no slower than 40 (22.5 vs 23.5,
    24.2 vs 24.7 ms): sampling noise, not a faster batch. What the cap does is checked instead: the batch never
    exceeds it at that level, and each token there is no slower than the uncapped engine's at the same level."""
    path = next(p for p in SCENARIOS if p.stem.startswith("q09"))
    seen: dict = {}
    real = sizing.capped_curve

    def keep(ctx, cand, wanted, cap):  # the setup the memo's curve is simulated for, to run it uncapped below
        seen.update(ctx=ctx, cand=cand)
        return real(ctx, cand, wanted, cap)

    monkeypatch.setattr(sizing, "capped_curve", keep)
    result, calls = _planned_with_spy(path, monkeypatch)
    cap = result.hardware.max_num_seqs
    pts = {p.concurrency: p for p in result.latency_curve.points}
    above = [c for c in pts if c > cap]
    assert above, "q09's curve shows a level past its claim"
    top = max(above)
    hw = result.hardware
    _, _, points, _ = next(x for x in reversed(calls) if x[1] == cap and top in x[0]
                           and x[3] == (hw.gpu, hw.weights, hw.tp))
    capped = points[sorted(pts).index(top)]
    assert capped.running["max"] == cap  # the running batch is the cap's: the others wait
    uncapped = sizing.simulate_at(seen["ctx"], seen["cand"], top)  # the engine's default cap runs all of them
    assert uncapped.running["max"] > cap
    assert pts[top].tpot_p99_ms <= round(uncapped.tpot_ms.p99, 1)  # no slower than running them all at once
    assert pts[top].ttft_p99_ms > pts[cap].ttft_p99_ms  # the others queue
    text = result.to_json("en")["binding_constraint"]["text"]
    assert re.search(rf"caps a replica at {cap} \(--max-num-seqs\)", text)
    # and names the table's own figure at that load (s22-sizenums22: "at 20 … 154 ms" beside the table's 91.8 ms)
    assert f"TPOT P99 {pts[top].tpot_p99_ms:g} ms" in text
