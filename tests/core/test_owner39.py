"""The owner's decision under a hosted-API lead on another model or served from another place (s37-owner, issue 25,
blind review 28: q12, q13, q22, q24), and the self-hosted fallback's own cost per million tokens where tokens are
sold (q24: "finance cannot compare like for like"), and its rent reason on page 1.

- page 1's first bullet under the lead's sentence is the owner's decision where the API serves another model: the
  model it serves and the one asked for, the place the prompts go on to where that is not the node, and the
  fallback's whole month (the line in it where priced: the figure the cost row prints) if the model fails;
- the "When to self-host" bullet no longer says the test again;
- a service whose tokens are sold keeps the fallback's per-million row on an API-led page, divided over the same
  month of tokens the API's month is priced on, the API's rates beside it; a service not sold keeps none;
- the fallback's rent reason says the share used against the share where owning pays (the rent finding's figures).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.i18n import translate
from advisor.plan import owner_sign39
from advisor.plan.money_text import money_range, symbol_range
from advisor.plan.result import MoneyRange, render
from tests.support.planned import advice_plan, scenario_memo

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh_CN")
SECTION_2 = {"en": "\n## 2.", "zh_CN": "\n## 二、"}
LABEL = {"en": "**The owner's decision, the model:**", "zh_CN": "**负责人的决定（模型）**："}
PRICE = {"en": "**Price:**", "zh_CN": "**价格**"}
FAILS = {"en": "fails that test", "zh_CN": "未通过该测试"}  # ``apilead34.move.next``'s words


def _page_one(name: str, lang: str) -> str:
    return scenario_memo(ROOT / "bench" / "advice_scenarios" / f"{name}.json", lang).split(SECTION_2[lang])[0]


def _bullets(page: str) -> list[str]:
    """The lead's bullets, in order ("• " lines of its paragraph)."""
    return [line[2:] for line in page.splitlines() if line.startswith("• ")]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold",
                                  "q22_hk_company_telecom_only", "q24_us_saas_rent"])
def test_a_model_change_opens_on_the_owners_decision_with_the_fallbacks_month(name: str, lang: str) -> None:
    r = advice_plan(name)
    change = r.start_with.params["model37"]
    bullets = _bullets(_page_one(name, lang))
    first = bullets[0]
    assert first.startswith(LABEL[lang]), first
    assert change["other"] in first and change["asked"] in first
    c = r.costs
    month = c.monthly_with_line or c.recommended_monthly  # the fallback's whole month, as the cost row prints it
    # s38-swap (review 29): the bold line is the owner's choice, the fallback's month in it, said once
    head = _page_one(name, lang).split("\n• ")[0].splitlines()[-1]
    fallback = symbol_range(month.low, month.high, c.currency)
    assert change["other"] in head and change["asked"] in head and fallback in head, head
    assert fallback not in first
    assert bullets[1].startswith(PRICE[lang])  # the decision first, the price after it
    # the test is said once, in the decision: the move bullet no longer repeats "if … fails that test"
    assert FAILS[lang] in translate(lang, "apilead34.move.next")
    assert FAILS[lang] not in bullets[-1]


@pytest.mark.parametrize("lang", LANGS)
def test_prompts_sent_on_to_another_place_are_named_for_the_customers(lang: str) -> None:
    bullets = _bullets(_page_one("q22_hk_company_telecom_only", lang))
    where = render(lang, "plan.apiregion21.where.singapore")
    assert render(lang, "owner39_lead.where", {"where": where}) in bullets[0]
    # q13's API serves from the node's own place: no second place to approve
    assert render(lang, "owner39_lead.where", {"where": where}) not in _bullets(
        _page_one("q13_sg_sellers_pi_below_threshold", lang))[0]


