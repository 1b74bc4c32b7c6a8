"""Rent until a quote shows the purchase pays with its cover (s31-ctb32, issue 25; blind reviews 20, 20b, 21 on q26:
"I would not sign a ¥2.16–2.65M H20 purchase on this basis … The memo should recommend getting quotes and renting
until they prove ownership pays with server-level redundancy").

- q26 (measured 80 %, three years, strong ops, both prices stand-ins, two servers whose third makes owning dearer)
  rents now and buys on a quote at or under the covered gate: the form, the reason, the headline and the first step
  say so in both languages, and the step gives the covered gate, not the uncovered one.
- It does not fire where the prices are the team's quotes (no gate), where the covered gate is at or above the
  assumed price (the cover pays), where owning loses even without the cover, or where renting is ruled out (q03's
  server room), and q31 (a gate but no cover named) keeps owning.

Re-argued after blind review 22 (s32-q26own): q26's own H20 is sold through a cloud's sales, by the month, so a rented
server is replaced no surer than an owned one and the comparison is like for like without the third server
(``like_cover``: q26 now buys on the quote, ``test_owncover33``). This rule still holds where the cloud does replace a
failed instance (a part sold generally), so its q26 tests run on q26 with the part's supply taken as sure
(``sold_generally``): every figure the same, only the rented side's replacement taken as sure.
"""

from __future__ import annotations

import pytest

from advisor.plan import answers_from_dict, make_plan, rent_until_covered
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from tests.support.planned import advice_answers, advice_plan, rent_sure

Q26 = "q26_steady_3y_strong_ops_buy"


def sold_generally(**extra: object) -> PlanResult:
    """q26 with a rented server's replacement taken as sure (``planned.rent_sure``; see the module's text)."""
    return rent_sure({**advice_answers(Q26), **extra})


def _said(x: float) -> str:
    return f"{float(f'{x:.3g}'):,.0f}"


def test_q26_rents_now_because_the_purchase_pays_only_without_its_cover():
    r = sold_generally()
    gate = r.costs.price_gate
    assert r.deployment_form == "cloud_then_bare_metal"
    assert gate[rent_until_covered.FLAG] and gate["cover"]["per_server"] < gate["assumed_per_server"] <= gate["per_server"]
    buy = next(f for f in r.findings if f.id == "cost.buy")
    assert buy.title_key == rent_until_covered.TITLE
    # the month page 1 prints is the rent's, and the purchase waits on the quotes (nothing to deliver before launch)
    assert r.costs.recommended_monthly == r.costs.cloud_monthly
    assert r.costs.per_million_monthly == r.costs.cloud_monthly  # the per-million row divides the rent, not the purchase
    assert not any(i.id == "procurement" and i.blocking for i in r.timeline.items)
    assert r.hardware.replicas >= 2  # rented as sized: N+1


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q26_page_one_says_rent_now_and_the_covered_gate_in_both_languages(lang):
    r = sold_generally()
    gate = r.costs.price_gate
    md = render_memo_markdown(r, lang)
    head = next(line for line in md.splitlines() if line.startswith(("**Recommendation**", "**建议**")))
    assert _said(gate["cover"]["per_server"]) in head and str(gate["cover"]["servers"]) in head
    assert ("Rent cloud GPU servers now" if lang == "en" else "现在租用") in head
    reasons = [line for line in md.splitlines() if line.startswith("1. ")]
    assert ("Rent now, buy on the quotes" if lang == "en" else "先租用，凭报价再购买") in reasons[0]
    step1 = reasons[1]
    assert _said(gate["cover"]["per_server"]) in step1 and ("keep renting" if lang == "en" else "继续租用") in step1
    # the uncovered gate is not the purchase's condition any more: not offered as one
    assert _said(gate["per_server"]) not in md
    assert "{" not in head + step1


def test_not_where_the_prices_are_the_teams_own_quotes():
    r = advice_plan(Q26)
    quotes = [{"gpu": r.hardware.gpu, "kind": "capex", "low": 100_000, "high": 100_000, "unit": "CNY/GPU",
               "date": "2026-12"},
              {"gpu": r.hardware.gpu, "kind": "on_demand", "low": 2.2, "high": 2.2, "unit": "USD/GPU-hour",
               "date": "2026-12"}]
    answers = {**advice_answers(Q26), "gpu_constraint": [r.hardware.gpu]}
    quoted = make_plan(answers_from_dict(answers), quotes=quotes)
    assert quoted.costs.price_gate is None
    # measured, long, strong ops, a quoted purchase that pays (owning clearly cheaper): buy, whatever the cover
    assert quoted.deployment_form == "bare_metal"
    assert not any(f.title_key == rent_until_covered.TITLE for f in quoted.findings)


def test_only_a_covered_gate_under_the_assumed_price_of_a_purchase_that_pays_bare_switches():
    gate = dict(sold_generally().costs.price_gate)
    gate.pop(rent_until_covered.FLAG)
    assumed = gate["assumed_per_server"]
    assert rent_until_covered.switches("bare_metal", gate)
    assert rent_until_covered.switches("bare_metal", {**gate, "cover": {**gate["cover"], "per_server": None}})
    # the cover pays at the assumed price: owning is shown to pay with it, keep buying
    assert not rent_until_covered.switches("bare_metal", {**gate, "cover": {**gate["cover"], "per_server": assumed}})
    # no cover named (renting a failed server's cards is a sound cover), or owning loses even without it
    assert not rent_until_covered.switches("bare_metal", {**gate, "cover": None})
    assert not rent_until_covered.switches("bare_metal", {**gate, "per_server": assumed * 0.9})
    # a server-room purchase whose gate is the budget's (renting ruled out), or a plan not buying
    assert not rent_until_covered.switches("bare_metal", {**gate, "kind": "budget"})
    assert not rent_until_covered.switches("on_premises", gate)
    assert not rent_until_covered.switches("cloud", gate)


@pytest.mark.parametrize("name, form", [("q03_hospital_private_wan_medical", "on_premises"),
                                        ("q31_icp_filed_hosting_move", "bare_metal")])
def test_other_gated_scenarios_keep_their_form(name, form):
    r = advice_plan(name)
    assert r.costs.price_gate is not None  # a gate applies, but not this rule
    assert r.deployment_form == form
    assert not (r.costs.price_gate or {}).get(rent_until_covered.FLAG)


def test_not_where_a_longer_horizon_makes_the_third_server_pay():
    # over 48 months the purchase is spread thinner: with one more server the gate is at or above the assumed price,
    # so the purchase is shown to pay with its cover and q26 buys now
    r = sold_generally(expected_duration_months=48)
    gate = r.costs.price_gate
    assert gate["cover"]["per_server"] >= gate["assumed_per_server"]
    assert r.deployment_form == "bare_metal" and not gate.get(rent_until_covered.FLAG)
