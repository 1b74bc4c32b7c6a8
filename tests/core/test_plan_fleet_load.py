"""A fleet whose measured load IS this service's base (s14-fleetload, issue 25, scenario q39).

q39: a business API on 16 L20 the company owns, 85 % busy, demand tripling a few weeks a year. Read as other work
the memo served the peak on "2 free" L20 + 7 rented; said to be this service's load, the 16 L20 carry the base and
the tripled peak is rented above them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from advisor.plan import answers_from_dict, hybrid_path43, make_plan
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult

ROOT = Path(__file__).resolve().parents[2]
Q39 = ROOT / "bench" / "advice_scenarios" / "q39_hybrid_l20_base_cloud_burst.json"
QUESTION = "current_fleet.load_is_this_service"


def q39(**fleet: Any) -> dict[str, Any]:
    """q39's answers with its fleet as given here (the field and multiple left out unless passed)."""
    data = json.loads(Q39.read_text(encoding="utf-8"))["answers"]
    data["current_fleet"] = {"gpu": "l20-48g", "count": 16, **fleet}
    return data


def plan(data: dict[str, Any]) -> PlanResult:
    return make_plan(answers_from_dict(data))


@pytest.fixture(scope="module")
def this_service() -> PlanResult:
    return plan(q39(load_is_this_service=True, peak_multiple=3))


@pytest.fixture(scope="module")
def unsaid() -> PlanResult:
    return plan(q39())


def test_q39_scenario_says_the_fleet_carries_this_services_load():
    fleet = json.loads(Q39.read_text(encoding="utf-8"))["answers"]["current_fleet"]
    assert fleet["load_is_this_service"] is True and fleet["peak_multiple"] == 3


def test_the_whole_fleet_carries_the_base_and_the_tripled_peak_is_rented(this_service: PlanResult):
    r = this_service
    assert r.deployment_form == "hybrid" and r.hardware.gpu == "l20-48g"
    h = r.costs.hybrid
    assert h is not None and h.fleet_gpus == 16 and h.fleet_count == 16 and not h.gpus_bought
    # the measurement (16 × 0.85 = 13.6 GPUs busy at the base) sizes the peak: ×3 with the plan's 20 % headroom
    # is 49 replicas + the N+1 spare; the fleet's 16 carry the base, the rest is rented for the peaks
    assert r.hardware.total_gpus == 50 and r.hardware.layout is not None and r.hardware.layout.fleet_used == 16
    # about twice the fleet's work, as an engineer would rent for a tripled demand; rented as the part that carries it
    # for least (s24-burst24: 11 H20 do the 34 L20s' work, tests/core/test_burst24.py)
    assert h.burst_plan_gpus == 34 and h.burst_gpu == "h800-sxm-80g" and h.gpus_burst < 34
    assert QUESTION not in {q.field for q in r.open_questions}


def test_the_memo_says_it_in_words_en_and_zh(this_service: PlanResult):
    en = render_memo_markdown(this_service, "en")
    # s24-burst24: the part the bursts rent, named; s37-burst39 (review 28): the API takes the overflow where it alone
    # fits the budget (test_burst39_api_lead), the rented part named as its fallback
    # s41-q39 (review 34): where the overflow goes to a hosted API first, the rented part is named as its fallback
    # s42-hyb (review 35): the API's part said as a share of the peaks' load, never as 34 more cards' work
    assert ("Your 16 × NVIDIA L20 48GB carry today's load at 85 %; the peaks (×3) need "
            + ("a hosted API for about 68 % of their load, for the weeks they last; 8 × NVIDIA H800 SXM5 80GB rented "
               "only if the API falls short" if hybrid_path43.applies(this_service) else
               "the work of about 34 more, "
               "rented as 8 × NVIDIA H800 SXM5 80GB for the weeks they last")) in en  # s38-burst40: by the hour
    # which figure sizes the plan, and why (s15-burst: the reviewers asked for the reason, not just the choice); since
    # s22-gpu22c the two readings, 4.5× apart, are said once, in the page-1 warning (test_plan_fleet22)
    assert "The plan sizes the peak (×3 today's load) on the measurement" in en and "nvidia-smi" in en
    assert "2 free" not in en
    assert "keep your 16 replicas on, rent 8 × NVIDIA H800 SXM5 80GB for the bursts" in en
    zh = render_memo_markdown(this_service, "zh_CN")
    assert "现有 16 张 NVIDIA L20 48GB 以 85 % 利用率承担当前负载；高峰（×3）" + (
        "约 68 % 的负载在高峰的几周内交给模型 API 服务" if hybrid_path43.applies(this_service) else "约需另外 34 张的工作量") in zh
    assert "方案按实测为高峰" in zh


def test_old_answers_are_unchanged_the_load_read_as_other_work(unsaid: PlanResult):
    said_no = plan(q39(load_is_this_service=False))
    for r in (unsaid, said_no):
        h = r.costs.hybrid
        assert r.deployment_form == "hybrid" and h is not None
        # the rented peak carries the plan's 20 % headroom (s15-layout: it was sized to the bare peak, 7 rented)
        # (s24-burst24: the 8 L20s' work rented as the part that carries it for least, burst_plan_gpus in L20s)
        assert (h.fleet_gpus, h.fleet_free, h.burst_plan_gpus or h.gpus_burst, r.hardware.total_gpus) == (2, 2, 8, 10)
    assert QUESTION not in {q.field for q in said_no.open_questions}


def test_unsaid_it_is_an_open_question_with_its_assumption_in_the_headline(unsaid: PlanResult):
    q = next(q for q in unsaid.open_questions if q.field == QUESTION)
    assert q.changes_decision and q.assumed is False and q.alternatives == [True]
    headline = render_memo_markdown(unsaid, "en").split("**Next steps:**")[0]
    assert "Is your fleet's measured load this service's own" in headline
    assert "taken to be other work, so only the free share serves this service" in headline
    zh = render_memo_markdown(unsaid, "zh_CN")
    assert "按其他业务负载处理" in zh


def test_not_asked_without_a_measured_utilisation_or_a_fleet():
    data = q39()
    del data["measured_utilisation"]
    assert QUESTION not in {q.field for q in plan(data).open_questions}
    data = q39()
    del data["current_fleet"]
    assert QUESTION not in {q.field for q in plan(data).open_questions}


def test_a_peak_multiple_below_one_is_refused_at_its_field():
    with pytest.raises(ValueError, match="peak_multiple"):
        answers_from_dict(q39(load_is_this_service=True, peak_multiple=0.5))
