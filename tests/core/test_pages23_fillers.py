"""Filler the blind re-check 12b named, left out only under its condition (s23-pages23, issue 25: "a typical memo fits
in 4 PDF pages"): the exchange-rate row under a memo of US dollars only, the buy-and-colocate row beside renting for
a basic-ops team, the generic "get quotes" step where a finding already asks for quotes. Each test checks both
directions over every advice scenario, so a memo that needs the text keeps it."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_rows_needed import bare_metal_row_needed, fx_row_needed
from advisor.plan.quotes_once import QUOTE_FINDINGS
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned

NAMES = sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json"))


def _row(label_key: str, memo: str, lang: str = "en") -> bool:
    return f"| {translate(lang, label_key)} |" in memo


@pytest.mark.parametrize("name", NAMES)
def test_the_exchange_rate_row_is_left_out_only_where_nothing_was_converted(name):
    r = planned(advice_answers(name))
    memo = render_memo_markdown(r, "en")
    if "## 4." not in memo or r.costs.recommended_monthly is None and r.costs.cloud_monthly is None:
        pytest.skip("no cost table")
    shown = _row("memo.cost.fx", memo)
    if not shown:  # nothing here was converted: US dollars asked, every price row in US dollars, no line priced
        assert r.costs.currency == "USD" and r.line_cost is None, name
        assert all(p.unit.startswith("USD") for p in r.costs.prices if p.kind != "fx"), name
    assert shown == fx_row_needed(r), name


def test_a_us_dollar_memo_has_no_exchange_rate_row_and_a_yuan_memo_keeps_it():
    """q24 (a US SaaS renting in the US) and q20 (Singapore) printed "1 USD = 6.99 CNY" under US dollars only;
    q36 (mainland, CNY) converts every USD price row and keeps it."""
    for name in ("q24_us_saas_rent", "q20_china_parts_offshore_sg"):
        assert not _row("memo.cost.fx", render_memo_markdown(planned(advice_answers(name)), "en")), name
    assert _row("memo.cost.fx", render_memo_markdown(planned(advice_answers("q36_bursty_b2b_event_mainland")), "en"))


@pytest.mark.parametrize("name", NAMES)
def test_the_buy_and_colocate_row_is_left_out_only_beside_renting_for_a_basic_ops_team(name):
    r = planned(advice_answers(name))
    for lang in ("en", "zh_CN"):
        shown = _row("memo4.cost.bare_metal", render_memo_markdown(r, lang), lang)
        if shown:
            assert bare_metal_row_needed(r), name
        elif r.deployment_form == "cloud" and r.costs.bare_metal_capex is not None and r.costs.bare_metal_monthly:
            # the plan rents and a purchase was priced: left out only for a team that cannot run bought servers
            assert (r.answers or {}).get("ops_capability") in (None, "basic", "none"), name


def test_a_strong_ops_team_renting_still_sees_the_purchase():
    hits = [n for n in NAMES if (r := planned(advice_answers(n))).deployment_form == "cloud"
            and (r.answers or {}).get("ops_capability") == "strong" and r.costs.bare_metal_capex is not None]
    assert hits, "no strong-ops rented scenario left: this direction is untested"
    for n in hits:
        assert _row("memo4.cost.bare_metal", render_memo_markdown(planned(advice_answers(n)), "en")), n


@pytest.mark.parametrize("name", NAMES)
def test_the_generic_quotes_step_is_left_out_only_where_a_finding_asks_for_quotes(name):
    r = planned(advice_answers(name))
    asked = any(f.id in QUOTE_FINDINGS for f in r.findings)
    generic = [i for i, s in enumerate(r.next_steps) if s.id == "quotes" and s.key == "plan.next.quotes"]
    if asked:
        assert all(i == 0 for i in generic), (name, [s.id for s in r.next_steps])  # only as the first action
        # a finding asks for the quotes in its title: the mainland price note, or (s23-duties23) beside a purchase
        # the purchase's own "get a current quote" finding, the price note then saying what those quotes replace
        assert any("quote" in f.title_in("en") for f in r.findings
                   if f.id in QUOTE_FINDINGS or f.id == "cost.placeholder_purchase"), name


def test_a_memo_with_no_quotes_finding_keeps_the_quotes_step_and_a_mainland_one_says_it_once():
    us = planned(advice_answers("q24_us_saas_rent"))
    assert not any(f.id in QUOTE_FINDINGS for f in us.findings)
    assert any(s.key == "plan.next.quotes" for s in us.next_steps)
    cn = planned(advice_answers("q36_bursty_b2b_event_mainland"))
    assert any(f.id in QUOTE_FINDINGS for f in cn.findings)
    memo = render_memo_markdown(cn, "en")
    assert translate("en", "plan.next.quotes") not in memo
