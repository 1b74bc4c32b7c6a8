"""Blind review 32 (issue #25): a KV cache short at the full context with one replica down is a go/no-go with a
concrete fix. Where more replicas of the same card hold the failover load within the budget (q42, q19: a fifth L20,
10 and 8 a replica with one down), the plan is signed only with them, a numbered step with their month; where they do
not (q35: two more 8 × H20 nodes, over the budget at the high end), the step is a measured gate with data-parallel
attention and a higher --gpu-memory-utilization. Every figure is checked against the plan's own records."""

from __future__ import annotations

import math

import pytest

from advisor.plan import kv_replicas42
from advisor.plan.line_total import judged_total
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import round_money
from advisor.plan.quote_first39 import STEP_ID as QUOTE_STEP
from advisor.plan.result import render
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


@pytest.mark.parametrize(("stem", "replicas", "load"), [(Q42, 5, 10), (Q19, 5, 8)])
def test_a_fifth_l20_is_the_step_before_signing(stem, replicas, load):
    r = advice_plan(stem)
    fit = r.capacity.kv_fit
    assert fit.failover_per_replica > fit.at_full  # the shortfall the step mends
    n_all, per, low, high = _expected(r)
    assert (n_all, per) == (replicas, load)  # the reviewers' figures: 10 (q42) and 8 (q19) each on failure
    assert per <= fit.at_full
    ids = _ids(r)
    # said in the quote step, as what to sign failing the quote: one step, page 1 keeps its pressure test
    assert kv_replicas42.STEP_ID not in ids and ids.index(QUOTE_STEP) + 1 == ids.index("serve")
    step = r.next_steps[ids.index(QUOTE_STEP)]
    assert step.otherwise is not None and step.otherwise["tr"] == kv_replicas42.OTHERWISE
    assert kv_replicas42.number(r) == ids.index(QUOTE_STEP) + 1
    total = judged_total(r.costs)
    line = total.high - r.costs.recommended_monthly.high
    assert high + line <= r.costs.budget_monthly  # within the budget, with the line, as the plan judges its own
    more = next(m for m in fit.remedies if m.kind == "more_replicas")
    assert (more.replicas, more.load, more.added) == (replicas, load, replicas - r.hardware.replicas)
    assert more.more_monthly.low == pytest.approx(low - r.costs.recommended_monthly.low, abs=0.01)
    for lang in LANGS:
        md = render_memo_markdown(r, lang)
        text = step.text_in(lang)
        for figure in (round_money(low - r.costs.recommended_monthly.low),
                       round_money(high - r.costs.recommended_monthly.high), f"{fit.at_full:,}", f"{per:,}"):
            assert figure in text, (lang, figure)
        assert text in md
        assert f"{r.costs.budget_monthly:,.0f}" in text  # within the budget, said with it
        # section 2 names it first among the remedies, pointing to the steps
        assert render(lang, "kvfail42.remedy.more", {"more": {"tr": "kvfail42.more.one", "replicas": replicas},
                                                     "load": load, "when": {"tr": "kvfail42.when.down"}}) in md


@pytest.mark.parametrize("lang", LANGS)
def test_page_one_names_both_ways_with_the_quote_steps_number(lang):
    r = advice_plan(Q42)
    n = kv_replicas42.number(r)
    assert n is not None and r.next_steps[n - 1].id == QUOTE_STEP
    said = r.next_steps[n - 1].otherwise
    md = render_memo_markdown(r, lang)
    # the feasibility row: the quote's part or the chosen card with the replicas that hold it, with the step's number
    row = next(x for x in md.splitlines() if f"{said['gpus']} × {r.gpu_choice.chosen.gpu_name}" in x
               and r.gpu_choice.quote_switch["gpu"] in x and x.startswith("|"))
    assert f"{n}" in row and f"{r.capacity.kv_fit.at_full:,}" in row


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


def test_under_an_api_lead_the_step_is_the_fallbacks():
    r = advice_plan(Q21)
    step = next(s for s in r.next_steps if s.id == kv_replicas42.STEP_ID)
    assert step.said_for is not None and step.key == "kvfail42.step.add"
    ids = _ids(r)
    assert ids.index(kv_replicas42.STEP_ID) > ids.index("api_first")
    # the fallback's go/no-go gate is not a step under an API lead (q13: its L4s hold 3 of 10, over the budget)
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
