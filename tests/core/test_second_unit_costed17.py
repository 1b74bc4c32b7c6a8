"""A second server the plan recommends is in its hardware and cost (issue #25, costs; sixth blind review q35/q38/q41:
"the recommended second server is not costed", "cost the two-node plan"). Where it is only suggested (no budget to
check, over the budget, two servers straddling a one-off budget) the plan stays on one unit with the old wording."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

ADDED = ["q03_hospital_private_wan_medical", "q35_deepseek_v3_h20_internal", "q41_finetune_internal_callcentre"]
SUGGESTED = ["q02_office_lan_small_design_agency", "q17_capex_only_university_lab"]




@pytest.mark.parametrize("sid", ADDED)
def test_a_recommended_second_server_is_in_the_hardware_and_the_cost(sid):
    r = planned(advice_answers(sid))
    f = r.finding("sizing.single_point")
    assert f is not None and f.title_key == "plan.rule.sizing.single_point.added.title"
    lay = r.hardware.layout
    assert (lay.units, lay.spare_units) == (2, 1) and r.hardware.total_gpus == 2 * lay.load_gpus
    # the second unit's cost is the difference the finding quotes: the plan costs it, within the budget it names
    second = f.params["monthly"]
    assert second in f.detail_in("en")
    c = r.costs
    assert c.recommended_monthly.high <= r.answers["monthly_budget"]["amount"]
    assert c.within_budget is True
    # not said twice: no N+1 note for an internal tool's spare
    assert "sizing.redundancy" not in r.finding_ids
    for lang in ("en", "zh_CN"):
        memo = render_memo_markdown(r, lang)
        assert f.title_in(lang) in memo
        word = "2 servers" if lang == "en" else "2 台服务器"
        assert word in memo, (sid, lang)


def test_the_cost_of_the_second_server_is_the_plans_cost_doubled_for_a_rented_whole_server():
    """q35: one 8 × H20 node rented; with the second node the headline cost is two nodes' (¥89k–270k, inside 300k)."""
    r = planned(advice_answers("q35_deepseek_v3_h20_internal"))
    alone = planned({**advice_answers("q35_deepseek_v3_h20_internal"), "monthly_budget": {"amount": 140_000,
                                                                                          "currency": "CNY"}})
    assert alone.hardware.layout.units == 1  # a budget that does not cover two keeps one, and says so
    single = alone.finding("sizing.single_point")
    assert single is not None and not single.title_key.endswith("added.title")
    assert r.costs.recommended_monthly.low == pytest.approx(2 * alone.costs.recommended_monthly.low, rel=0.01)
    assert r.costs.recommended_monthly.high == pytest.approx(2 * alone.costs.recommended_monthly.high, rel=0.01)


@pytest.mark.parametrize("sid", ["q03_hospital_private_wan_medical", "q41_finetune_internal_callcentre"])
def test_a_bought_second_server_is_in_the_purchase_and_the_server_count(sid):
    r = planned(advice_answers(sid))
    own = r.costs.owned
    assert own is not None and own.gpus_owned == r.hardware.total_gpus == 2 * r.hardware.layout.load_gpus
    alone = planned({**advice_answers(sid), "monthly_budget": {"amount": 1, "currency": "CNY"}})
    one = alone.costs.owned
    assert one is not None and alone.hardware.layout.units == 1
    assert own.capex.low == pytest.approx(2 * one.capex.low, rel=0.02)  # two servers bought, not one
    f = next(x for x in r.findings if x.id == "cost.on_premises")
    assert f.title_key.endswith("_two.title") or f.title_key.endswith(".two.title")
    assert "two servers" in f.title_in("en") and "两台服务器" in f.title_in("zh_CN")


@pytest.mark.parametrize("sid", SUGGESTED)
def test_a_second_server_only_suggested_keeps_one_unit_and_the_wording(sid):
    r = planned(advice_answers(sid))
    f = r.finding("sizing.single_point")
    assert f is not None and not f.title_key.endswith("added.title")
    assert r.hardware.layout.units == 1 and r.hardware.layout.spare_units == 0
    assert "No redundancy" in f.title_in("en")
