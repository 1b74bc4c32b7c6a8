"""Blind review 33 (issue #25): the replicas that hold a failover at the full context are the plan where the budget
carries them (kv_plan42), not a step to sign it with. q42 and q19 rent 5 × L20 (4 would leave 14 and 10 a replica with
one down, above the 11 and 9 the KV cache holds at the full context): the headline, the hardware row, the month, the
budget check and the H20 quote's threshold are the 5-card plan's, and the N+1 finding says once why the fifth is
there. q21's API lead falls back on 3 × A10. Over the budget (q35) and without the shortfall the plan stays as sized."""

from __future__ import annotations

import math
import re

import pytest

from advisor.plan import kv_replicas42
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import round_money
from advisor.plan.quote_first39 import STEP_ID as QUOTE_STEP
from advisor.plan.result import render
from tests.support.planned import advice_plan

Q19, Q21, Q35, Q42 = ("q19_export_controlled_h100_mainland", "q21_fast_launch_hk_rule1",
                      "q35_deepseek_v3_h20_internal", "q42_china_market_gpus_mainland")
LANGS = ["en", "zh_CN"]
KEY = "plan.rule.sizing.redundancy.kvp42.title"


def _finding(r):
    return next((f for f in r.findings if f.title_key == KEY), None)


@pytest.mark.parametrize(("stem", "gpus"), [(Q42, 5), (Q19, 5)])
def test_the_fifth_l20_is_in_the_plan(stem, gpus):
    r = advice_plan(stem)
    fit, hw, c = r.capacity.kv_fit, r.hardware, r.costs
    assert hw.total_gpus == gpus and c.gpus == gpus and r.gpu_choice.chosen.gpus == gpus
    # one replica down now stays within what each cache holds at the full context: no condition, no step to add it
    assert fit.failover_per_replica == math.ceil(r.capacity.peak_concurrency / (hw.replicas - 1)) <= fit.at_full
    assert not fit.load_over_full and kv_replicas42.number(r) is None
    assert all(s.id != kv_replicas42.STEP_ID and not s.otherwise for s in r.next_steps)
    f = _finding(r)
    assert f is not None and f.params["before"] == gpus - 1 and f.params["added"] == 1
    assert f.params["was"] > fit.at_full >= f.params["load_down"]  # why: the four left 14 (q42), the five 10
    # the added card's month is the plan's per-GPU rent (every GPU reserved all month: linear in the GPUs)
    per = (c.recommended_monthly.low / gpus, c.recommended_monthly.high / gpus)
    assert round_money(per[0]) in f.params["monthly"] and round_money(per[1]) in f.params["monthly"]
    assert c.within_budget is True and c.recommended_monthly.high <= c.budget_monthly
    # the H20's switch price: the 5-card month over its 3 cards (review 33, q42 zh: not the 4-card month's 9,121)
    q = r.gpu_choice.quote_switch
    assert q["per_card"] == round(c.recommended_monthly.low / q["n"])
    ids = [s.id for s in r.next_steps]
    assert ids.index(QUOTE_STEP) == 0  # the quote still comes first: the H20 needs no added replica
    for lang in LANGS:
        md = render_memo_markdown(r, lang)
        page1 = md.split("\n## ")[1]  # section 1
        rule = render(lang, "kvgate41_rule.line", {"n_alt": q["n"], "gpu": q["gpu"], "per_card": f"{q['per_card']:,}",
                                                    "currency": r.gpu_choice.currency, "n_chosen": gpus,
                                                    "chosen": r.gpu_choice.chosen.gpu_name, "step": 1})
        assert rule.strip() in page1  # "3 × H20 if quoted at or under about 11,401 …, otherwise 5 × L20 (next step 1)"
        row = next(x for x in page1.splitlines() if x.startswith("|") and r.gpu_choice.chosen.gpu_name in x)
        assert row.split("|")[2].strip().startswith(f"{gpus} ")  # the hardware row: 5 cloud VMs of 1 × L20
        assert f"{round_money(c.recommended_monthly.low)}" in page1
        assert f"{q['per_card']:,}" in r.next_steps[0].text_in(lang)
        assert render(lang, KEY, f.params) in page1  # why the fifth is there, among page 1's reasons


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_leads_fallback_is_three_a10(lang):
    r = advice_plan(Q21)
    assert r.start_with is not None and r.hardware.total_gpus == 3
    assert kv_replicas42.STEP_ID not in [s.id for s in r.next_steps]  # no "add one more replica, 3 in all"
    assert _finding(r) is not None and _finding(r).params["before"] == 2
    md = render_memo_markdown(r, lang)
    page1 = md.split("\n## ")[1]  # section 1: the lead and its fallback
    name = re.escape(r.gpu_choice.chosen.gpu_name)
    assert re.search(rf"\b3 (×|张) {name}", page1) and not re.search(rf"\b2 (×|张) {name}", page1)


def test_over_the_budget_or_without_the_shortfall_the_plan_stays_as_sized():
    r35 = advice_plan(Q35)  # 4 nodes of 8 × H20 would be over the budget: the measured gate stays
    assert _finding(r35) is None and r35.capacity.kv_fit.load_over_full
    assert any(s.id == kv_replicas42.STEP_ID and s.key == kv_replicas42.GATE_KEY for s in r35.next_steps)
    short = advice_plan(Q42, max_context_tokens=2048)  # 2,048 tokens: the four L20s' caches hold the failover
    assert _finding(short) is None and short.hardware.total_gpus == 4
    assert not short.capacity.kv_fit.load_over_full
