"""The KV pick (s34-kvpick36, issue 25, blind review 25: q36 "Take the L20", q41 "L20 fp8 holds 137 and still fits
the ¥20,000 budget", q30 the same): where the chosen card's replica cannot hold its failover load at the full context
and a card that does meets the target within the budget (or within ``kv_card.CLOSE`` a month without one), the plan
is on that card, re-sized, simulated and costed there, and "Why this GPU" says both cards' figures in one sentence.
And the FP8 cache where it holds the peak the 16-bit one does not, though not the failover load (q37)."""

from __future__ import annotations

from unittest import mock

import pytest

from advisor.plan import answers_from_dict, kv_card, kv_pick, make_plan, sizing
from advisor.plan.context import resolve
from advisor.plan.memo import memo_document
from advisor.plan.result import render
from tests.support.planned import advice_answers, advice_plan, planned
from tests.support.unpicked import plan_unpicked

LANGS = ["en", "zh_CN"]
Q30, Q36, Q41 = "q30_unfiled_finetune_public_30d", "q36_bursty_b2b_event_mainland", "q41_finetune_internal_callcentre"
A10 = "a10"


def _no_budget(name: str) -> dict:
    answers = dict(advice_answers(name))
    answers.pop("monthly_budget", None)
    return answers


@pytest.mark.parametrize("name", [Q30, Q36, Q41])
def test_the_plan_leaves_a_card_whose_replica_cannot_hold_its_failover_load(name):
    before, plan = plan_unpicked(name), advice_plan(name)
    assert before.hardware.gpu == A10 and before.capacity.kv_fit.load_over_full  # what the reviewers read
    assert plan.hardware.gpu != A10
    fit = plan.capacity.kv_fit
    assert not fit.load_over_full  # the new card's replica holds its failover load at the full context
    d = plan.gpu_choice.kv_pick
    # the chosen card's figures are the plan's own KV-fit row, at the context it is sized for; since s36-dsv3cmd the
    # command may serve a longer one where the cache still holds every admitted request (the row reads that one,
    # the pick says "sized for" its own)
    assert d["load"] == max(fit.peak_per_replica, fit.failover_per_replica or 0)
    if d["context"] == fit.context:
        assert d["full"] == fit.at_full
    else:
        assert d["context"] < fit.context and d["full"] >= fit.at_full >= d["load"]
    assert d["down"] == (fit.failover_per_replica is not None)
    # the card passed over: its full-context count is the memory estimate at its weights and cache, below its load
    ctx = resolve(answers_from_dict(advice_answers(name)))
    gpu = sizing.gpus_by_id()[A10]
    est = sizing._memory(ctx, gpu, d["weights"], d["kv_dtype"], 1, sizing._engine(ctx, gpu)).max_concurrency_kv
    assert d["other"] == gpu.name and d["other_full"] == est == before.capacity.kv_fit.at_full
    assert d["other_load"] > d["other_full"]
    assert d["other_load"] == max(before.capacity.kv_fit.failover_per_replica or 0,
                                  before.capacity.kv_fit.peak_per_replica)


@pytest.mark.parametrize("name", [Q30, Q36, Q41])
def test_it_is_costed_on_the_new_card_within_the_budget(name):
    plan = advice_plan(name)
    d = plan.gpu_choice.kv_pick
    assert d["basis"] == "budget" and d["budget"] == advice_answers(name)["monthly_budget"]["amount"]
    assert plan.costs.recommended_monthly.high <= d["budget"]
    assert any(r.gpu == plan.hardware.gpu and r.kind == "on_demand" for r in plan.costs.prices)
    # the premium said is the month's, against the card passed over as it was costed
    unpicked = plan_unpicked(name).costs
    # as it was costed when weighed: on the mixed month, before the plan of it reserves every GPU for its public
    # peak's stock (review 29, peak_reserved39)
    before = unpicked.cloud_peak_floor["high"] if unpicked.cloud_peak_floor else unpicked.recommended_monthly.high
    assert d["more_pct"] > 0 and abs(plan.costs.recommended_monthly.high / before - 1 - d["more_pct"] / 100) < 0.05


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q30, Q36, Q41])
def test_why_this_gpu_says_both_cards_figures_in_one_sentence(name, lang):
    plan = advice_plan(name)
    d = plan.gpu_choice.kv_pick
    said = render(lang, "kvpick36.why", {
        "gpu": d["gpu_name"], "other": d["other"], "weights": d["weights"], "kv": d["kv_dtype"],
        "context": f"{d['context']:,}", "other_full": d["other_full"], "other_load": d["other_load"],
        "full": d["full"], "load": d["load"], "carry": {"tr": "kvpick36.carry.down"},
        "cost": {"tr": "kvpick36.cost.budget", "more": kv_pick._pct(d["more_pct"]),
                 "budget": f"{int(d['budget']):,}", "currency": d["currency"]}})  # fmt: skip
    assert said in plan.gpu_choice.text_in(lang)
    text = memo_document(plan, lang).markdown()
    assert said in text
    # no other layout of the card passed over is listed as "costs more at the size that meets the target"
    assert all(a.gpu != A10 for a in plan.gpu_choice.alternatives)
    assert all(x.gpu_name != d["other"] for x in plan.gpu_choice.dearer)
    # the KV-fit sentence that named the card to move to is gone with the move
    assert "failcard35" not in str(plan.binding_constraint.then)


