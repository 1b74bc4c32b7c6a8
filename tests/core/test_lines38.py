"""The network line on page 1 (issue 25, "line bandwidth per Mbps with sources"; blind review 27, q13, q21, q31):

- a Singapore node's premium line, with no row of its own, is priced at Hong Kong's row and says so (a stand-in to
  quote), so the API path's month and the self-hosted total carry a figure instead of "not priced";
- an API path launched in Hong Kong and moved to the mainland after the ICP filing says its line drops to the
  mainland's BGP line, at that line's own month;
- a colocated rack's BGP line says the data centre's minimum commitment is not in the total, with its source's
  package;
- a running, ICP-filed service moved to a new provider names its date a cutover, not a launch.
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.batch_job37 import launch_label
from advisor.plan.data import gpu_choice_facts
from advisor.plan.line_cost import WITH_HOST, price_row, rate_conv
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import symbol_range
from advisor.plan.result import render
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
SG = "q13_sg_sellers_pi_below_threshold"
HK_MOVE = "q21_fast_launch_hk_rule1"
MOVE = "q31_icp_filed_hosting_move"


def _row(memo: str, *labels: str) -> str:
    return next(line for line in memo.splitlines() if any(line.startswith(f"| {x} |") for x in labels))


@pytest.mark.parametrize("lang", LANGS)
def test_a_singapore_line_is_priced_at_hong_kongs_row_said_as_a_stand_in(lang):
    r = advice_plan(SG)
    lc, c = r.line_cost, r.costs
    assert r.region == "singapore" and lc is not None and lc.monthly is not None
    assert (lc.stand_in_from, lc.stand_in_for) == ("hong_kong", "singapore")
    hk = price_row(lc.line, "hong_kong")
    assert lc.monthly.high == pytest.approx(float(hk["high"]) * lc.mbps * rate_conv(hk, c.currency, c.fx_rate), abs=0.01)
    assert not c.line_excluded and c.monthly_with_line is not None  # in the total, not left out
    memo = render_memo_markdown(r, lang)
    # s37-hostline (blind review 28, q13): a line sold with its provider's hosts is priced with the host, the stand-in
    # said inside that quote's bracket (``lead_line._together``), with the caution that a stand-in region's own price is not known here
    key = "pg42.lead.stand_in" if lc.line in WITH_HOST else "lines38_line.stand_in_paren"  # s40-pages: short, section 7 in full
    said = render(lang, key, {"from": {"tr": "plan.region.hong_kong"}, "region": {"tr": "plan.region.singapore"}})
    page1 = memo.split("## 2.")[0]
    assert said in page1  # the API path's line: whose price it is, to quote
    assert translate(lang, "apicost37_lead.whole.no_line") not in page1
    line_money = symbol_range(lc.monthly.low, lc.monthly.high, c.currency)
    assert line_money in page1
    finding = r.finding("cost.line_bandwidth")
    assert finding is not None
    assert render(lang, "lines38_line.stand_in", {"from": {"tr": "plan.region.hong_kong"},
                                                  "region": {"tr": "plan.region.singapore"}}) in finding.title_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_paths_line_drops_to_the_mainlands_after_the_move(lang):
    r = advice_plan(HK_MOVE)
    p = r.costs.phased
    assert p is not None and p.first_line == r.line_cost.line and p.then_line == "bgp"
    assert p.then_line_monthly is not None
    then = symbol_range(p.then_line_monthly.low, p.then_line_monthly.high, r.costs.currency)
    # cst44 (blind review 35, q21): the API path's month after the move is its own bullet, the line's price in it
    price = next(b for b in render_memo_markdown(r, lang).split("\n") if then in b)
    assert ("**After the move**" if lang == "en" else "**迁移后**") in price, price
    assert render(lang, "plan.line.bgp", None) in price
    # the same figure as the phased row's mainland line
    assert f"{p.then_line_monthly.low:,.0f}–{p.then_line_monthly.high:,.0f}" in render_memo_markdown(r, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_colocated_bgp_line_says_the_minimum_commitment_is_not_in_the_total(lang):
    r = advice_plan(MOVE)
    assert r.deployment_form == "bare_metal" and r.line_cost is not None and r.line_cost.line == "bgp"
    row = gpu_choice_facts()["line_bandwidth"]["prices"]["bgp_colo"]
    cost = _row(render_memo_markdown(r, lang), "Cost", "成本")
    lo, hi = row["package_year_low"] / 12, row["package_year_high"] / 12  # CNY, the answer's currency
    assert f"{lo:,.0f}–{hi:,.0f}" in cost and f"{row['package_mbps']} Mbps" in cost
    # blind review 34 (pb43): a 5 Mbps line under the 100 Mbps package says its low end is that bulk rate
    assert r.line_cost.mbps < row["package_mbps"]
    small = translate(lang, "pb43.lines38_line.commitment_small", package=f"{row['package_mbps']}",
                      mbps=f"{r.line_cost.mbps:,.0f}", cost="").split("(")[0].split("（")[0]
    assert small in cost
    # a cloud's BGP line (no colocation) says nothing of it
    rented = advice_plan(HK_MOVE)
    assert translate(lang, "lines38_line.commitment", mbps="", cost="")[:8] not in render_memo_markdown(rented, lang)
    assert small not in render_memo_markdown(rented, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_running_services_move_names_its_date_a_cutover(lang):
    moved = advice_plan(MOVE)
    assert any(i.id == "icp_access_record" for i in moved.timeline.items)
    assert launch_label(moved, lang) == translate(lang, "lines38_key.cutover")
    memo = render_memo_markdown(moved, lang)
    assert f"| {translate(lang, 'lines38_key.cutover')} |" in memo
    assert f"| {translate(lang, 'memo.key.launch')} |" not in memo
    new = advice_plan(SG)  # a service not yet running launches
    assert launch_label(new, lang) == translate(lang, "memo.key.launch")
