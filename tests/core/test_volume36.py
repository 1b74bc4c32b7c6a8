"""Blind review 25 (issue 25, s34-volume36): the month's tokens rest on one basis that agrees with the answers.

- q24: "the memo invents '250 people' ... and then overrides the stated peak ('these people cannot send that
  many')". A head count the plan assumed from the peak never caps the month that peak means: the stated peak wins,
  and the assumption beside it still asks for the head count. A head count the answers give still holds it (q17).
- q16: "Fix the token row labelled '按每天约 2,000 次请求': the situation says 2,000 conversations". A public chat
  priced as chats of a few turns has its tokens row lead with that month, the single-request month in brackets.
"""

from __future__ import annotations

import re

import pytest

from advisor.plan import burst, chat_turns, volume_peak
from advisor.plan.context import PEAK_FACTOR
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import round_money
from advisor.plan.volume_range import PEAK_RATE
from tests.support.planned import advice_answers, advice_plan

LANGS = ("en", "zh_CN")
TOKENS = {"en": "| Tokens per month", "zh_CN": "| 每月 token"}


def _row(memo: str, start: str) -> str:
    rows = [x for x in memo.splitlines() if x.startswith(start)]
    assert len(rows) == 1, rows
    return rows[0]


@pytest.mark.parametrize("name", ["q24_us_saas_rent", "q08_ascend_fleet_internal", "q43_us_team_mainland_low_latency"])
def test_a_head_count_read_from_the_peak_never_caps_that_peak(name):
    """No head count answered: the month is at least what the peak means (its busiest hour), never the most the
    people assumed from that peak send."""
    assert "users" not in advice_answers(name)
    c = advice_plan(name).costs
    assert not volume_peak.people_capped(c)
    assert not (c.volume_peak or {}).get("cap")
    raised = c.volume_basis[volume_peak.FLOOR]
    assert c.output_tokens_per_month == pytest.approx(float(raised["implied"]))
    assert c.output_tokens_per_month > 2 * float(raised["estimate"])  # the people's estimate is the smaller reading


def test_an_answered_head_count_still_holds_the_month():
    """q17 answers 20 people: what they can send holds the month (the peak is read as a short burst)."""
    c = advice_plan("q17_capex_only_university_lab").costs
    assert (c.volume_peak or {}).get("cap") is not None
    assert volume_peak.FLOOR not in (c.volume_basis or {})


@pytest.mark.parametrize("lang", LANGS)
def test_q24s_memo_no_longer_says_the_people_cannot_send_its_peak(lang):
    memo = render_memo_markdown(advice_plan("q24_us_saas_rent"), lang)
    assert not re.search(r"cannot send that many|发不了那么多|发不出", memo)
    # the assumption is still said, and asked about: in the assumptions list, the tokens row stating the month the
    # costs use alone (s36-rowtrim, review 27, q21: "pick one and footnote the others")
    assert "250" in memo and "250" not in _row(memo, TOKENS[lang])


@pytest.mark.parametrize("lang", LANGS)
def test_q16s_tokens_row_leads_with_the_chats_month(lang):
    r = advice_plan("q16_hosted_api_mainland_registration")
    c = r.costs
    f = r.finding("cost.chat_turns")
    assert f is not None
    row = _row(render_memo_markdown(r, lang), TOKENS[lang]).split("|")[2]
    single = f"{round_money(c.input_tokens_per_month)} / {round_money(c.output_tokens_per_month)}"
    figures = [int(x.replace(",", "")) for x in re.findall(r"\d{1,3}(?:,\d{3})+", row)]
    lo_in, _ = chat_turns.factors(c_prompt := f.params["prompt"], f.params["output"], f.params["n1"])
    # the row opens on the chats' input, 3 turns' worth: several times the single-request month
    assert figures[0] == pytest.approx(c.input_tokens_per_month * lo_in, rel=0.05) and c_prompt > 0
    assert figures[0] > 5 * c.input_tokens_per_month
    assert single in row and row.index(single) > row.index(f"{figures[0]:,}")  # the single month after, once
    assert "2,000" in row


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q31_icp_filed_hosting_move", "q26_steady_3y_strong_ops_buy"])
def test_a_steady_services_month_is_not_its_gpu_utilisation(name, lang):
    """q31: "The tokens row multiplies the peak by '75 % measured utilisation'. That mixes GPU kernel-busy time with
    load". A steady service with its utilisation measured and no requests a day: the month is the peak's rate ÷ the
    steady load's peak-to-average around the clock, whatever the utilisation; the measured figure still says how
    busy the GPUs are (the GPU-use share) and the memo says why it is not the volume."""
    r = advice_plan(name)
    c = r.costs
    basis = c.volume_basis
    assert basis["tr"] == burst.STEADY_KEY
    rate = float(basis[PEAK_RATE])
    assert c.output_tokens_per_month == pytest.approx(rate * 3600 * 730 / PEAK_FACTOR["stable"], rel=0.01)
    measured = advice_answers(name)["measured_utilisation"]
    assert c.output_tokens_per_month != pytest.approx(rate * 3600 * 730 * measured, rel=0.01)
    assert c.utilisation == pytest.approx(measured)  # the GPUs' busy share keeps the measurement
    row = _row(render_memo_markdown(r, lang), TOKENS[lang])
    assert f"{round(measured * 100)} %" in row and "1.5" in row
    # the same answers with a different measured utilisation (the plan's setup, and so its rate at the peak, may
    # change with it): the month is still that setup's peak ÷ 1.5, not the new utilisation
    other = advice_plan(name, measured_utilisation=0.4).costs
    assert other.volume_basis["tr"] == burst.STEADY_KEY
    other_rate = float(other.volume_basis[PEAK_RATE])
    assert other.output_tokens_per_month == pytest.approx(other_rate * 3600 * 730 / PEAK_FACTOR["stable"], rel=0.01)


@pytest.mark.parametrize("lang", LANGS)
def test_q38s_data_subjects_are_said_apart_from_its_assumed_users(lang):
    """q38: "the answers give '5,000 people a year' whose data is processed, but the token estimate assumes 'about 75
    people'". Without a head count, the assumption names the data subjects and says they are not its users."""
    r = advice_plan("q38_eu_internal_hr_assistant")
    subjects = advice_answers("q38_eu_internal_hr_assistant")["data_sensitivity"]["pi_subjects_per_year"]
    text = [a for a in r.assumptions if a.field == "requests_per_day"][0].text_in(lang)
    assert f"{subjects:,}" in text and re.search(r"not taken as its users|未当作使用者", text)
    assert "  " not in text
    # a head count answered: no such clause (the users are counted, not assumed)
    counted = advice_plan("q38_eu_internal_hr_assistant", users=75)
    text = [a for a in counted.assumptions if a.field == "requests_per_day"][0].text_in(lang)
    assert f"{subjects:,}" not in text
