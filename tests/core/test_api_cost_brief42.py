"""An API-led memo's page 1 says the fallback's other price bases, the stand-in's story and the "never pays" reason
once (s40-pages, ``api_cost_brief42``): the figures it leaves out are section 4's, the reason "Why the API first"'s."""

from __future__ import annotations

import re

import pytest

from advisor.plan import api_cost_brief42, memo_api_rows, reserved_price
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from advisor.plan.result import render
from tests.support.planned import advice_plan

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

LANGS = ("en", "zh_CN")
API_LED = ("q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold", "q24_us_saas_rent",
           "q36_bursty_b2b_event_mainland")


def _bare(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _sections(memo: str) -> list[str]:
    """The memo's ``##`` sections in order (page 1 first)."""
    return re.split(r"^## ", memo, flags=re.MULTILINE)[1:]


def _page_one_and_costs(memo: str) -> tuple[str, str]:
    parts = _sections(memo)
    return parts[0], parts[3]  # 1. Decision, 4. Cost over time


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", API_LED)
def test_the_fallbacks_month_gives_one_basis_and_section_4_the_others(name, lang):
    r = advice_plan(name)
    assert memo_api_rows.applies(r)
    c = r.costs
    full = reserved_price.phrase(c, lambda m: money_range(m, c.currency))
    assert isinstance(full, dict) and full["tr"] in api_cost_brief42.BRIEF_BASIS
    page1, costs = _page_one_and_costs(render_memo_markdown(r, lang))
    assert _bare(render(lang, api_cost_brief42.BRIEF_BASIS[full["tr"]], full)) in _bare(page1)
    assert _bare(render(lang, full["tr"], full)) not in _bare(page1)
    # every figure the full phrase gave beside the month is printed in section 4
    for key in ("on_demand", "mixed"):
        if full.get(key):
            assert full[key] in costs, (key, full[key])


@pytest.mark.parametrize("lang", LANGS)
def test_a_self_hosted_lead_keeps_every_basis_on_page_1(lang):
    r = advice_plan("q09_eu_voice_agent")
    assert not memo_api_rows.applies(r)
    c = r.costs
    # cst44: the phrase names whom the reserved peak serves, by the answered audience, as page 1 renders it
    full = reserved_price.phrase(c, lambda m: money_range(m, c.currency), audience=r.answers.get("audience"))
    assert isinstance(full, dict)
    page1, _ = _page_one_and_costs(render_memo_markdown(r, lang))
    assert _bare(render(lang, full["tr"], full)) in _bare(page1)


@pytest.mark.parametrize("lang", LANGS)
def test_the_host_and_lines_stand_in_is_said_short_and_in_full_in_section_7(lang):
    r = advice_plan("q13_sg_sellers_pi_below_threshold")
    part = r.start_with.params["cost37"]["parts"]
    stand_in = part["stand_in"]
    assert stand_in["tr"] == api_cost_brief42.STAND_IN_FULL  # the plan (--json) keeps the full words
    memo = render_memo_markdown(r, lang)
    page1 = _sections(memo)[0]
    assert _bare(render(lang, api_cost_brief42.STAND_IN_SHORT, stand_in)) in _bare(page1)
    assert _bare(render(lang, api_cost_brief42.STAND_IN_FULL, stand_in)) not in _bare(memo)
    # the line's finding says whose rate stands in, that the region's own is unknown, and to quote it
    line = r.line_cost
    assert line is not None and line.stand_in_from and line.stand_in_for
    findings = _sections(memo)[6]
    assert render(lang, f"plan.region.{line.stand_in_for}") in findings
    assert money_range(line.monthly, line.currency) in findings


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ("q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold"))
def test_never_pays_is_said_once_as_a_reason_and_the_break_even_keeps_its_figures(name, lang):
    r = advice_plan(name)
    be = r.start_with.params["be"]
    assert be["tr"] == api_cost_brief42.NEVER_KEY
    page1 = _sections(render_memo_markdown(r, lang))[0]
    assert _bare(render(lang, "hostline39_why.never", {})) in _bare(page1)
    # the memo cites the source as a reference number: the words before it compared
    assert _bare(render(lang, api_cost_brief42.NEVER_SHORT, {**be, "source": "@@"}).split("@@")[0]) in _bare(page1)
    assert _bare(render(lang, api_cost_brief42.NEVER_KEY, {**be, "source": "@@"}).split("@@")[0]) not in _bare(page1)


def test_other_phrases_are_left_as_they_are():
    assert api_cost_brief42.basis("") == ""
    other = {"tr": "plan.basis16.other", "x": 1}
    assert api_cost_brief42.basis(other) is other
    assert api_cost_brief42.move_break_even({"tr": "hostline39_be.part_low.flat"})["tr"] == "hostline39_be.part_low.flat"
    assert api_cost_brief42.stand_in_short({"parts": {"tr": "apicost37_lead.parts.both"}}) == \
        {"parts": {"tr": "apicost37_lead.parts.both"}}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ("q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold", "q24_us_saas_rent"))
def test_under_the_sign_off_the_data_path_asks_in_writing_for_no_training_alone(name, lang):
    page1 = _sections(render_memo_markdown(advice_plan(name), lang))[0]
    # the sign-off's condition asks for the retention terms in writing
    assert "retention and rate-limit terms" in page1 if lang == "en" else "提示词保存期限" in page1
    said = [render(lang, k, {}).strip(" ，,.。") for k in ("pg42.terms.lead", "pg42.terms.path")]
    assert any(_bare(s) in _bare(page1) for s in said)
    for full in ("plan.apivol25.terms.lead", "apilead34.terms"):
        assert _bare(render(lang, full, {}).strip(" ，,.。、")) not in _bare(page1)


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_sign_off_the_data_path_keeps_every_term(lang):
    r = advice_plan("q21_fast_launch_hk_rule1")
    page1 = _sections(render_memo_markdown(r, lang))[0]
    assert _bare(render(lang, "apilead34.terms", {}).strip(" ，,、")) in _bare(page1)
