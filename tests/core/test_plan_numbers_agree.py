"""Numbers that agree with each other, over every advice scenario (issue 25, blind re-check 11b): a figure the
sizing reason cites at a load is the latency table's figure at that load, or the sentence names the table's figure
beside it (q03: "at 20 … 154 ms p99" beside a table reading 91.8 ms at 20); a batch job's stated floor fits inside
its own split of the job's GPU-hours, and one split is quoted (q28: a 224 GPU-hour prefill floor beside "prefill
56 %" of 281 GPU-hours, about 157); the free GPUs the placement asks to check add up to the GPUs the plan takes from
the fleet, server by server (q08: "12 of 16 free" then "check that each server has 8 free").

Properties over the plans, not pinned sentences: each scenario's own figures are compared with each other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from advisor.plan import memo_job_split
from advisor.plan.fleet_spread import SERVER_GPUS_SXM
from advisor.plan.money_text import number_text
from advisor.plan.result import BindingConstraint, CurvePoint, PlanResult
from tests.support.planned import scenario_plan

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios").glob("q*.json"))
IDS = [p.stem.split("_")[0] for p in SCENARIOS]


def _ms(v: float | None) -> float | None:
    """A latency as the memo's latency table prints it (``number_text(v, 1)``), read back as a number."""
    return None if v is None else float(number_text(v, 1).replace(",", ""))


def _cited(b: BindingConstraint) -> dict[str, Any]:
    """The figures of the sentence that decides the size (the inner one where the budget rules a sized plan out)."""
    inner = b.figures.get("size")
    return inner if b.kind == "budget" and isinstance(inner, dict) else b.figures


def _point(r: PlanResult, at: int) -> CurvePoint | None:
    return next((p for p in (r.latency_curve.points if r.latency_curve else []) if p.concurrency == at), None)


def _phrases(b: BindingConstraint, key: str) -> list[dict[str, Any]]:
    return [x for x in b.then if isinstance(x, dict) and x.get("tr") == key]


