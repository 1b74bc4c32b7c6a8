"""The premium network line priced per Mbps from sourced rows and inside the monthly total and the budget check
(issue 25, costs: "line bandwidth per Mbps with sources"; re-check 11b: q12, q13, q21, q43 left it unpriced).

- CN2 GIA and three-network lines are priced by the node's region where a dated source gives a price (Hong Kong;
  CN2 GIA also US West), with that source and its grade; Singapore and Japan at Hong Kong's row as a labelled
  stand-in (blind review 27, q13); a region the source does not price stays unknown.
- A priced line is in page 1's total and the budget is judged on that total: a budget the GPUs alone fit but the
  GPUs and the line do not is not "within budget".
- An unpriced line is said at the total and at the budget: not counted, with the room the budget leaves for it.
"""

from __future__ import annotations

import pytest

from advisor.plan.line_cost import price_row, rate_conv
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, advice_plan, no_stand_in, planned

LANGS = ("en", "zh_CN")
HK = "q43_us_team_mainland_low_latency"  # Hong Kong, three-network, USD budget
SG = "q13_sg_sellers_pi_below_threshold"  # Singapore, three-network: no CN2 GIA price there


def _row(memo: str, *labels: str) -> str:
    return next(line for line in memo.splitlines() if any(line.startswith(f"| {x} |") for x in labels))


def test_premium_rows_carry_a_dated_source_and_a_grade_and_only_where_sourced():
    for line, region in (("cn2_gia", "hong_kong"), ("cn2_gia", "us_west"), ("three_network", "hong_kong")):
        row = price_row(line, region)
        assert row is not None and row["url"].startswith("https://") and row["date"] and row["grade"] in "ABCU"
        assert 0 < float(row["low"]) <= float(row["high"]) and row["currency"] in ("CNY", "USD")
    for line, region in (("three_network", "us_west"), ("cn2_gia", "us_east"), ("three_network", "europe")):
        assert price_row(line, region) is None, (line, region)
    # no row of their own, Hong Kong's standing in, marked so (blind review 27, q13: lines38)
    for line, region in (("cn2_gia", "singapore"), ("three_network", "singapore"), ("cn2_gia", "japan")):
        row = price_row(line, region)
        assert row is not None and row["stand_in_from"] == "hong_kong", (line, region)
        assert {k: v for k, v in row.items() if k != "stand_in_from"} == price_row(line, "hong_kong")
    assert price_row("bgp", "mainland") is not None and price_row("any", "hong_kong") is None


def test_rate_conv_turns_a_row_into_the_answers_currency():
    assert rate_conv({"currency": "USD"}, "CNY", 7.0) == 7.0
    assert rate_conv({"currency": "CNY"}, "USD", 7.0) == pytest.approx(1 / 7.0)
    assert rate_conv({"currency": "USD"}, "USD", 7.0) == 1.0


def test_a_priced_hong_kong_line_is_in_the_total_and_the_budget_row_says_it_is_counted():
    r = advice_plan(HK)
    c, lc = r.costs, r.line_cost
    assert r.region == "hong_kong" and lc is not None and lc.monthly is not None and lc.source is not None
    row = price_row(lc.line, r.region)
    assert lc.source.url == row["url"] and lc.source.grade == row["grade"]
    assert lc.monthly.high == pytest.approx(float(row["high"]) * lc.mbps * rate_conv(row, c.currency, c.fx_rate),
                                            abs=0.01)
    assert c.monthly_with_line is not None and not c.line_excluded
    assert c.monthly_with_line.high == pytest.approx(c.recommended_monthly.high + lc.monthly.high, abs=0.01)
    total = f"{c.monthly_with_line.low:,.0f}–{c.monthly_with_line.high:,.0f}"
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert total in _row(memo, "Cost", "成本")
        budget = _row(memo, "Budget", "预算")
        assert ("with the network line" if lang == "en" else "含网络线路") in budget, budget


def test_the_budget_is_judged_on_the_total_with_the_priced_line():
    """A budget just above the GPUs' high end but under the GPUs + line's high end straddles: not within."""
    base = advice_plan(HK)
    # review 29: where the plan reserves every GPU for its peak's stock, a budget that tight keeps the cheaper mixed
    # month (peak_reserved39), so the GPUs' high end the budget sits above is that one
    p = base.costs.cloud_peak_floor
    gpu_high = p["high"] if p is not None else base.costs.recommended_monthly.high
    budget = round(gpu_high + 1)
    assert budget < base.costs.monthly_with_line.high
    r = planned({**advice_answers(HK), "monthly_budget": {"amount": budget, "currency": "USD"}})
    c = r.costs
    assert c.recommended_monthly.high == pytest.approx(gpu_high, abs=0.01)  # the GPUs alone fit the budget
    assert c.within_budget is False and c.budget_straddles  # the GPUs with the line do not, at the high end
    f = r.finding("cost.budget_straddles")
    assert f is not None
    assert f"{c.monthly_with_line.high:,.0f}" in f.title_in("en") + f.detail_in("en")
    # and a budget that covers the line's high end too is within it
    roomy = planned({**advice_answers(HK), "monthly_budget": {"amount": round(c.monthly_with_line.high + 1),
                                                              "currency": "USD"}})  # fmt: skip
    assert roomy.costs.within_budget is True and not roomy.costs.budget_straddles


def test_an_unpriced_line_is_said_at_the_total_and_at_the_budget_never_a_zero(monkeypatch):
    r = no_stand_in(monkeypatch, advice_answers(SG))
    c, lc = r.costs, r.line_cost
    assert r.region == "singapore" and lc is not None and lc.monthly is None
    assert c.line_excluded and c.monthly_with_line is None
    room = c.budget_monthly - c.recommended_monthly.high
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        cost = _row(memo, "Cost", "成本")
        assert ("leaves out the network line" if lang == "en" else "此合计不含") in cost, cost
        budget = _row(memo, "Budget", "预算")
        assert ("is not counted" if lang == "en" else "未计入") in budget, budget
        assert f"{room:,.0f}" in budget, budget  # the room the budget leaves for the line


def test_an_unpriced_line_over_the_budget_says_it_adds_to_it(monkeypatch):
    # a budget under any setup's cost (a leaner one without the spare would fit a budget just under this one's)
    r = no_stand_in(monkeypatch, {**advice_answers(SG), "monthly_budget": {"amount": 1000, "currency": "USD"}})
    assert r.costs.within_budget is False and r.costs.line_excluded
    memo = render_memo_markdown(r, "en")
    assert "adds to the total" in _row(memo, "Budget")

