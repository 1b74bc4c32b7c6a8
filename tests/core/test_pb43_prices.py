"""Price stand-ins said as what is known (blind review 34, pb43), on the advice scenarios' real plans.

1. A purchase built on the 2024-03 L20 card price and an 8-card server's share (q03, q17, q31) says the price's date,
   grade and source and that a quote may come in higher or lower, never "likely low"; the quote threshold stays.
2. A budget inside a rented range (q10) is said as the per-GPU quote the plan fits at, never as a share of the range.
3. A fix priced on a marketplace stand-in (q20) says so beside its cost, and the first next step asks data-centre
   clouds, not a marketplace, for a quote naming the parts.
4. A colocated BGP line under its source's 100 Mbps bulk package (q26) says a small commitment prices near the top.
"""

from __future__ import annotations

import re

import pytest

from advisor.plan import budget_fit43
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
Q03, Q10, Q17 = "q03_hospital_private_wan_medical", "q10_128k_document_assistant", "q17_capex_only_university_lab"
Q20, Q26, Q31 = "q20_china_parts_offshore_sg", "q26_steady_3y_strong_ops_buy", "q31_icp_filed_hosting_move"


def _headline(memo: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith(("**Recommendation**", "**建议**")))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q03, Q17, Q31])
def test_purchase_estimate_says_its_basis_and_either_direction(name: str, lang: str) -> None:
    r = advice_plan(name)
    row = next(p for p in r.costs.prices if p.kind == "capex" and p.gpu == r.hardware.gpu and p.server_gpus)
    head = _headline(render_memo_markdown(r, lang))
    assert "likely low" not in head and "偏低" not in head
    assert row.date in head and "aqiusha.com" in head  # the card price's date and its source
    # the grade in the project's one word for it (可信度, test_wording18)
    assert (f"grade-{row.grade}" if lang == "en" else f"单卡价格（可信度 {row.grade}）") in head
    assert ("higher or lower" if lang == "en" else "可能更高，也可能更低") in head
    assert ("the quote decides" if lang == "en" else "以报价为准") in head
    if name == Q31:  # the memo's own buy threshold a server is kept
        assert ("at or under about ¥646,000 a server" if lang == "en" else "不高于每台约 ¥646,000") in head
    if name == Q17:
        assert ("at or under the one-off budget of 400,000 CNY" if lang == "en" else "不高于一次性预算 400,000 CNY") in head


@pytest.mark.parametrize("lang", LANGS)
def test_budget_inside_a_rented_range_is_said_as_the_quote_it_fits_at(lang: str) -> None:
    r = advice_plan(Q10)
    c = r.costs
    memo = render_memo_markdown(r, lang)
    # no share of the range said as if it were a probability
    assert not re.search(r"within it over \d+ %|\d+ % of (the|that) range|区间的约? ?\d+ ?%|区间中只有", memo)
    fit = budget_fit43.quote_at(c, 67121.31, 178017.37, c.budget_monthly)
    assert fit is not None
    ends = budget_fit43.hourly_ends(c)
    assert ends is not None and ends[0] * 730 < float(fit["month"].strip("¥").replace(",", "")) < ends[1] * 730
    said = ("a GPU a month" if lang == "en" else "每卡每月约")
    assert memo.count(said) >= 3  # page 1's plan, its upgrade and the feasibility row
    assert ("sign only if the quote is at or under" if lang == "en" else "才签约") in memo
    # the figure sits between the low and high ends' prices, and the two servers' fit is lower than one server's
    months = [int(m.replace(",", "")) for m in re.findall(r"¥([\d,]+) a GPU a month" if lang == "en"
                                                         else r"每卡每月约 ¥([\d,]+)", memo)]
    assert min(months) < max(months)


@pytest.mark.parametrize("lang", LANGS)
def test_marketplace_stand_in_is_said_and_quoted_from_data_centre_clouds(lang: str) -> None:
    r = advice_plan(Q20)
    assert r.costs.price_basis is not None and r.costs.price_basis.stand_in_marketplace
    memo = render_memo_markdown(r, lang)
    fix = next(line for line in memo.splitlines() if line.startswith(("- Allow other GPUs", "- 放开 GPU 限制")))
    assert ("on a stand-in price, a GPU marketplace's rows" if lang == "en" else "GPU 租赁市场价格的替代价") in fix
    step = next(line for line in memo.splitlines() if line.startswith("1. ") and ("quote" in line or "询价" in line))
    assert f"{r.hardware.total_gpus} × {r.hardware.gpu_name}" in step
    assert ("not a GPU marketplace" if lang == "en" else "不要找 GPU 租赁市场") in step
    assert "NVIDIA L4 24GB" in step  # the listed fallback stays


@pytest.mark.parametrize("lang", LANGS)
def test_small_colocated_bgp_line_prices_near_the_top(lang: str) -> None:
    r = advice_plan(Q26)
    memo = render_memo_markdown(r, lang)
    lc = r.line_cost
    assert lc is not None and lc.mbps < 100 and lc.monthly is not None
    # the line's bandwidth finding is said in the BGP finding's text (rep44, review 35: "BGP appears in two findings")
    width = next(f for f in r.findings if f.id == "cost.line_bandwidth")
    title = width.title_in(lang)
    assert any(line.startswith("- **") and title in line for line in memo.splitlines())
    assert ("bulk rate for 100 Mbps" if lang == "en" else "100 Mbps 批量价") in title
    assert f"{lc.monthly.high:,.0f}" in title  # the small commitment's figure: the range's top
    row = next(line for line in memo.splitlines() if line.startswith(("| Cost |", "| 成本 |")))
    assert ("prices near its top" if lang == "en" else "接近上限") in row
