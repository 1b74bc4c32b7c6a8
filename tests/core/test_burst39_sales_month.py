"""Hybrid bursts on a part sold only through the cloud's sales (the H20) are billed and said by the month, page 1
decides the burst size with the count that changes it, and the hosted API for the bursts stands beside the burst
month (issue 25, blind review 21 on q39; s33-burst39)."""

from __future__ import annotations

import pytest

from advisor.plan import burst_bill, burst_gpu, headline25
from advisor.plan.memo import render_memo_markdown
from advisor.plan.sales_only import listed_on_request
from tests.support.planned import advice_answers

# s38-burst40: q39's bursts now rent a part by the hour; these tests pin the month-booked H20 path, kept on q39's
# answers through ``sales_month`` (the same plan for every other scenario: only a hybrid's burst part is chosen there)
from tests.support.planned import sales_month as planned

Q39 = "q39_hybrid_l20_base_cloud_burst"


def _f(r, rule_id):
    return next(f for f in r.findings if f.id == rule_id)


def test_a_sales_only_burst_part_books_whole_months_and_a_longer_burst_books_more():
    assert burst_gpu.booked_months({"burst_schedule": {"per_year": 3, "days_each": 21}}) == 3
    assert burst_gpu.booked_months({"burst_schedule": {"per_year": 2, "days_each": 45}}) == 4  # two months each
    assert burst_gpu.booked_months({"burst_schedule": {"per_year": 8, "days_each": 40}}) == 12  # at most the year
    assert burst_gpu.booked_months({"burst_schedule": None}) is None


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q39_never_bills_the_h20_by_the_hour(lang):
    r = planned(advice_answers(Q39))
    hyb = r.costs.hybrid
    assert hyb is not None and listed_on_request(str(hyb.burst_gpu))
    b = burst_bill.bill(r.costs, r.answers, r.deployment_form, r.hardware.gpu)
    assert b is not None and b.months == 1
    # the burst month pays one whole month of the rented GPUs on top of the fleet's month without them
    alone = burst_bill.without_burst(r.costs, r.deployment_form)
    assert b.burst_month[0] == pytest.approx(alone[0] + b.per_burst[0])
    memo = render_memo_markdown(r, lang)
    findings = memo.split({"en": "## 7.", "zh_CN": "## 七、"}[lang])[1]
    burst_month = next(x for x in findings.split("\n- **") if x.startswith(("A burst month", "扩容月份", "Send each burst's overflow", "扩容时把超出", "扩容溢出交给")))
    assert {"en": "a GPU-hour", "zh_CN": "每 GPU 小时"}[lang] not in burst_month
    assert {"en": "a GPU-month", "zh_CN": "每 GPU 每月"}[lang] in memo
    # the cost row and the fleet reason say the months booked, not a share of the hours the H20 would be billed
    assert {"en": "(costed at about", "zh_CN": "的时间计费）"}[lang] not in memo
    assert {"en": "(running about", "zh_CN": "（约运行"}[lang] not in memo


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q39_headline_states_the_size_and_the_count_under_which_nothing_is_rented(lang):
    r = planned(advice_answers(Q39))
    f = next(x for x in r.findings if x.title_key in headline25.DISAGREE_TITLES)
    # the count: the owned replicas × the curve's per-replica figure ÷ (peak multiple × headroom)
    assert f.params["carry"] == int(f.params["count"] * f.params["per"] / (3 * 1.2) + 1e-9)
    head = next(line for line in render_memo_markdown(r, lang).splitlines() if line.startswith("**"))
    assert {"en": "11 × NVIDIA H20", "zh_CN": "11 张 NVIDIA H20"}[lang] in head
    if "api_lead" in str(next(x for x in r.findings if x.id == "cost.burst_month").params):
        # s34-q39h35 (review 24: "three answers"): the API leads, the rent its fallback; the headline's one condition
        # is step 1's count on the owned GPUs, the rented part's month and how it is sold said below
        assert f"{f.params['count']}" in head and {"en": "(step 1)", "zh_CN": "（第 1 步）"}[lang] in head
        assert {"en": "through the cloud's sales", "zh_CN": "云厂商销售"}[lang] in render_memo_markdown(r, lang)
    else:
        assert str(f.params["carry"]) in head
        assert {"en": "through the cloud's sales", "zh_CN": "云厂商销售"}[lang] in head


def test_the_burst_month_reason_carries_the_api_for_the_bursts_with_the_data_condition():
    a = advice_answers(Q39)
    f = _f(planned(a), "cost.burst_month")
    api = f.params["api"]
    assert api["tr"] == "burst39.api.month" and api["cond"]["tr"] == "burst39.api.cond.low"
    personal = {**a, "data_sensitivity": {**a["data_sensitivity"], "personal_info": True, "level": "medium"}}
    g = _f(planned(personal), "cost.burst_month")
    assert g.params["api"] == "" or g.params["api"]["cond"]["tr"] == "burst39.api.cond.check"
    high = {**a, "data_sensitivity": {**a["data_sensitivity"], "level": "high"}}
    assert _f(planned(high), "cost.burst_month").params["api"] == ""


def test_the_sales_only_bursts_are_ordered_by_the_month_not_reserved_on_demand():
    r = planned(advice_answers(Q39))
    f = _f(r, "scaling.burst_reservation")
    assert f.title_key == "plan.rule.scaling.burst_reservation.sales.title"
    step = next(s for s in r.next_steps if s.id == "burst_reserve")
    # s33-numbers1 (review 23): where the API leads the bursts the order is the step's alternative, the same words
    assert step.key == "burst39.next.order" or step.params["order"]["alt"] == "burst39.next.order"
    # a part rented by the hour keeps the reservation against on-demand stock: the L20 bursts when the H20 is dear
    from advisor.plan import answers_from_dict, make_plan

    dear = make_plan(answers_from_dict(advice_answers(Q39)), quotes=[
        {"gpu": g, "kind": "on_demand", "low": 8.0, "high": 8.5} for g in ("h20-96g", "h800-sxm-80g")])
    assert dear.costs.hybrid.burst_gpu is None
    g = _f(dear, "scaling.burst_reservation")
    assert g.title_key == "plan.rule.scaling.burst_reservation.title"
    assert _f(dear, "cost.burst_month").params["formula"]["tr"] == "burst39.bill.hourly"