def test_the_place_alone_is_the_owners_decision_too() -> None:
    """An API served from another place than the node, on the model asked for: the decision bullet names where the
    prompts go; the bold line is the choice, with what keeps them at the node (the fallback's month)."""
    runs = {"tr": owner_sign39.NEAR, "where": {"tr": "plan.apiregion21.where.singapore"},
            "region": {"tr": "plan.region.hong_kong"}}
    params = {"fallback39": {"month": "¥1–¥2", "line": False}, "start": "S"}
    for lang in LANGS:
        text = owner_sign39.bullet(params, runs, "", lang, render)
        assert render(lang, "plan.apiregion21.where.singapore") in text
        assert render(lang, "plan.region.hong_kong") in text
        head = owner_sign39.head(params, runs, "lead", lang, render)
        assert head.startswith("**S") and "¥1–¥2" in head
        assert render(lang, "plan.apiregion21.where.singapore") in head and render(lang, "plan.region.hong_kong") in head
    assert owner_sign39.bullet(params, None, "", "en", render) == ""  # neither the model nor the place changes
    assert owner_sign39.head(params, None, "lead", "en", render) == ""


@pytest.mark.parametrize("lang", LANGS)
def test_the_bold_line_is_the_owners_choice_with_its_conditions(lang: str) -> None:
    """s38-swap (blind review 29, q22: "API if Qwen3-14B passes the quality test and customers accept Singapore;
    otherwise self-host Qwen2.5-14B in HK at ¥12,743–¥21,586"): the test, thinking off where the model thinks by
    default, the second place's acceptance, and the fallback's month, in the bold line itself."""
    head = _page_one("q22_hk_company_telecom_only", lang).split("\n• ")[0].splitlines()[-1]
    where = render(lang, "plan.apiregion21.where.singapore")
    assert render(lang, "swap40_lead.accept", {"where": where}) in head
    assert render(lang, "swap40_lead.think") in head
    assert render(lang, "apihead37_lead.fallback_said") not in head  # the choice says it
    q13 = _page_one("q13_sg_sellers_pi_below_threshold", lang).split("\n• ")[0].splitlines()[-1]
    assert render(lang, "swap40_lead.accept", {"where": where}) not in q13  # served from the node's own place


@pytest.mark.parametrize("lang", LANGS)
def test_a_sold_services_fallback_keeps_its_per_million_row_on_the_apis_basis(lang: str) -> None:
    r = advice_plan("q24_us_saas_rent")
    c = r.costs
    own = c.per_million_basis["own_volume"]
    # the API's month is priced on the same month of tokens the row divides (like for like)
    api = (own["input_tokens"] * c.hosted_api_input_per_million.low
           + own["output_tokens"] * c.hosted_api_output_per_million.low) / 1e6
    assert c.hosted_api_monthly.low == pytest.approx(api, rel=0.01)
    memo = scenario_memo(ROOT / "bench" / "advice_scenarios" / "q24_us_saas_rent.json", lang)
    label = translate(lang, "memo.text15.cost.per_million_self")
    [row] = [line for line in memo.splitlines() if line.startswith(f"| {label} |")]
    for side in ("input", "output"):
        r_ = own[side]
        assert money_range(MoneyRange(low=r_["low"], high=r_["high"]), c.currency) in row
    assert money_range(c.hosted_api_output_per_million, c.currency) in row  # the API's rate beside it


@pytest.mark.parametrize("name", ["q21_fast_launch_hk_rule1", "q36_bursty_b2b_event_mainland"])
def test_an_api_led_service_not_sold_keeps_no_per_million_row(name: str) -> None:
    memo = scenario_memo(ROOT / "bench" / "advice_scenarios" / f"{name}.json", "en")
    assert translate("en", "memo.text15.cost.per_million_self") not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_the_fallbacks_rent_reason_says_why_not_buy(lang: str) -> None:
    r = advice_plan("q24_us_saas_rent")
    lead = next(f for f in r.findings if f.id == "cost.rent").params["lead"]
    page = _page_one("q24_us_saas_rent", lang)
    why = render(lang, "owner39_rent.upper", {k: v for k, v in lead.items() if k != "tr"})
    assert f"{lead['upper']} %" in why and f"{lead['low']} %" in why
    assert why in page
