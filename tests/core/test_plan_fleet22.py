"""A fleet's measured busy share that the plan's own curve disagrees with by more than 3× leads page 1 (blind review
12, q39: "sizes on nvidia-smi's 85 % (13.6 GPUs busy) while its own curve says ~3 GPUs carry today's load, and caps
--max-num-seqs at 12 where 36 fit the target, arriving at 50 GPUs"; "the plan should be gated on that measurement")."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from advisor.plan.reasons import deciding
from tests.support.planned import advice_answers

# s38-burst40: q39's bursts now rent a part by the hour; these tests pin the month-booked H20 path, kept on q39's
# answers through ``sales_month`` (the same plan for every other scenario: only a hybrid's burst part is chosen there)
from tests.support.planned import sales_month as planned

Q39 = "q39_hybrid_l20_base_cloud_burst"


@pytest.fixture(scope="module")
def q39():
    return planned(advice_answers(Q39))


def _f(plan, fid):
    return next((x for x in plan.findings if x.id == fid), None)


def test_the_two_readings_lead_page_one(q39):
    f = _f(q39, "sizing.fleet_load_disagrees")
    assert f is not None and f.severity == "warning"
    p = f.params
    # 16 × 0.85 = 13.6 busy; today's load (300 ÷ 3 = 100) at about 36 a replica on the curve: 3 GPUs
    assert p["busy"] == 13.6 and p["count"] == 16 and p["busy"] > 3 * p["curve"]
    assert p["ratio"] == f"{p['busy'] / p['curve']:.1f}"
    # the peak on the measurement (what the plan is sized on) against the curve's, which the 16 owned cards hold
    assert p["need"] == q39.hardware.total_gpus and p["more"] == p["need"] - p["count"] > 0
    # s40-q39 (review 33): the curve's per-replica figure past the serve command's cap is named beside the cap
    assert p["on_curve"] <= p["count"] and p["on_curve_text"]["tr"] == "hy42.on_curve.fits_cap"
    # the serve command's cap is explained against the curve's per-replica figure
    assert p["cap"] < p["per"] and f"--max-num-seqs {p['cap']}" in (q39.hardware.command or "")
    # s24-burst24 (round 13: "lead with the plan"): right after the finding that states the plan (the fleet carries
    # the base, the peaks rented), before anything else that decides
    assert [x.id for x in deciding(q39.findings)[:2]] == ["cost.fleet", "sizing.fleet_load_disagrees"]
    en = render_memo_markdown(q39, "en")
    reasons = en.split("What decides it:")[1].split("\n\n")[1]
    # s37-burst39 (review 28): the API takes the bursts' overflow, so the count decides what leaves the owned GPUs
    assert reasons.split("\n")[1].startswith("2. **The requests in flight decide how much of each burst leaves your GPUs")
    assert f"your 16 GPUs carry the peak of 300 ({p['on_curve']} of them" in en


def test_said_once_the_cost_finding_leaves_its_own_paragraph_out(q39):
    cost = _f(q39, "cost.fleet")
    assert cost is not None and "The plan sizes on the measurement" not in cost.detail_in("en")


def test_within_the_ratio_the_cost_finding_keeps_its_paragraph():
    # 50 %: 8 busy against the curve's 3, a gap within the ratio: no page-1 warning, the cost finding says both
    plan = planned({**advice_answers(Q39), "measured_utilisation": 0.5})
    assert _f(plan, "sizing.fleet_load_disagrees") is None
    cost = _f(plan, "cost.fleet")
    assert cost is not None and "The plan sizes on the measurement" in cost.detail_in("en")
