"""Twice the replicas for a cheap batch (``advisor.plan.batch_slack``), on q06's claims job: 4 × L20, 55.2 h of work
and 2 h of setup inside a 72-hour deadline, ¥1.4–3.8k against ¥60k. A batch is billed by the GPU-hour, so 8 replicas
finish in half the hours and the job costs more only by the extra replicas' setup: × (H + 2s)/(H + s).

Since s21-batch21b q06 itself runs on the 8 replicas (its 4 would miss the deadline at the low end of the predicted
rate: ``advisor.plan.batch_double``, tests/core/test_plan_batch_double.py), so the tip is checked on q06's job with
1.7 million requests: 4 replicas, about 47 h of work, which finish inside 72 hours even at that low end — a plan
the tip still offers the doubled layout to, as an aside.)"""

from __future__ import annotations

import pytest

from advisor.plan.batch_rate import setup_hours
from tests.support.planned import advice_answers, planned


def _claims() -> dict:
    """q06's claims job, 1.7 million requests: the minimum layout kept (see the module docstring)."""
    return {**advice_answers("q06_l20_batch_72h_claims"), "total_requests": 1_700_000}


def _more(plan):
    return [f for f in plan.findings if f.id == "sizing.batch_more_replicas"]


def test_q06_twice_the_replicas_halve_the_hours_for_the_setup_hours_only():
    plan = planned(_claims())
    assert "sizing.batch_doubled" not in {f.id for f in plan.findings}
    (f,) = _more(plan)
    p = f.params
    work, job = plan.capacity.batch_hours, plan.costs.recommended_monthly
    s_lo, s_hi = setup_hours()
    assert p["replicas"] == 2 * plan.hardware.replicas
    assert p["hours2"] == pytest.approx(work / 2, abs=0.06)
    # the plan's slack from its own billed hours; the doubled job's from half the work plus the same setup
    assert p["slack"] == pytest.approx(72 - plan.costs.billed_hours.high, abs=0.06)
    assert p["slack2"] == pytest.approx(72 - work / 2 - s_hi, abs=0.06)
    ratio = (work + 2 * s_hi) / (work + s_hi)
    assert p["more"] == round(100 * (ratio - 1))
    assert p["cost2"].endswith(f"¥{job.high * ratio:,.0f}")


def test_tight_budgets_and_roomy_deadlines_say_nothing():
    answers = _claims()
    job = planned(answers).costs.recommended_monthly
    tight = {**answers, "monthly_budget": {"amount": round(job.high * 1.5), "currency": "CNY"}}
    assert _more(planned(tight)) == []  # the doubled job would take more than half the budget
    roomy = {**answers, "batch_deadline_hours": 1000.0}
    assert _more(planned(roomy)) == []  # the plan's own slack is already over half the deadline


def test_interactive_plans_never_get_it():
    for sid in ("q24_us_saas_rent", "q18_us_fleet_32_h100"):
        assert _more(planned(advice_answers(sid))) == [], sid
