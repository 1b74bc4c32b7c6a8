"""Hosted-API prices by model size and market (issue #25, costs; sixth blind review q29/q40: "an implausibly low
placeholder for a 70B model", "the same ¥0.77–2.03 for 7B, 72B and 671B")."""

from __future__ import annotations

import pytest

from advisor.plan.cost import HOSTED_PLACEHOLDER_TITLE
from advisor.plan.data import prices
from advisor.plan.hosted_prices import tier_for, tiers
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from tests.support.planned import advice_answers, planned

FINDINGS = ("cost.hosted_api", "cost.hosted_weighed", "cost.token_margin", "cost.burst_hosted_api")


def _with_model(sid: str, model: str) -> dict:
    return {**advice_answers(sid), "model": model}


def _sources(result) -> set[str]:
    return {s.title for f in result.findings if f.id in FINDINGS for s in f.sources}


@pytest.mark.parametrize("sid", ["q24_us_saas_rent", "q40_tiny_budget_72b"])  # a US plan (USD), a mainland one (CNY)
def test_7b_32b_and_72b_models_get_different_hosted_prices_each_citing_its_row(sid):
    seen = {}
    for model, size in (("qwen2.5-7b-instruct", 7.6), ("qwen2.5-32b-instruct", 32.8), ("qwen2.5-72b-instruct", 72.7)):
        r = planned(_with_model(sid, model))
        market = "mainland" if sid.startswith("q40") else "global"
        row = tier_for(size, market)
        assert row is not None and row["market"] == market
        c = r.costs
        fx = 1.0 if (row["currency"] == "CNY") == (c.currency == "CNY") else (
            c.fx_rate if c.currency == "CNY" else 1 / c.fx_rate)
        assert (c.hosted_api_input_per_million.low, c.hosted_api_input_per_million.high) == pytest.approx(
            (row["input"][0] * fx, row["input"][1] * fx), abs=0.006)
        assert (c.hosted_api_output_per_million.low, c.hosted_api_output_per_million.high) == pytest.approx(
            (row["output"][0] * fx, row["output"][1] * fx), abs=0.006)
        cited = _sources(r)
        assert row["source"] in cited and HOSTED_PLACEHOLDER_TITLE not in cited
        seen[model] = (c.hosted_api_input_per_million, c.hosted_api_output_per_million)
    assert len({repr(v) for v in seen.values()}) == 3
    # a larger model's list is dearer at its high end and in the middle (low ends overlap: a 30B MoE with 3B active
    # parameters is listed below a 7B elsewhere)
    small, mid, big = (seen[m][1] for m in ("qwen2.5-7b-instruct", "qwen2.5-32b-instruct", "qwen2.5-72b-instruct"))
    assert small.high < mid.high < big.high and small.low + small.high < mid.low + mid.high < big.low + big.high


def test_a_mainland_plan_is_priced_on_a_mainland_list_in_cny_an_overseas_one_on_a_usd_list():
    mainland = planned(advice_answers("q40_tiny_budget_72b"))  # Qwen2.5-72B for mainland users
    row = tier_for(72.7, "mainland")
    assert row["currency"] == "CNY" and mainland.costs.currency == "CNY"
    assert mainland.costs.hosted_api_input_per_million.low == row["input"][0]  # the list's own figure, no FX trip
    overseas = planned(_with_model("q18_us_fleet_32_h100", "qwen2.5-72b-instruct"))
    g = tier_for(72.7, "global")
    assert overseas.costs.hosted_api_input_per_million.high == g["input"][1]


def test_a_size_no_list_covers_keeps_the_placeholder_and_says_so():
    r = planned(_with_model("q24_us_saas_rent", "gpt-oss-120b"))  # 117B: between the 72B and the 200B+ lists
    assert tier_for(116.8, "global") is None and tier_for(116.8, "mainland") is None
    assert HOSTED_PLACEHOLDER_TITLE in _sources(r)
    lo, hi = prices()["factors"]["hosted_api_per_m_tokens"]["low"], prices()["factors"]["hosted_api_per_m_tokens"]["high"]
    assert (r.costs.hosted_api_output_per_million.low, r.costs.hosted_api_output_per_million.high) == (lo, hi)


def test_every_row_has_its_source_date_grade_and_no_two_rows_of_a_market_overlap():
    for t in tiers():
        assert t["source"] and t["date"] and t["grade"] in ("A", "B", "C") and t["currency"] in ("USD", "CNY")
        assert 0 < t["input"][0] <= t["input"][1] and 0 < t["output"][0] <= t["output"][1]
    for market in ("global", "mainland"):
        spans = sorted((t["min_params_b"], t["max_params_b"] or 1e9) for t in tiers() if t["market"] == market)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("sid", ["q29_batch_impossible_budget", "q40_tiny_budget_72b"])
def test_the_memo_shows_the_hosted_figure_of_the_sized_list(sid, lang):
    r = planned(advice_answers(sid))
    text = render_memo_markdown(r, lang)
    row = tier_for(70.6 if sid.startswith("q29") else 72.7, "mainland")
    assert r.costs.hosted_api_input_per_million.low == row["input"][0]
    assert money_range(r.costs.hosted_api_monthly, "").strip().split("–")[0] in text
