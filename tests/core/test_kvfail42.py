"""Blind review 32 (issue #25): a KV cache short at the full context with one replica down is a go/no-go with a
concrete fix. Where more replicas of the same card hold the failover load within the budget (q42, q19: a fifth L20,
10 and 8 a replica with one down) they are the plan since review 33 (kv_plan42, test_kvp42); where they do
not (q35: two more 8 × H20 nodes, over the budget at the high end), the step is a measured gate with data-parallel
attention and a higher --gpu-memory-utilization. Every figure is checked against the plan's own records."""

from __future__ import annotations

import math

import pytest

from advisor.plan import kv_replicas42
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import round_money
from tests.support.planned import advice_plan

Q13 = "q13_sg_sellers_pi_below_threshold"
Q19, Q21, Q35, Q42 = ("q19_export_controlled_h100_mainland", "q21_fast_launch_hk_rule1",
                      "q35_deepseek_v3_h20_internal", "q42_china_market_gpus_mainland")
LANGS = ["en", "zh_CN"]


def _ids(r) -> list[str]:
    return [s.id for s in r.next_steps]


def _expected(r) -> tuple[int, int, float, float]:
    """(replicas in all, load a replica carries with one down, month low, month high) from the plan's own figures:
    the serving replicas that carry the peak within what the cache holds at the full context, plus the spares, at
    the plan's own rent per GPU."""
    fit, cap, hw, c = r.capacity.kv_fit, r.capacity, r.hardware, r.costs
    spares = hw.replicas - cap.serving_replicas
    serving = math.ceil(cap.peak_concurrency / fit.at_full)
    replicas = serving + spares
    per_gpu = (c.recommended_monthly.low / c.gpus, c.recommended_monthly.high / c.gpus)
    return replicas, math.ceil(cap.peak_concurrency / serving), per_gpu[0] * replicas * hw.tp, per_gpu[1] * replicas * hw.tp


@pytest.mark.parametrize("lang", LANGS)
def test_over_budget_replicas_leave_a_measured_gate(lang):
    r = advice_plan(Q35)
    fit = r.capacity.kv_fit
    n_all, _per, _low, high = _expected(r)
    assert high > r.costs.budget_monthly  # 4 nodes of 8 × H20: over the budget at the high end
    ids = _ids(r)
    step = r.next_steps[ids.index(kv_replicas42.STEP_ID)]
    assert step.key == "kvfail42.step.gate" and ids.index(kv_replicas42.STEP_ID) < ids.index("serve")
    assert not any(m.kind == "more_replicas" for m in fit.remedies)  # not offered as a remedy over the budget
    text = step.text_in(lang)
    for figure in (f"{fit.failover_per_replica:,}", f"{fit.at_full:,}", "--enable-dp-attention",
                   "--gpu-memory-utilization", round_money(high), f"{n_all * r.hardware.tp:,}"):
        assert figure in text, figure
    md = render_memo_markdown(r, lang)
    assert kv_replicas42.fix_clause(r, lang, quoted=False) in md


def test_under_an_api_lead_the_gate_is_not_a_step():
    # the fallback's go/no-go gate is not a step under an API lead (q13: its L4s hold 3 of 10, over the budget);
    # q21's fallback, whose third A10 fits the budget, has it in the plan (kv_plan42, test_kvp42)
    r13 = advice_plan(Q13)
    assert r13.start_with is not None and r13.start_with.form == "hosted_api"
    assert kv_replicas42.STEP_ID not in _ids(r13)


@pytest.mark.parametrize(("stem", "change"), [(Q42, {"max_context_tokens": 2048}), (Q42, {}), (Q35, {})])
def test_the_step_stands_exactly_where_the_shortfall_is_material(stem, change):
    from advisor.plan import kv_condition40

    r = advice_plan(stem, **change)
    fit = r.capacity.kv_fit
    load = max(fit.failover_per_replica or 0, fit.peak_per_replica) if fit else 0
    short = bool(fit and fit.load_over_full and load <= fit.at_typical and kv_condition40.material(fit, load))
    assert (kv_replicas42.number(r) is not None) == short
