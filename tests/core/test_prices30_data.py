"""The price data's provenance and its Chinese names (s30-prices30, issue 25).

- Every Chinese offer name belongs to a row of ``prices.json`` and every row has one; a row since retired keeps its
  name apart (``retired_offers``, for a plan saved with it), never under a live row's id.
- Every regional uplift's source reads in Chinese too (the rows' are checked by ``test_memo_wording_s15``).
- Hong Kong's and Singapore's uplift is AWS's own list price there over N. Virginia's (grade B, as Tokyo's and
  Europe's), not a survey's 20-40 % range: its figure is the ratio its source states.
- An alternative GPU is said sourced or not by its own rows, the same in the options list and as the cheaper
  placeholder (``unsourced_cheaper``): 06's small variant listed the H20 sourced in one and not in the other.
- A purchase of an export-sensitive part is priced on a figure dated after the last rule change where one was found
  (the H20 servers' 2024-07 price sent q26's memo back: "rests on stale 2024 prices").
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.data import prices
from advisor.plan.memo_text15 import price_offer, price_source
from advisor.plan.price_rows import UPLIFT_FACTOR, region_uplift
from advisor.plan.result import PriceRow
from advisor.plan.stand_in_prices import stale_capex
from tests.core.test_plan_consistency import SCENARIOS, _vary
from tests.support.former_h20_price import use_former_h20_price
from tests.support.planned import advice_answers, advice_plan

ZH = json.loads((Path(__file__).resolve().parents[2] / "resources" / "plan" / "prices_zh.json").read_text("utf-8"))


def _row_ids() -> set[str]:
    return {str(r["id"]) for r in prices()["rows"]}


def test_every_chinese_offer_name_is_a_rows_and_every_row_has_one():
    names = set(ZH["offers"])
    assert names - _row_ids() == set(), "names of rows prices.json no longer has: move them to retired_offers"
    assert _row_ids() - names == set()


def test_a_retired_rows_name_is_kept_apart_and_still_read():
    retired = {k for k in ZH["retired_offers"] if not k.startswith("_")}
    assert retired and not retired & _row_ids()
    row = PriceRow(id="cn.l20", offer="Mainland cloud L20 (placeholder; get a quote)", gpu="l20-48g",
                   kind="on_demand", low=0.7, high=1.6, unit="USD/GPU-hour", date="2026-09", source="", grade="U")
    assert price_offer(row, "zh_CN") == ZH["retired_offers"]["cn.l20"]
    assert price_offer(row, "en") == row.offer


def test_every_regional_uplifts_source_reads_in_chinese():
    """The memo shows the uplift's and the exchange rate's sources as written in prices.json (the other factors'
    are said by their own i18n keys)."""
    data = prices()
    sources = [data["factors"][name]["source"] for name in set(UPLIFT_FACTOR.values())] + [data["fx"]["source"]]
    assert [s for s in sources if price_source(s, "zh_CN") == s] == []


@pytest.mark.parametrize("region", ["hong_kong", "singapore"])
def test_hong_kong_and_singapore_uplifts_are_awss_own_list_prices(region):
    up = region_uplift(region)
    assert up is not None and up.grade in ("A", "B") and "AWS" in up.source
    factor = prices()["factors"][UPLIFT_FACTOR[region]]
    assert factor["url"].startswith("https://")
    # each "$there vs $N. Virginia" pair the source quotes gives the factor it states
    pairs = re.findall(r"\$([\d.]+) vs (?:N\. Virginia )?\$([\d.]+)", up.source)
    assert pairs and all(float(a) / float(b) == pytest.approx(up.low, abs=0.005) for a, b in pairs)
    assert up.low == up.high


def test_hong_kong_and_singapore_are_no_longer_one_survey_range():
    hk, sg = region_uplift("hong_kong"), region_uplift("singapore")
    assert hk is not None and sg is not None and hk.source != sg.source
    assert "apac_uplift" not in prices()["factors"]


def test_an_alternative_is_sourced_or_not_as_its_cheaper_placeholder_copy():
    r = make_plan(answers_from_dict(_vary(SCENARIOS["06_sensitive_medical"], 1.0, 1.0, 1.0)))
    g = r.gpu_choice
    assert g is not None and g.unsourced_cheaper is not None and g.chosen.price_sourced
    same = [a for a in g.alternatives if a.gpu == g.unsourced_cheaper.gpu]
    assert same and all(a.price_sourced == g.unsourced_cheaper.price_sourced for a in same)
    assert not g.unsourced_cheaper.price_sourced  # the H20's mainland rent is a placeholder
    assert any(a.price_sourced for a in g.alternatives if a.gpu != g.unsourced_cheaper.gpu)  # Alibaba's A10 quote


def test_q26s_h20_purchase_is_priced_after_the_last_rule_change_and_says_its_source():
    r = advice_plan("q26_steady_3y_strong_ops_buy")
    capex = [p for p in r.costs.prices if p.kind == "capex" and p.gpu == "h20-96g"]
    # s31-pricegate32 re-argued (was grade "C" and no placeholder finding): the dated report prices the 141 GB
    # H20's module, a stand-in for the 96 GB part (grade U, blind review 20b q26), so the purchase is said to rest on
    # a placeholder (the plain case, not the stale one: the price is dated after the last rule change)
    assert capex and all(p.url and p.grade == "U" for p in capex)
    assert stale_capex(r.costs.prices) == []  # no longer "rests on a 2024-07 price"
    got = [f for f in r.findings if f.id == "cost.placeholder_purchase"]
    assert [f.title_key for f in got] == ["plan.rule.cost.placeholder_purchase.title"]


def test_a_purchase_on_the_former_2024_h20_price_asks_for_a_current_quote(monkeypatch):
    """The stale case of ``cost.placeholder_purchase`` (moved from test_plan_obligations' table, where q26 no longer
    reaches it on the built-in rows): it fires on a price dated before the part's rules last changed."""
    use_former_h20_price(monkeypatch)
    r = make_plan(answers_from_dict(advice_answers("q26_steady_3y_strong_ops_buy")))
    got = [f for f in r.findings if f.id == "cost.placeholder_purchase"]
    assert [f.title_key for f in got] == ["plan.rule.cost.placeholder_purchase.stale.title"]


def test_a_purchase_on_the_former_2024_h20_price_with_the_vendors_quote_asks_no_more(monkeypatch):
    use_former_h20_price(monkeypatch)
    quote = {"gpu": "h20-96g", "kind": "capex", "low": 140_000, "high": 150_000, "unit": "CNY/GPU", "date": "2026-11"}
    r = make_plan(answers_from_dict(advice_answers("q26_steady_3y_strong_ops_buy")), quotes=[quote])
    assert not [f for f in r.findings if f.id == "cost.placeholder_purchase"]
