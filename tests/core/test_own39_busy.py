"""A busy steady load measured for years is read for what it says about owning, not set aside (issue 25, blind
review 28, q26: "the memo sets aside the customer's measured 80 % utilisation ... and calls the case 'a tie within
these stand-in price ranges'"; zh: "ask for request counts rather than discarding the measurement").

- the cost row says owning's edge at the middle holds over the term (no idle hours a rented setup could shed), the
  measurement an upper reading that requests a day confirm, never "a tie";
- the set-aside line prices the hosted API at the measured reading too: its month × the busy tokens ÷ the tokens;
- the reading needs a measured, busy, steady load over a multi-year horizon with no requests a day.
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import api_plain, set_aside, steady_busy39
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, advice_plan

Q26 = "q26_steady_3y_strong_ops_buy"
LANGS = ("en", "zh_CN")
TIE = {"en": "a tie within these stand-in price ranges", "zh_CN": "两者不分高下"}


def _cost_row(md: str, lang: str) -> str:
    return next(x for x in md.splitlines() if x.startswith("| " + translate(lang, "memo.key.cost") + " |"))


@pytest.mark.parametrize("lang", LANGS)
def test_q26_cost_row_reads_the_measured_load_not_a_tie(lang):
    r = advice_plan(Q26)
    a = r.answers
    row = _cost_row(render_memo_markdown(r, lang), lang)
    assert TIE[lang] not in row
    pct, months = round(a["measured_utilisation"] * 100), a["expected_duration_months"]
    assert f"{pct} %" in row and f"{months}" in row


@pytest.mark.parametrize("lang", LANGS)
def test_q26_prices_the_api_at_the_measured_reading(lang):
    r = advice_plan(Q26)
    f = r.finding("cost.hosted_weighed")
    plain = f.params["plain"]
    assert plain["tr"] == api_plain.BUSY_KEY
    factor = steady_busy39.busy_factor(r.costs)
    assert factor is not None and factor > 1
    hosted, plan = r.costs.hosted_api_monthly, r.costs.recommended_monthly
    low, high = hosted.low * factor, hosted.high * factor
    assert (low + high) / 2 >= (plan.low + plan.high) / 2  # said only where the API is then no cheaper
    assert f"{low:,.0f}" in plain["busy"] and f"{high:,.0f}" in plain["busy"]
    line = set_aside.text(r.findings, lang)
    assert plain["busy"] in line and f"{plain['measured']} %" in line


def test_reading_needs_a_busy_steady_multi_year_measurement():
    base = advice_answers(Q26)
    assert steady_busy39.reading(base) == {"measured": 80, "months": 36}
    for change in ({"load_pattern": "diurnal"}, {"measured_utilisation": 0.45}, {"measured_utilisation": None},
                   {"expected_duration_months": 12}, {"requests_per_day": 50000}):
        assert steady_busy39.reading({**base, **change}) is None, change


def test_no_busy_clause_where_the_api_stays_cheaper_at_the_reading():
    r = advice_plan(Q26)
    hosted, plan = r.costs.hosted_api_monthly, r.costs.recommended_monthly
    # a plan dearer than the API even at the measured reading keeps the plain "likely cheaper"
    dear = plan.model_copy(update={"low": plan.low * 3, "high": plan.high * 3})

    class _F:  # the two fields ``busy_clause`` reads
        ctx = type("C", (), {"answers": advice_answers(Q26), "currency": "CNY"})()
        cost = type("K", (), {"costs": r.costs})()

    assert api_plain.busy_clause(_F(), dear, hosted) is None  # type: ignore[arg-type]
    assert api_plain.busy_clause(_F(), plan, hosted) is not None  # type: ignore[arg-type]
