"""The GPU chosen and priced for a node outside the mainland (issue #25, blind review 35; the rules:
``node_supply.dearer_per_user`` / ``supply_lead._dearer_per_user``, ``node_faster44``, ``kv_pick.slow_stream``,
``in_region_fallback``'s plan B over the budget, ``node_quote44``, ``rent_row_label.stand_in_floor``, ``eu_zone42``).

- q05/q37: a part listed in the region that costs more than the stand-in part's whole range (the A100 at Google
  Cloud's list price, bf16) is plan B, not the plan: the node runs the FP8 L40S and its quote step asks for it.
- q34/q13: a cheaper card that streams below the chat line (20 tokens a second) gives way to the faster card within
  the budget; the slower card, priced there, is plan B.
- q25: a plan B over the budget is said as none; the second part to quote is named instead.
- q20: a GPU marketplace's US rate × the uplift is labelled a stand-in floor, not the node's month.
- q38: the EU region named says which end of the price range it is.
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import chat_rule38, eu_zone42, rent_row_label
from advisor.plan.memo import render_memo_markdown
from tests.support.page_one import next_step_line, page_one
from tests.support.planned import advice_plan

LANGS = ["en", "zh_CN"]


def _sg_node(r):
    return next(n for n in r.nodes if n.region == "singapore")


@pytest.mark.parametrize("lang", LANGS)
def test_q05_singapore_node_runs_fp8_like_the_mainland_and_quotes_its_own_part(lang):
    r = advice_plan("q05_filed_finetune_mainland_sg")
    sg = _sg_node(r)
    assert {n.weights for n in r.nodes} == {"fp8"}  # one precision on both nodes, not bf16 in Singapore
    assert sg.gpu != "a100-sxm-80g"
    fb = r.in_region_fallback
    assert fb is not None and fb["gpu_id"] == "a100-sxm-80g" and fb["instead_of"] == sg.gpu_name
    assert sg.monthly is not None and sg.monthly.high < fb["monthly"][0]  # cheaper than the listed part
    md = render_memo_markdown(r, lang)
    step = next_step_line(md, 1, lang)
    assert f"{sg.total_gpus} × {sg.gpu_name}" in step and "H100" in step  # the Singapore quote names L40S/H100
    assert "L20" not in step.split(fb["gpu"])[0]  # never the mainland's China-market part


@pytest.mark.parametrize("lang", LANGS)
def test_q34_singapore_node_takes_the_faster_card_and_keeps_l4_as_plan_b(lang):
    r = advice_plan("q34_mixed_users_split")
    sg = _sg_node(r)
    assert sg.gpu == "l40s"
    fb = r.in_region_fallback
    assert fb is not None and fb["gpu_id"] == "l4" and fb["meets"]
    assert fb["tpot_p99_ms"] > chat_rule38.RULE_MS  # the card set aside streams below the chat line
    assert r.costs.within_budget is not False
    md = render_memo_markdown(r, lang)
    assert fb["gpu"] in next_step_line(md, 1, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_q13_fallback_on_the_faster_card_says_why_and_names_l4_as_plan_b(lang):
    r = advice_plan("q13_sg_sellers_pi_below_threshold")
    assert r.hardware.gpu == "l40s"
    kv = r.gpu_choice.kv_pick
    assert kv is not None and kv["basis"] == "slow"
    why = r.gpu_choice.text_in(lang)
    opening = translate(lang, "prc44.kvpick.slow").split("{other}")[0]  # "Not the " / "不选 "
    assert f"{opening}{kv['other']}" in why and "20" in why  # the slow card named with the chat line it misses
    assert kv["other"] == r.in_region_fallback["gpu"]  # … and as plan B
    assert why.split(f"{opening}{kv['other']}")[1] in render_memo_markdown(r, lang)


def test_q37_stays_on_the_stand_in_part_when_the_listed_one_costs_more():
    r = advice_plan("q37_sg_fintech_public")
    assert r.hardware.gpu != "a100-sxm-80g" and r.supply_switch is None
    fb = r.in_region_fallback
    assert fb is not None and fb["gpu_id"] == "a100-sxm-80g"
    assert r.costs.recommended_monthly.high < fb["monthly"][0]


@pytest.mark.parametrize("lang", LANGS)
def test_q25_plan_b_over_the_budget_is_no_plan(lang):
    r = advice_plan("q25_hk_bank_retail")
    fb = r.in_region_fallback
    assert fb is not None and fb.get("over_budget") and fb["monthly"][0] > r.costs.budget_monthly
    tw = fb["also_ask"]
    assert tw is not None and tw["budget"] == "within"
    md = render_memo_markdown(r, lang)
    one = page_one(md)
    cost_row = next(line for line in one.splitlines() if line.startswith(f"| {translate(lang, 'memo.key.cost')}"))
    assert fb["gpu"] not in cost_row  # no "priced there today: plan B, 20 × A10" on page 1
    step = next_step_line(md, 1, lang)
    assert tw["gpu"] in step and fb["gpu"] in step
    quotes = next(s for s in r.next_steps if s.id == "quotes")
    assert quotes.otherwise["tr"] == "ovs44.fallback.over_budget_twin"  # said as no plan B, the twin to quote


@pytest.mark.parametrize("lang", LANGS)
def test_q20_marketplace_stand_in_labelled_a_floor(lang):
    r = advice_plan("q20_china_parts_offshore_sg")
    assert rent_row_label.stand_in_floor(r)
    md = render_memo_markdown(r, lang)
    assert f"| {translate(lang, 'ovs44.cost.market_stand_in')} |" in md
    assert f"| {translate(lang, 'tokens33.cost.cloud_market')} |" not in md


def test_an_owned_marketplace_row_keeps_its_plain_label():
    r = advice_plan("q02_office_lan_small_design_agency")
    assert not rent_row_label.stand_in_floor(r)


@pytest.mark.parametrize("lang", LANGS)
def test_q38_region_says_frankfurt_is_the_high_end(lang):
    r = advice_plan("q38_eu_internal_hr_assistant")
    frank, stock = ("法兰克福", "斯德哥尔摩") if lang == "zh_CN" else ("Frankfurt", "Stockholm")
    assert translate(lang, eu_zone42.EU_SPAN, zone=frank, low=stock) in render_memo_markdown(r, lang)
