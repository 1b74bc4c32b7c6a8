"""Owning and renting weighed with the same server-level cover (s32-q26own, issue 25; blind review 22 sent q26 back in
both languages: "It counts cloud replacement as cover when renting but not when owning … state 'buy on quotes at
≤ ~¥1.2M a server' with part-level support"; "H20 instances are sales-only, monthly and not guaranteed … buy 2 servers
with vendor NBD or 4-hour parts cover, keeping the existing cluster as failover"). The rule: ``advisor.plan.like_cover``.

- q26 (its H20 sold through a cloud's sales, by the month) is weighed on the same 2 servers on both sides: no third
  server in the gate, the purchase bought on the quote, the parts cover named with it, today's capacity the failover.
- Where renting's replacement is sure (a part sold generally), the third server stays the owned side's cover and the
  plan rents first (``rent_until_covered``): the two cases differ only in that, every price the same.
"""

from __future__ import annotations

import pytest

from advisor.plan import like_cover, rent_until_covered
from advisor.plan.memo import render_memo_markdown
from tests.support.page_one import page_one
from tests.support.planned import advice_answers, advice_plan, only_finding, rent_sure

Q26 = "q26_steady_3y_strong_ops_buy"
PARTS = {"en": "next-business-day or 4-hour parts cover", "zh_CN": "下一工作日或 4 小时备件服务"}
FAILOVER = {"en": "the capacity you run this service on today", "zh_CN": "现在运行这项服务的算力"}


def _said(x: float) -> str:
    return f"{float(f'{x:.3g}'):,.0f}"


@pytest.mark.parametrize(("doubt", "no_surer"), [("supply", True), ("both", True), ("price", False)])
def test_only_a_doubted_supply_makes_renting_no_surer(doubt, no_surer):
    assert like_cover.rent_no_surer({"doubt": doubt}) is no_surer
    assert like_cover.rent_no_surer(None) is False


def test_q26_buys_on_the_quote_with_no_third_server_in_the_gate():
    r = advice_plan(Q26)
    gate = r.costs.price_gate
    assert r.deployment_form == "bare_metal"
    assert gate is not None and gate["cover"] is None and not gate.get(rent_until_covered.FLAG)
    # owning pays like for like at the middle, within the horizon, with room to spare at the assumed price
    assert r.costs.own_like["pays"] and gate["per_server"] > gate["assumed_per_server"]
    red = only_finding(r, "sizing.redundancy")
    assert red.title_key == "plan.rule.sizing.redundancy.repair_parts.title"
    assert red.params["doubt"]["tr"] in ("redundancy31.doubt.supply", "redundancy31.doubt.both")
    assert red.params["failover"]  # a measured load: the service runs today, its capacity is the failover


def test_the_same_q26_with_a_sure_rent_still_rents_first():
    # the only change: the rented side's replacement taken as sure; then the third server is the owned side's cover
    r = rent_sure(advice_answers(Q26))
    assert r.deployment_form == rent_until_covered.FORM
    assert r.costs.price_gate["cover"]["servers"] == 3 and r.costs.price_gate[rent_until_covered.FLAG]
    assert only_finding(r, "sizing.redundancy").title_key.endswith(".repair_unsure.title")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_page_one_buys_on_the_quote_with_the_parts_cover_and_rents_above_it(lang):
    r = advice_plan(Q26)
    gate = r.costs.price_gate
    md = render_memo_markdown(r, lang)
    head = next(line for line in md.splitlines() if line.startswith(("**Recommendation**", "**建议**")))
    assert _said(gate["per_server"]) in head and PARTS[lang] in head
    # both directions of the gate; since s41-lead (review 34, q26) the threshold is the first sentence, "Buy if the
    # quote is at or under … ; otherwise rent"
    assert ("otherwise rent" if lang == "en" else "否则租用") in head
    assert head.split("**", 2)[2].lstrip(": ：").startswith(("Buy if the quote", "报价"))
    assert ("degraded service" if lang == "en" else "服务降级") not in page_one(md)
    # the first reason is the like-for-like comparison, the stand-in caveat stays among the reasons
    reasons = [line for line in md.splitlines() if line[:3] in ("1. ", "2. ", "3. ", "4. ", "5. ")][:5]
    assert ("Owning pays like for like" if lang == "en" else "同等比较下自购划算") in reasons[0]
    assert any(("placeholder server prices" if lang == "en" else "占位") in x for x in reasons)
    n1 = only_finding(r, "sizing.redundancy").detail_in(lang)
    assert ("next business day or 4-hour" if lang == "en" else "下一工作日或 4 小时") in n1 and FAILOVER[lang] in n1
    assert "{" not in head + n1
