"""Blind review 27, small causes (issue #25): a source cited only where the page says something it supports for this
plan (q23: mainland → Hong Kong latencies in a Japan memo), and page 1's cost beside a stand-in price saying what
plan B, priced in the region itself, costs (q25: "the boss should see the confirmed figure, or both")."""

from __future__ import annotations

import pytest

from advisor.plan import in_region_fallback
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange
from tests.support.planned import advice_answers, planned

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

MAINLAND_ROUTES = "nxtrace"  # the mainland → Hong Kong / Tokyo / US West route measurements' url
CARRIER_TABLE = "china-net/Internationally-connected"  # the Hong Kong carriers' IP-transit prices


def _row(md: str, name: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {name} |"))


@pytest.mark.parametrize("name", ["q23_japan_game_npc", "q09_eu_voice_agent"])
def test_latency_budget_for_users_off_the_mainland_cites_no_mainland_routes(name: str) -> None:
    r = planned(advice_answers(name))
    f = r.finding("region.latency_budget")
    assert f is not None and f.params.get("predicted")
    assert f.sources and all(MAINLAND_ROUTES not in s.url for s in f.sources)
    assert any("RFC 8446" in s.title for s in f.sources)  # the handshakes it names keep their source
    for lang in ("en", "zh_CN"):
        assert "github.com/nxtrace" not in render_memo_markdown(r, lang)


def test_latency_budget_for_mainland_users_keeps_the_route_measurements() -> None:
    r = planned(advice_answers("q43_us_team_mainland_low_latency"))
    f = r.finding("region.latency_budget")
    assert f is not None and any(MAINLAND_ROUTES in s.url for s in f.sources)


@pytest.mark.parametrize("name,line,cited,not_cited", [
    ("q14_medical_followup_mainland", "bgp", "aliyunyh.com", CARRIER_TABLE),
    ("q22_hk_company_telecom_only", "cn2_gia", CARRIER_TABLE, "aliyunyh.com"),
])
def test_line_cost_cites_only_its_own_lines_prices(name: str, line: str, cited: str, not_cited: str) -> None:
    r = planned(advice_answers(name))
    f = r.finding("cost.line_bandwidth")
    assert f is not None and r.line_cost is not None and r.line_cost.line == line
    urls = [s.url for s in f.sources]
    assert any(cited in u for u in urls) and not any(not_cited in u for u in urls)
    assert f.verify is any(s.needs_verify for s in f.sources)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_stand_in_cost_has_plan_bs_own_price_beside_it(lang: str) -> None:
    r = planned(advice_answers("q25_hk_bank_retail"))
    fb = r.in_region_fallback
    assert fb is not None and fb["meets"]
    assert in_region_fallback.hardware_clause(r, lang, 3)
    cost = _row(render_memo_markdown(r, lang), "Cost" if lang == "en" else "成本")
    figure = money_range(MoneyRange(low=fb["monthly"][0], high=fb["monthly"][1]), fb["currency"])
    assert figure in cost and fb["gpu"] in cost and f"{fb['n']} " in cost
    budget = r.costs.budget_monthly
    assert budget is not None and fb["monthly"][0] > budget  # q25: plan B sold there is over the budget, said so
    assert ("over the budget" if lang == "en" else "超出预算") in cost


def test_no_plan_b_price_where_the_part_is_priced_in_the_region() -> None:
    r = planned(advice_answers("q23_japan_game_npc"))
    assert r.in_region_fallback is None
    assert in_region_fallback.cost_clause(r, "en", 3) == ""


# ---- the company's own PIPL duties on page 1 (review 27, q22) -------------------------------------------------------

def _reasons(md: str) -> list[str]:
    """Page 1's numbered reasons (before section 2)."""
    head = md.split("\n## ", 2)[1]
    return [line for line in head.splitlines() if line[:1].isdigit() and ". **" in line[:6]]


@pytest.mark.parametrize("name", ["q22_hk_company_telecom_only", "q43_us_team_mainland_low_latency"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_customers_export_duty_stays_in_section_7_when_no_personal_information_is_answered(name: str,
                                                                                          lang: str) -> None:
    """Review 27 raised the customers' export duty into the place the API paragraph frees; review 34 (q43 zh: "若提示词
    含人名…须在大陆指定代表，第五十三条" is not a reason for the decision of a writing assistant whose answers say it holds
    no personal data) keeps a duty that holds only if that answer is wrong out of page 1's reasons (gt43): it is said
    in section 7, with its condition."""
    from advisor.plan.reasons import DUTY_CASES, HOSTED, conditional_duty, deciding, duty_in_freed_place

    r = planned(advice_answers(name))
    f = r.finding("pi.none_as_answered")
    assert f is not None and f.title_key in DUTY_CASES and conditional_duty(f)
    assert f not in deciding(r.findings)  # a caveat in the ranking
    title = f.title_in(lang)
    assert ("Art. 53" if lang == "en" else "第五十三条") in title
    md = render_memo_markdown(r, lang)
    assert not any(title in line for line in _reasons(md))
    assert title in md.split("\n## ")[7]  # section 7: findings and obligations
    shown = [g for g in duty_in_freed_place(deciding(r.findings), r.findings, True) if g.id != HOSTED]
    assert f not in shown


def test_freed_place_stays_empty_without_a_duty_case() -> None:
    """Another finding ranked next is not raised into the freed place (q12: four reasons, as before)."""
    from advisor.plan.reasons import DUTY_CASES, HOSTED, deciding, duty_in_freed_place

    r = planned(advice_answers("q12_hk_saas_pi_contract"))
    why = deciding(r.findings)
    assert any(f.id == HOSTED for f in why) and not any(f.title_key in DUTY_CASES for f in r.findings)
    assert duty_in_freed_place(why, r.findings, True) == why


# ---- a context cap and a per-million price for the product owner (review 27, q18) -----------------------------------

@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_context_cap_on_a_paid_api_is_a_product_decision(lang: str) -> None:
    from advisor.plan import context_refusal37

    r = planned(advice_answers("q18_us_fleet_32_h100"))
    got = context_refusal37.line(r, lang)
    assert got is not None
    text, basis = got
    assert text.startswith(basis)  # where the cap comes from (p95 prompt + p95 answer), then whose decision it is
    assert ("product decision" in text and "product owner" in text) if lang == "en" else \
        ("产品决定" in text and "产品负责人" in text)
    assert f"--max-model-len {r.hardware.max_model_len}" in text
    assert text in render_memo_markdown(r, lang).split("\n## ", 2)[1]  # on page 1


def test_context_cap_on_a_public_api_is_said_as_a_public_one() -> None:
    from advisor.plan import context_refusal37

    r = planned({**advice_answers("q18_us_fleet_32_h100"), "charges_users": False, "audience": "public"})
    got = context_refusal37.line(r, "en")
    assert got is not None and "open to the public" in got[0] and "paid API" not in got[0]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_per_million_price_on_an_assumed_month_says_so(lang: str) -> None:
    from advisor.plan import owned_capital37

    r = planned(advice_answers("q18_us_fleet_32_h100"))
    own = r.costs.per_million_basis["own_volume"]
    assert own["answered"] is False  # no requests a day: the month is the plan's estimate
    said = owned_capital37.clause(r, lang)
    factor = r.costs.volume_basis["factor"]
    assert (f"peak ÷ {factor}" in said and "give requests a day" in said) if lang == "en" else \
        (f"峰值 ÷ {factor}" in said and "每日请求数" in said)
    # the month answered: the figure stands on the answers' own volume, no caveat
    own["answered"] = True
    assert "assumed" not in owned_capital37.clause(r, "en")