def test_without_a_budget_a_premium_over_the_margin_keeps_the_card():
    # q41's L20 is about 50 % dearer a month: no budget to judge it by, so the A10 stays and its KV-fit sentence still
    # says the load rests on average lengths, a card with more memory among the remedies (kv_card.py)
    plan = planned(_no_budget(Q41))
    assert plan.hardware.gpu == A10 and plan.gpu_choice.kv_pick is None
    assert plan.capacity.kv_fit.load_over_full
    assert "larger_card" in [r.kind for r in plan.capacity.kv_fit.remedies]


def test_without_a_budget_a_premium_within_the_margin_takes_the_card():
    with mock.patch.object(kv_card, "CLOSE", 0.6):  # q41's L20 is about 50 % dearer a month
        plan = make_plan(answers_from_dict(_no_budget(Q41)))
        d = plan.gpu_choice.kv_pick
        assert plan.hardware.gpu != A10 and d["basis"] == "margin" and d["limit_pct"] == 60
        said = render("en", "kvpick36.cost.margin", {"more": kv_pick._pct(d["more_pct"]), "limit": 60})
        assert said in plan.gpu_choice.text_in("en")


def test_not_onto_a_card_priced_by_another_regions_row():
    # q21 launches in Hong Kong on an A10 priced by a Hong Kong row; the L40S that would hold its failover load is
    # priced there only as a US row times the uplift (and needs an export licence): the A10 stays, the card named
    # (s40-kvp42: the third A10 that holds it within the budget is in the plan, so the unpicked plan is read here)
    plan = advice_plan("q21_fast_launch_hk_rule1")
    assert plan.hardware.gpu == A10 and plan.gpu_choice.kv_pick is None
    assert plan_unpicked("q21_fast_launch_hk_rule1").capacity.kv_fit.load_over_full


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_fp8_cache_set_where_it_holds_the_peak_but_not_the_failover_load(lang):
    # q37 as its other picks left it: an L40S whose 16-bit cache holds 30 at the full context against 40 at the
    # peak and 80 with one down, FP8 61 ("take the FP8 KV cache (61) or a larger card"); the supply lead now plans
    # q37 on the L4 sold in Singapore, so the L40S plan is read without it
    plan = plan_unpicked("q37_sg_fintech_public", unled=True)
    fit = plan.capacity.kv_fit
    assert plan.hardware.kv_dtype == "fp8" and "--kv-cache-dtype fp8" in plan.hardware.command
    assert fit.bf16_full_fit < fit.peak_per_replica <= fit.at_full < fit.failover_per_replica
    text = memo_document(plan, lang).markdown()
    assert render(lang, "kvdef34.set_peak", {"bf16": fit.bf16_full_fit, "context": fit.context,
                                             "down": fit.peak_per_replica, "full_fit": fit.at_full}) in text
    # the failover load still rests on average lengths: said after it, with the remedies left (a larger card)
    assert render(lang, "kvfit33.down", {"down": fit.failover_per_replica, "full_fit": fit.at_full,
                                         "context": fit.context, "typical": fit.at_typical,
                                         "avg": fit.typical_tokens, "cap": fit.max_num_seqs}) in text
    assert [r.kind for r in fit.remedies][-1] == "larger_card"