def _walk(value: Any):
    """Every dict inside a finding's params (phrases nest phrases)."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v)


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_a_latency_the_sizing_reason_cites_is_the_tables_at_that_load_or_names_it(path):
    r = scenario_plan(path)
    b = r.binding_constraint
    if b is None or r.latency_curve is None:
        return
    figs = _cited(b)
    at, cap = figs.get("at"), r.hardware.max_num_seqs
    if not isinstance(at, int):
        return
    shown = _point(r, at)
    if shown is None:
        return  # a load the table does not print: nothing a reader compares it with
    if cap is None or at <= cap:  # the table runs that load as the sentence does: the same figure
        for fig, table in (("tpot_ms", shown.tpot_p99_ms), ("ttft_ms", shown.ttft_p99_ms)):
            if fig in figs and table is not None:
                # the sentence rounds a latency over its target UP (binding._up), the table to nearest
                assert abs(float(figs[fig]) - table) <= max(1.0, 0.001 * table), (fig, figs[fig], table)
        return
    # past the serve command's cap the table's column has requests waiting for a seat: the sentence must name the
    # table's own figures there, once
    [named] = _phrases(b, "sizenums22.binding.capped_table")
    assert named["at"] == at and named["cap"] == cap and named["wait"] == at - cap
    assert named["ttft_ms"] == _ms(shown.ttft_p99_ms) and named["tpot_ms"] == _ms(shown.tpot_p99_ms)
    assert not _phrases(b, "engine19.binding.capped")


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_the_sizing_tables_peak_latency_is_the_latency_tables_at_the_planned_load(path):
    r = scenario_plan(path)
    curve, cap = r.latency_curve, r.capacity
    if curve is None or curve.operating_concurrency is None or r.capacity.batch_hours is not None:
        return
    shown = _point(r, curve.operating_concurrency)
    if shown is None:
        return
    for mine, table in ((cap.ttft_p99_ms, shown.ttft_p99_ms), (cap.tpot_p99_ms, shown.tpot_p99_ms)):
        if mine is not None and table is not None:
            assert _ms(mine) == _ms(table)


def _job(r: PlanResult) -> float | None:
    return memo_job_split.job_gpu_hours(r) if r.capacity.batch_hours is not None else None


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_a_jobs_floor_fits_inside_its_own_split_of_the_jobs_gpu_hours(path):
    r = scenario_plan(path)
    b, share, job_h = r.binding_constraint, r.costs.prefill_gpu_share, _job(r)
    if b is None or share is None or job_h is None:
        return
    for phrase in _phrases(b, "plan.batch15.floor.prefill"):  # the prompts' floor, the limit: within their share
        assert phrase["prefill_h"] <= round(job_h * share) + 1, (phrase["prefill_h"], job_h, share)
    for phrase in _phrases(b, "plan.batch15.floor.decode"):
        assert phrase["decode_h"] <= round(job_h * (1 - share)) + 1, (phrase["decode_h"], job_h, share)
    # one split: the sizing reason's percent (where it says one) is the cost row's
    if "prefill_pct" in b.figures:
        assert b.figures["prefill_pct"] == round(100 * share)


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_a_jobs_gpu_hour_parts_add_up_to_the_capacity_tables_total(path):
    r = scenario_plan(path)
    share, job_h = r.costs.prefill_gpu_share, _job(r)
    if share is None or job_h is None:
        return
    parts = memo_job_split.hours(job_h, share, lambda v: str(v))
    total = round(r.capacity.batch_hours * r.hardware.total_gpus)  # the capacity table's "(N GPU-hours)"
    assert int(parts["job_h"]) == total
    assert abs(int(parts["prefill_h"]) + int(parts["decode_h"]) - total) <= 1


# the placement finding's free-GPU check; own39_*: where the next steps give the servers' figures, the finding points
# at them (blind review 28, q18: said once), its params still the figures the step prints
CHECK_FREE = ("sizenums22.placement.check_free", "numbers2_34.placement.check_free", "own39_placement.check_free",
              "own39_placement.check_free_plain")


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_the_free_gpus_to_check_per_server_add_up_to_those_the_plan_takes_from_the_fleet(path):
    r = scenario_plan(path)
    checks = [d for x in r.findings for d in _walk(x.params) if d.get("tr") in CHECK_FREE]
    if not checks:
        return
    layout = r.hardware.layout
    assert layout is not None and layout.fleet_used
    for d in checks:
        per_server = [int(n) for n in str(d["per_server"]).split(" + ")]
        assert sum(per_server) == d["need"] == layout.fleet_used
        assert all(0 < n <= SERVER_GPUS_SXM and n % d["tp"] == 0 for n in per_server)


def test_each_property_above_meets_its_case_in_the_scenarios():
    """The checks above are not empty: some scenario quotes a level past the cap that the table prints, some job
    states a floor, some busy fleet is asked to check its free GPUs (else a renamed phrase would pass them all)."""
    plans = [scenario_plan(p) for p in SCENARIOS]
    bound = [r.binding_constraint for r in plans if r.binding_constraint is not None]
    assert any(_phrases(b, "sizenums22.binding.capped_table") for b in bound)
    assert any(_phrases(b, "plan.batch15.floor.prefill") or _phrases(b, "plan.batch15.floor.decode") for b in bound)
    fleet_checks = [d for r in plans for x in r.findings for d in _walk(x.params) if "busy" in d and "tp" in d
                    and x.id == "sizing.placement"]  # fmt: skip
    # s33-numbers2: the same check without a "still carries the peak" the carried requests already say
    assert fleet_checks and all(d.get("tr") in CHECK_FREE for d in fleet_checks)


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_the_gpu_weighings_split_is_the_cost_rows_or_says_whose_it_is(path):
    """"decoding takes about N % of the GPU time" (why this GPU) and the cost row's "prefill P %, decode D %" are one
    split of one setup; in a plan of two nodes the cost row adds both, and the weighing says it is the mainland
    node's (q05: 77 % beside 87 %, q34: 69 % beside 84 %)."""
    r = scenario_plan(path)
    weighing = r.gpu_choice.weighing if r.gpu_choice is not None else None
    share = r.costs.prefill_gpu_share
    if weighing is None or weighing.share_pct is None or weighing.share_gpu or share is None:
        return  # no split quoted, or the split of a setup passed over (named as such)
    if r.nodes:
        assert weighing.on_mainland_node
        return
    assert not weighing.on_mainland_node
    assert weighing.share_pct == round(100 - 100 * share)
