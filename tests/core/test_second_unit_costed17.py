"""A second server the plan recommends is in its hardware and cost (issue #25, costs; sixth blind review q35/q38/q41:
"the recommended second server is not costed", "cost the two-node plan"). The plan includes it where classified
protection at level 3 asks for hot redundancy (a mainland hospital's or financial firm's system, GB/T 22239-2019
8.1.4.9 c) and the budget covers it, and since s24-redund24 (round 13: "the single node is flagged but left out of the
plan although a second fits well inside ¥300k") where a basic-ops team rents the unit (tests/core/test_redund24.py).
Elsewhere it is only suggested, priced beside totals that stay at one unit (a strong team's internal tool that may
stop for a day is its call: q35's and q38's answers with strong operations), and where no budget covers it the old
wording stays."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

ADDED = ["q03_hospital_private_wan_medical", "q41_finetune_internal_callcentre"]
STRONG = {"ops_capability": "strong"}  # a team that restores a node itself: the second unit is its call
PRICED_BESIDE = [("q35_deepseek_v3_h20_internal", STRONG)]
# q02/q17 buy (a second bought server is the team's call); q38 with a strong team rents one L40S
SUGGESTED = [("q02_office_lan_small_design_agency", {}), ("q17_capex_only_university_lab", {}),
             ("q38_eu_internal_hr_assistant", STRONG)]




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
        rented = r.deployment_form == "cloud"  # q41 rents since s18-rows (12 months, renting within budget)
        word = ("2 cloud VMs" if rented else "2 servers") if lang == "en" else ("2 台云主机" if rented else "2 台服务器")
        assert word in memo, (sid, lang)


def test_the_added_second_server_says_why_it_is_required():
    r = planned(advice_answers("q41_finetune_internal_callcentre"))
    f = r.finding("sizing.single_point")
    assert f is not None and "8.1.4.9" in f.detail_in("en") and "热冗余" in f.detail_in("zh_CN")
    assert any("22239" in s.title for s in f.sources)


@pytest.mark.parametrize(("sid", "change"), PRICED_BESIDE)
def test_an_optional_second_server_is_priced_beside_totals_for_one(sid, change):
    """Not required (no level-3 classified protection, a strong team): one unit in the hardware and the totals, the
    second priced in the finding, which says the totals leave it out (not "add it" beside totals that omit it)."""
    r = planned({**advice_answers(sid), **change})
    f = r.finding("sizing.single_point")
    assert f is not None and f.title_key == "plan.rule.sizing.single_point.covered.title"
    assert r.hardware.layout.units == 1 and r.hardware.layout.spare_units == 0
    assert "not in the totals above" in f.detail_in("en") and "合计未含" in f.detail_in("zh_CN")
    assert not any("22239" in s.title for s in f.sources)


def test_an_optional_second_rented_node_is_priced_and_covered():
    """q35 with a strong team: one 8 × H20 node rented; the finding prices the second, the budget covers two, the
    headline stays on one node."""
    r = planned({**advice_answers("q35_deepseek_v3_h20_internal"), **STRONG})
    f = r.finding("sizing.single_point")
    c = r.costs.recommended_monthly
    assert f is not None and f.params["monthly"] in f.detail_in("en")
    assert c.high <= r.answers["monthly_budget"]["amount"] / 2 + 1  # a second fits: the budget covers two


def test_q38_keeps_one_or_two_gpus():
    r = planned(advice_answers("q38_eu_internal_hr_assistant"))
    assert r.hardware.total_gpus <= 2


@pytest.mark.parametrize("sid", ["q03_hospital_private_wan_medical"])  # q41 rents since s18-rows
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


@pytest.mark.parametrize(("sid", "change"), SUGGESTED)
def test_a_second_server_only_suggested_keeps_one_unit_and_the_wording(sid, change):
    r = planned({**advice_answers(sid), **change})
    f = r.finding("sizing.single_point")
    assert f is not None and not f.title_key.endswith("added.title")
    assert r.hardware.layout.units == 1 and r.hardware.layout.spare_units == 0
    assert "No redundancy" in f.title_in("en")
