"""The hosted-API path's headline month is the whole month, a router's price sets no low end for customers' data,
and a change of model is said in the lead's own sentence (s35-apicost, issue 25; blind review 26: q12, q13, q21,
q22, q24, q36)."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, front_host37, hosted_prices, make_plan
from advisor.plan.memo import _key_rows, render_memo_markdown
from advisor.plan.result import PlanResult
from tests.support.planned import advice_answers, advice_plan, no_stand_in

LANGS = ("en", "zh_CN")
HK_LINE = ["q12_hk_saas_pi_contract", "q21_fast_launch_hk_rule1", "q22_hk_company_telecom_only"]
PRICE = {"en": "**Price:**", "zh_CN": "**价格**："}
LEFT_OUT = {"en": "is left out", "zh_CN": "未计入"}


def _money(lo: float, hi: float, currency: str) -> str:
    sym = "¥" if currency == "CNY" else "$"
    a, b = f"{sym}{lo:,.0f}", f"{sym}{hi:,.0f}"
    return a if a == b else f"{a}–{b}"


def _lead(r: PlanResult, lang: str) -> tuple[str, str]:
    """(the lead's opening sentence, its price bullet) on page 1."""
    md = render_memo_markdown(r, lang)
    block = next(b for b in md.split("\n\n") if PRICE[lang] in b)
    lines = block.split("\n")
    price = next(line for line in lines if PRICE[lang] in line)
    # s41-swap (blind review 34): under the owner's choice way B's line says the API path's whole month, the price
    # bullet its parts: read together, in that order
    way_b = next((line for line in lines if line.startswith(("- **B)", "- **B）"))), None)
    return lines[0], f"{way_b} {price}" if way_b else price


def _first_money(text: str) -> str:
    found = re.search(r"[¥$][\d,]+(?:–[¥$][\d,]+)?", text)
    assert found is not None, text
    return found.group(0)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", HK_LINE)
def test_the_api_paths_month_opens_on_tokens_host_and_line_together(name, lang):
    r = advice_plan(name)
    assert r.start_with is not None and r.start_with.form == "hosted_api"  # the premise: an API lead
    line, c = r.line_cost, r.costs
    assert line is not None and line.monthly is not None and line.line != "any"  # ... with a priced line
    host = front_host37.price(r.region, c.currency)
    assert host is not None  # Hong Kong has a sourced VM row
    lo_api, hi_api = r.start_with.params["month37"]
    lo = round(lo_api) + round(host.low) + round(line.monthly.low)
    hi = round(hi_api) + round(host.high) + round(line.monthly.high)
    total = _money(lo, hi, c.currency)
    _, price = _lead(r, lang)
    # the whole month is the first figure the price bullet gives; each part follows it, named
    assert _first_money(price) == total
    host_said = _money(host.low, host.high, c.currency)
    line_said = _money(line.monthly.low, line.monthly.high, c.currency)
    assert host_said in price and line_said in price
    assert price.index(total) < price.index(host_said) < price.index(line_said)
    assert translate(lang, f"plan.line.{line.line}") in price
    # page 1's cost row says the same total (its parts: the lead's, said once), and no longer calls the host unpriced
    cost = dict(_key_rows(r, lang))[translate(lang, "memo.key.cost")]
    assert _first_money(cost) == total and host_said not in cost
    assert ("not priced" not in cost.split("If you self-host")[0]) if lang == "en" else ("未计价" not in cost)


@pytest.mark.parametrize("lang", LANGS)
def test_an_unpriced_line_leaves_the_total_before_it_and_judges_no_budget(lang, monkeypatch):
    r = no_stand_in(monkeypatch, advice_answers("q13_sg_sellers_pi_below_threshold"))
    assert r.line_cost is not None and r.line_cost.monthly is None  # the premise: no sourced line price
    host = front_host37.price(r.region, r.costs.currency)
    assert host is not None
    _, price = _lead(r, lang)
    lo_api, hi_api = r.start_with.params["month37"]
    total = _money(round(lo_api) + round(host.low), round(hi_api) + round(host.high), r.costs.currency)
    assert _first_money(price) == total
    assert translate(lang, "apicost37_lead.whole.no_line") in price
    for verdict in ("within", "over_top", "over"):  # no verdict on a total that leaves a part out
        assert translate(lang, f"headline33.lead.budget.{verdict}", budget="").split("{")[0].strip() not in price


@pytest.mark.parametrize("lang", LANGS)
def test_a_host_with_no_sourced_price_is_said_so_not_counted_as_zero(lang, monkeypatch):
    # s42-api: the mainland has a row now (Alibaba's list, review 35 q36); a region without one is made here
    monkeypatch.setattr(front_host37, "price", lambda region, currency: None)
    r = make_plan(answers_from_dict(advice_answers("q36_bursty_b2b_event_mainland")))  # not cached: patched
    assert r.start_with is not None and r.start_with.form == "hosted_api"
    assert front_host37.price("mainland", r.costs.currency) is None  # the premise: no mainland VM row
    _, price = _lead(r, lang)
    assert translate(lang, "apicost37_lead.whole.no_host") in price


@pytest.mark.parametrize("lang", LANGS)
def test_a_paid_business_services_low_end_is_a_direct_providers_not_a_routers(lang):
    r = advice_plan("q24_us_saas_rent")  # paid B2B SaaS, customers' documents
    assert hosted_prices.customers_data(_ctx(r))
    tier = hosted_prices.hosted_rates(_ctx(r)).tier
    assert tier is not None
    router = next(p for p in tier["providers"] if p.get("router"))
    direct = min(tuple(p["rates"]) for p in tier["providers"] if not p.get("router") and p.get("rates"))
    assert (tier["input"][0], tier["output"][0]) == direct  # the low end is the direct provider's list
    _, price = _lead(r, lang)
    assert router["name"] in price  # said apart, as left out
    assert LEFT_OUT[lang] in price.split(router["name"])[1]
    # an internal tool with no customers' data keeps the router's list as its low end
    other = advice_plan("q24_us_saas_rent", audience="internal", charges_users=False)
    low = hosted_prices.hosted_rates(_ctx(other)).tier
    assert low is not None and tuple(router["rates"]) == (low["input"][0], low["output"][0])
    assert other.costs.hosted_api_monthly.low < r.costs.hosted_api_monthly.low


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "other", "asked"), [
    ("q12_hk_saas_pi_contract", "Qwen3-14B", "Qwen2.5-14B"), ("q22_hk_company_telecom_only", "Qwen3-14B", "Qwen2.5-14B"),
    ("q24_us_saas_rent", "Qwen3-32B", "Qwen2.5-32B")])
def test_the_model_the_api_runs_on_is_said_in_the_leads_own_sentence(name, other, asked, lang):
    head, _ = _lead(advice_plan(name), lang)
    md = render_memo_markdown(advice_plan(name), lang)
    if head.startswith(("**Two ways", "**两种做法")):  # s41-swap (review 34): A) keeps the model asked for, B) the other
        a = next(x for x in md.splitlines() if x.startswith(("- **A)", "- **A）")))
        b = next(x for x in md.splitlines() if x.startswith(("- **B)", "- **B）")))
        assert asked in a and other in b and other not in a
        return
    assert other in head and asked in head
    assert head.index(other) < head.index(asked)


@pytest.mark.parametrize("lang", LANGS)
def test_a_lead_on_the_model_asked_for_names_no_change(lang):
    head, _ = _lead(advice_plan("q21_fast_launch_hk_rule1"), lang)
    assert "Qwen3" not in head


def _ctx(r: PlanResult):
    """The plan's context, made again from its answers (the result keeps the answers, not the context)."""
    from advisor.plan.answers import answers_from_dict
    from advisor.plan.context import resolve

    return resolve(answers_from_dict(r.answers))
