"""s41-swap (blind review 34, q12/q13/q22/q24 both languages): an API lead that changes the model or the data path is
the owner's choice of two ways, the self-host of the model asked for as prominent as the API; the filing a company
with no mainland entity cannot make is a question for counsel (a blocker only on open sign-up); the thinking switch is
the API step's, not page 1's headline."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.plan import owner_sign39
from advisor.plan.money_text import symbol_range
from advisor.plan.result import render
from tests.support.planned import advice_plan, scenario_memo

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh_CN")
SECTION_2 = {"en": "\n## 2.", "zh_CN": "\n## 二、"}
SWAPS = ["q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold", "q22_hk_company_telecom_only",
         "q24_us_saas_rent"]


def _page_one(name: str, lang: str) -> str:
    return scenario_memo(ROOT / "bench" / "advice_scenarios" / f"{name}.json", lang).split(SECTION_2[lang])[0]


def _line(page: str, *starts: str) -> str:
    return next(x for x in page.splitlines() if x.startswith(starts))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SWAPS)
def test_two_ways_each_with_its_month_the_asked_model_first(name: str, lang: str) -> None:
    r = advice_plan(name)
    page = _page_one(name, lang)
    change, cost = r.start_with.params["model37"], r.start_with.params["cost37"]
    month = r.costs.monthly_with_line or r.costs.recommended_monthly
    a, b = _line(page, "- **A)", "- **A）"), _line(page, "- **B)", "- **B）")
    assert change["asked"] in a and symbol_range(month.low, month.high, r.costs.currency) in a
    assert change["other"] in b and cost["total"] in b and change["other"] not in a
    assert page.index(render(lang, "sw43.head")) < page.index(a) < page.index(b)
    # what B changes said beside its month: the model (its test), and a second recipient where the path adds one
    assert render(lang, "sw43.b.model") in b
    runs = owner_sign39.near(owner_sign39.parts((r.start_with.params.get("near") or {}).get("runs")))
    assert (runs is not None) == (name in ("q12_hk_saas_pi_contract", "q22_hk_company_telecom_only"))
    if runs is not None:
        kind = "place_named" if owner_sign39.law_named(runs) else "place"
        assert render(lang, f"sw43.b.{kind}", {"where": runs["where"]}) in b
    assert ("contract below" if lang == "en" else "签订下述合同") not in page  # q12 en: it pointed to no contract


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SWAPS)
def test_the_filing_is_a_question_for_counsel_only_open_sign_up_blocks(name: str, lang: str) -> None:
    r = advice_plan(name)
    page = _page_one(name, lang)
    flagged = any(f.id == owner_sign39.FILING for f in r.findings)
    assert (render(lang, "sw43.blocker") in page) == flagged
    assert "blocks self-hosting" not in page and "受阻" not in page
    if flagged:  # sold to contracted business customers: said as such, and the launch stays feasible as answered
        assert r.feasible
        assert ("contracted business customers" if lang == "en" else "签约企业客户") in page
        assert any(q.assumption_key == "sw43.assume.open_signup_said" for q in r.open_questions)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SWAPS)
def test_the_thinking_switch_is_the_api_steps_not_the_headline(name: str, lang: str) -> None:
    page = _page_one(name, lang)
    bullets = [x for x in page.splitlines() if x.startswith(("- ", "**"))]
    assert not any("enable_thinking" in x for x in bullets)
    assert render(lang, "sw43.cond.think") in _line(page, "- " + render(lang, "swap41.cond.label", {"items": ""})[:8])
    step = next(x for x in page.splitlines() if "`enable_thinking: false`" in x)
    assert step[:2].rstrip(".").isdigit() or step[:3].rstrip(". ").isdigit()  # a numbered next step
    assert page.count("`enable_thinking: false`") == 1
