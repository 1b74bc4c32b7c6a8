"""Blind review 27 (issue 25, s36-rowtrim): the tokens row states one month, and the cost per million tokens is shown
where it decides something.

- q21: "the token volume is stated three ways ('140,000,000 / 41,000,000', '660,000,000', '66,000,000'); pick one
  and footnote the others"; q30, q34, q09 alike: the row is the month the costs use and its range, one sentence; the
  estimate from the answers is the assumptions list's, which says the costs read the peak instead.
- q01: "as 6 requests in flight, 420,000,000 / 70,000,000" read as a third volume: it is the range's high end.
- q02: "Your peak of 4 at once would mean more, 6,300,000 output tokens…" too long: one clause, no other month.
- q08 en: "'stable around the clock' is 'read as steady through office hours'; follow the answer or ask".
- q12/q13/q43: a self-hosted "output 433–617 CNY" per million at 2–9 % use is misleading: the row goes where the
  setup is little used and no one buys its tokens; an API (q11, q18) and a batch job (q06) keep it, and since
  s37-owner (review 28, q24) so does an API-led page's fallback of a sold service (q12, q13), beside the API's rates.
- q36 zh: "约 170 亿" on page 1 beside "170–660 亿" in the next steps: one break-even figure in both.
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import office_token_rows, per_million_costed, volume_peak
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import about, round_money
from advisor.plan.result import PlanResult
from advisor.plan.volume_low_end import FLOOR
from advisor.plan.volume_range import HOURS_PER_MONTH, OFFICE_HOURS
from tests.support.peak_said import peak_read_said
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
TOKENS = {"en": "| Tokens per month", "zh_CN": "| 每月 token"}
PER_MILLION = ("memo4.cost.per_million", "memo.text15.cost.per_million", "memo.text15.cost.per_million_self",
               "memo.cost.per_million_tokens", "memo.cost.per_million_all")


def _tokens_row(r: PlanResult, lang: str) -> str:
    rows = [x for x in render_memo_markdown(r, lang).splitlines() if x.startswith(TOKENS[lang])]
    assert len(rows) == 1
    return rows[0].split("|")[2]


def _figures(text: str) -> list[int]:
    return [int(x.replace(",", "")) for x in re.findall(r"\d{1,3}(?:,\d{3})+", text)]


def _has_per_million(r: PlanResult, lang: str) -> bool:
    memo = render_memo_markdown(r, lang)
    return any(f"| {translate(lang, k)} |" in memo for k in PER_MILLION)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q21_fast_launch_hk_rule1", "q34_mixed_users_split", "q09_eu_voice_agent"])
def test_a_peak_read_month_is_one_month_and_its_range(name, lang):
    r = advice_plan(name)
    c = r.costs
    raised = c.volume_basis[FLOOR]
    row = _tokens_row(r, lang)
    big = [x for x in _figures(row) if x >= 1_000_000]
    # the month the costs use first, then its high end: the estimate from the answers is not in the row
    assert big[:2] == [round(c.input_tokens_per_month), round(c.output_tokens_per_month)]
    assert round_money(float(raised["estimate"])) not in row
    # the range's high end, the only other volume; where the month is the busiest hour alone, the day/night rule's
    # central reading between them (s40-volume, review 32 q21: "use the same peak÷3 rule as the other memos")
    mid = volume_peak.central(c)
    assert len(big) == (6 if mid is not None else 4) and big[-1] > big[1]
    if mid is not None:
        assert big[1] < big[3] < big[5] and about(mid) == f"{big[3]:,}"
    assert row.count("。" if lang == "zh_CN" else ". ") <= 1  # one sentence
    # the assumption that states the estimate says the costs read the peak instead (a footnote, no figure)
    memo = render_memo_markdown(r, lang)
    assert peak_read_said(r, lang) in memo  # the month read from the peak, the list\'s one basis (s38-usage)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q01_office_lan_capex_contracts", "q03_hospital_private_wan_medical"])
def test_a_head_count_month_is_one_month_and_its_range(name, lang):
    """The in-flight reading is the range's high end (the GPU use and power read it), said once as that end."""
    r = advice_plan(name)
    c = r.costs
    row = _tokens_row(r, lang)
    big = [x for x in _figures(row) if x >= 1_000_000]
    assert big[:2] == [round(c.input_tokens_per_month), round(c.output_tokens_per_month)]
    assert len(big) == 6  # the month, its low end, its high end
    assert big[5] == float(f"{c.output_tokens_per_month_high:.2g}")  # said as the estimate it is, to two figures
    assert "%" not in row  # the head count's shares are the assumptions list's


