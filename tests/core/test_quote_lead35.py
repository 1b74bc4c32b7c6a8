"""Page 1 leads with the quote that decides a purchase on stand-in prices (s34-quotelead, blind review 24, issue 25;
the rule: ``advisor.plan.quote_lead35``).

- q26 (owning like for like, renting no surer a cover): the recommendation is "buy 2 servers only if the quote is at
  or under X a server; above that, rent", not "Own …", and step 1 names the server-level cover to decide before
  ordering with the redundancy finding's own figures.
- q17 (a one-off grant the purchase range straddles): the quote rule and the smaller setup within the grant lead.
"""

from __future__ import annotations

import pytest

from advisor.plan import capex_condition, quote_lead35
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import round_money
from tests.support.page_one import next_step_line
from tests.support.planned import advice_plan, only_finding

Q26 = "q26_steady_3y_strong_ops_buy"
Q17 = "q17_capex_only_university_lab"
HEAD = ("**Recommendation**", "**建议**")
OWN_FORM = {"en": "Own bare-metal servers", "zh_CN": "自购 GPU 物理机"}
# blind review 34 (q26): the threshold line is the first sentence, "Buy if the quote is … ; otherwise rent."
ONLY_IF = {"en": "Buy if the quote is at or under about", "zh_CN": "报价每台"}
ABOVE = {"en": "otherwise rent.", "zh_CN": "就购买；否则租用。"}
COVER = {"en": "secure the server-level cover", "zh_CN": "先落实服务器级的容灾"}
CHOSEN = {"en": "secure the failover cover the recommendation requires", "zh_CN": "上方建议要求的故障切换容量"}
FAILOVER = {"en": "keep the capacity you run on today contracted as the failover",
            "zh_CN": "签约保留目前运行本服务的算力作为故障切换"}


def _head(md: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(HEAD))


def _said(x: float) -> str:
    return f"{float(f'{x:.3g}'):,.0f}"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q26_leads_with_the_quote_gate_not_own(lang):
    r = advice_plan(Q26)
    head = _head(render_memo_markdown(r, lang))
    buy = only_finding(r, "cost.buy").params
    assert OWN_FORM[lang] not in head
    assert ONLY_IF[lang] in head and ABOVE[lang] in head
    body = head.split("**", 2)[2].lstrip(": ：")
    assert body.startswith(ONLY_IF[lang]), body  # the threshold first (review 34)
    first = body.split(". " if lang == "en" else "。", 1)[0]
    assert _said(r.costs.price_gate["per_server"]) in first and ABOVE[lang].rstrip(".。") in first
    assert _said(r.costs.price_gate["per_server"]) in head
    # the gate leads and the payback at the middle of stand-in prices is said below it, in the first reason (blind
    # review 28, q26: "three nested conditionals ... Lead with 'buy if quotes ≤ ¥1.58M/server'")
    md = render_memo_markdown(r, lang)
    assert f" {buy['payback']} " not in head
    first_reason = next(x for x in md.splitlines() if x.startswith("1. **"))
    assert f"{buy['payback']} " in first_reason
    assert f"{buy['servers']}" in head and f"{buy['gpus']}" in head
    assert "{" not in head


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q26_step_one_names_the_server_cover_to_decide_with_the_findings_figures(lang):
    r = advice_plan(Q26)
    md = render_memo_markdown(r, lang)
    red = only_finding(r, "sizing.redundancy").params
    step = next_step_line(md, 1, lang)
    head = _head(md)
    # blind review 29 (q26: "state it once, with the two options"): page 1's line names the two covers with the
    # finding's figures (a measured load: today's capacity is one), the quotes step points to that choice
    assert FAILOVER[lang] in head and red["other"] in head and f"{red['servers'] + 1}" in head
    assert FAILOVER[lang] not in step and red["other"] not in step and CHOSEN[lang] in step
    # what one failed server leaves is the headline's (blind review 28, q26 zh: "cut the repetition"); the app and
    # --json keep the full step with it
    assert f" {red['carried']} " in head and f" {red['carried']} " not in step
    assert f"{red['carried']}" in r.next_steps[0].text_in(lang) and COVER[lang] in r.next_steps[0].text_in(lang)
    assert step.index(_said(r.costs.price_gate["per_server"])) < step.index(CHOSEN[lang])  # after the quote rule
    assert "{" not in step and "{" not in head


def test_cover_decision_only_where_a_failed_server_is_covered_by_parts():
    assert quote_lead35.cover_decision(advice_plan(Q17).findings) is None
    assert quote_lead35.own_gate(advice_plan(Q17), "en") == ""


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q17_leads_with_the_quote_rule_and_the_smaller_setup_within_the_grant(lang):
    r = advice_plan(Q17)
    assert capex_condition.straddles(r)
    small = capex_condition.smaller(r)
    assert small is not None and small["high"] <= r.costs.owned.capex_budget
    head = _head(render_memo_markdown(r, lang))
    hw = r.hardware
    for said in (round_money(r.costs.owned.capex_budget), f"{hw.total_gpus}", f"{small['gpus']}",
                 round_money(small["low"]), round_money(small["high"]), f"{small['holds']}"):
        assert said in head
    # the full setup first, on the quote; the smaller one after it, above the budget
    assert head.index(round_money(r.costs.owned.capex_budget)) < head.index(round_money(small["low"]))
    assert "{" not in head


def test_no_straddle_no_clause():
    r = advice_plan(Q26)  # no one-off budget given: nothing straddles it
    assert not capex_condition.straddles(r) and quote_lead35.straddle_clause(r, "en") == ""
