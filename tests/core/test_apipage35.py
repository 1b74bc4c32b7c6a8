"""Under an API lead, page 1's hardware and cost rows name the hosted API first and the self-hosted plan as the
fallback; the API path's host server is said to be unpriced; a self-hosted lead's rows are unchanged (s35-apipage,
blind review 24: q12, q13, q21, q22 "the table describes the fallback L40S plan, not the recommended API")."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import memo_api_rows
from advisor.plan.memo import _key_rows, render_memo_markdown
from advisor.plan.result import PlanResult
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
FALLBACK = {"en": "f you self-host", "zh_CN": "若自建"}
API = {"en": "API", "zh_CN": "模型 API 服务"}  # both rows' words for the led path
NONE_TO_RUN = {"en": "none to run", "zh_CN": "无需自己运行"}
API_LED = ["q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold", "q21_fast_launch_hk_rule1",
           "q22_hk_company_telecom_only"]


def _rows(r: PlanResult, lang: str) -> dict[str, str]:
    return dict(_key_rows(r, lang))


def _fallback(lang: str) -> str:
    """The words that open the self-hosted part of both rows ("if"/"If" before it in English)."""
    return FALLBACK[lang]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", API_LED)
def test_the_hardware_and_cost_rows_name_the_api_first_and_the_fallback_as_such(name, lang):
    r = advice_plan(name)
    assert memo_api_rows.applies(r)  # the premise: page 1 opens on a hosted API
    rows = _rows(r, lang)
    hardware, cost = rows[translate(lang, "memo.key.hardware")], rows[translate(lang, "memo.key.cost")]
    fallback = _fallback(lang)
    api = API[lang]
    assert api in cost and fallback in cost and cost.index(api) < cost.index(fallback)  # the led path first
    # re-argued in session 36 (s36-apiplace, review 27, q16: "Take the self-hosting fallback out of the headline
    # Hardware row: a newcomer will read it as part of the plan"): the Hardware row names the API alone; the
    # fallback's GPUs are in its own line under the reasons
    gpu = r.hardware.gpu_name or r.hardware.gpu
    assert hardware.startswith(NONE_TO_RUN[lang]) and api in hardware
    assert fallback not in hardware and gpu not in hardware
    assert gpu in render_memo_markdown(r, lang).split("\n## ")[1]  # the fallback's GPUs still on page 1
    # the API path's month, as the lead prices it (its whole month where the lead adds the host and the line, s35),
    # before the fallback's; the self-hosted month after it
    params = r.start_with.params
    cost37 = params.get("cost37")
    hosted = cost37["total"] if isinstance(cost37, dict) else params["hosted"]
    assert isinstance(hosted, str) and cost.index(hosted) < cost.index(fallback)
    plan_low = f"{r.costs.recommended_monthly.low:,.0f}"
    assert cost.index(fallback) < cost.index(plan_low)


# s35-apicost: the host priced and the path's whole month, the line unpriced (q13): tests/core/test_apicost37.py


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q01_office_lan_capex_contracts", "q03_hospital_private_wan_medical",
                                  "q35_deepseek_v3_h20_internal"])
def test_a_self_hosted_lead_keeps_its_rows(name, lang):
    r = advice_plan(name)
    assert not memo_api_rows.applies(r)
    for value in _rows(r, lang).values():
        assert NONE_TO_RUN[lang] not in value
        assert _fallback(lang) not in value


ROUTER = {"en": "a router", "zh_CN": "路由服务"}


@pytest.mark.parametrize("lang", LANGS)
def test_a_routers_low_end_is_said_with_a_direct_providers_list_beside_it(lang):
    """q24 (review 24): the lead's low end is OpenRouter's list; the row's direct provider (Cerebras) is named at
    its own list, both read from the price row (``hosted_router``), in the price bullet."""
    from advisor.plan import hosted_router

    r = advice_plan("q24_us_saas_rent")
    assert memo_api_rows.applies(r)
    page = render_memo_markdown(r, lang).split("\n## ")[1]
    price = next(line for line in page.splitlines() if line.startswith("- ") and ROUTER[lang] in line)
    row = next(t for t in __import__("advisor.plan.hosted_prices", fromlist=["tiers"]).tiers()
               if any(p.get("router") for p in t.get("providers", [])))
    router = next(p for p in row["providers"] if p.get("router"))
    direct = next(p for p in row["providers"] if not p.get("router") and p.get("rates"))
    assert router["name"] in price and direct["name"] in price
    assert " / ".join(f"${v:.2f}" for v in direct["rates"]) in price
    assert hosted_router.KEY


@pytest.mark.parametrize("name", ["q12_hk_saas_pi_contract", "q21_fast_launch_hk_rule1"])
def test_a_lead_not_priced_on_a_router_names_none(name):
    page = render_memo_markdown(advice_plan(name), "en").split("\n## ")[1]
    assert ROUTER["en"] not in page