@pytest.mark.parametrize("lang", LANGS)
def test_a_short_burst_names_no_other_month(lang):
    """q02: the peak read as a short burst, in one clause without the month it would mean."""
    r = advice_plan("q02_office_lan_small_design_agency")
    row = _tokens_row(r, lang)
    vp = r.costs.volume_peak
    assert vp and vp.get("cap")
    assert round_money(float(vp["implied"])) not in row and "6,300,000" not in row
    assert len([x for x in _figures(row) if x >= 1_000_000]) == 6


@pytest.mark.parametrize("lang", LANGS)
def test_q08_says_its_answer_and_asks(lang):
    """Staff's steady load: the office hours are the base case, the answered "stable around the clock" is said with
    its month as the upper end, and asked (s40-volume, blind review 32, q08: "show the office-hours figure as the base
    case"; review 29: say the answer and ask rather than change it silently)."""
    r = advice_plan("q08_ascend_fleet_internal")
    row = _tokens_row(r, lang)
    line = r.costs.volume_basis[FLOOR]["line"]
    assert line["hours"] * line["days"] == OFFICE_HOURS  # the month costed counts the office hours alone
    assert ("stable around the clock" if lang == "en" else "全天稳定") in row
    clock = about(r.costs.output_tokens_per_month * HOURS_PER_MONTH / OFFICE_HOURS)
    assert clock in row and row.index(f"{r.costs.output_tokens_per_month:,.0f}") < row.index(clock)
    assert ("24 hours a day" if lang == "en" else "每天计 24") not in row


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q43_us_team_mainland_low_latency"])
def test_per_million_left_out_of_a_little_used_service_sold_by_use(name, lang):
    r = advice_plan(name)
    assert per_million_costed.low_use(r.costs) and not office_token_rows.prices_tokens(r)
    assert not _has_per_million(r, lang)
    assert r.costs.cost_per_million_tokens is not None  # the JSON keeps the figures


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold"])
def test_per_million_kept_for_an_api_led_fallback_of_a_sold_service(name, lang):
    """s37-owner (blind review 28, q24: "finance cannot compare like for like"): under a hosted-API lead the
    self-hosted fallback's row stays at any use, the idle words and the API's rates beside it."""
    r = advice_plan(name)
    assert per_million_costed.low_use(r.costs) and office_token_rows.api_led_sold(r)
    assert _has_per_million(r, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q11_paid_api_b25", "q18_us_fleet_32_h100", "q06_l20_batch_72h_claims"])
def test_per_million_kept_where_tokens_are_priced(name, lang):
    assert _has_per_million(advice_plan(name), lang)


def test_per_million_rule_reads_use_not_the_scenario():
    """The same business-sold service keeps the row once its setup is busy (at least ``LOW_USE``)."""
    r = advice_plan("q43_us_team_mainland_low_latency")  # not API-led (s37-owner: an API-led fallback keeps it)
    busy = r.model_copy(update={"costs": r.costs.model_copy(update={"utilisation": per_million_costed.LOW_USE,
                                                                     "usage_high": per_million_costed.LOW_USE})})
    assert office_token_rows.prices_tokens(busy) and not office_token_rows.prices_tokens(r)


@pytest.mark.parametrize("name", ["q36_bursty_b2b_event_mainland", "q22_hk_company_telecom_only"])
def test_next_steps_name_page_ones_break_even(name):
    """Page 1 names the break-even's low end alone where the setup never serves its high end; the next steps' trigger
    says the same figure, not the range past the setup's ceiling."""
    for lang, lead_re, step_re in (
            ("en", r"above about ([^(]+?) tokens a month", r"Later, past ([^ ]+(?: [a-z]+)?) tokens a month"),
            ("zh_CN", r"每月用量到约 (.+?) token", r"以后每月用量超过 (.+?) token")):
        memo = render_memo_markdown(advice_plan(name), lang)
        lead, step = re.search(lead_re, memo), re.search(step_re, memo)
        assert lead and step, lang
        assert step.group(1).strip() == lead.group(1).strip()
        assert "–" not in step.group(1)
