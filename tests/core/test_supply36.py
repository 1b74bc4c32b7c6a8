"""The plan sized on the part the team can get in its region and in time (issue #25, blind review 25: q25/q37 a
stand-in L40S no provider in the region is known to sell, q28/q32 a sales-only H20 against a deadline), the cheaper
part named as the one to quote; conditional feasibility where no such part exists (q43) — ``supply_lead``."""

from __future__ import annotations

from unittest import mock

import pytest

from advisor.plan import engine, supply_lead
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import round_money
from advisor.plan.sales_only import listed_on_request
from tests.support.planned import advice_answers, planned, sales_led, unled

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

FEASIBLE = {"en": "Feasible as asked", "zh_CN": "按要求是否可行"}
HARDWARE = {"en": "Hardware", "zh_CN": "硬件"}
CONDITIONAL = {"en": "conditional: ", "zh_CN": "有条件："}


def _row(md: str, key: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {key} |"))


@pytest.mark.parametrize("name", ["q37_sg_fintech_public"])
def test_stand_in_part_gives_way_to_the_part_priced_in_the_region(name: str) -> None:
    before = unled(advice_answers(name))
    fb = before.in_region_fallback
    assert fb is not None and fb["meets"] and fb["monthly"][1] <= before.costs.budget_monthly
    r = planned(advice_answers(name))
    s = r.supply_switch
    assert r.feasible and r.hardware.gpu == fb["gpu_id"] != before.hardware.gpu
    assert s is not None and s["kind"] == "region" and s["gpu_id"] == before.hardware.gpu
    assert s["n"] == before.hardware.total_gpus and s["below"] == round(r.costs.recommended_monthly.low, 2)
    assert r.costs.region_uplift is None  # priced on the region's own row, not a stand-in
    assert r.in_region_fallback is None  # nothing left to fall back to
    assert "gpu_constraint" not in r.answers  # the answers as the team gave them
    assert f"--tensor-parallel-size {r.hardware.gpus_per_replica}" in r.hardware.command \
        if r.hardware.gpus_per_replica > 1 else "--tensor-parallel-size" not in r.hardware.command


@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_a_part_whose_kv_cache_cannot_hold_its_peak_is_no_lead() -> None:
    """q25: the A10 priced in Hong Kong meets the target within the budget, but as 2-GPU replicas its KV cache holds
    fewer requests at the full context than a replica carries at the peak (the stand-in L40S's holds them), for
    about three times the month: the L40S stays, its quote first, the A10 its plan B (kv_pick's rule for a card the
    plan moves to, applied to the supply lead)."""
    before = unled(advice_answers("q25_hk_bank_retail"))
    fb = before.in_region_fallback
    assert fb is not None and fb["meets"] and fb["monthly"][1] <= before.costs.budget_monthly
    k = before.capacity.kv_fit
    assert k is not None and k.at_full >= k.peak_per_replica  # the stand-in's cache holds its peak
    # the part as first sized, before kv_plan42 adds the replicas that hold the full context within the budget
    # (s40-kvplan): the lead weighs the part's own replicas, as kv_pick does
    with mock.patch.object(engine, "_kv_more", lambda *args, **kwargs: None):
        moved = planned({**advice_answers("q25_hk_bank_retail"), "gpu_constraint": [fb["gpu_id"]]})
    k2 = moved.capacity.kv_fit
    assert k2 is not None and k2.at_full < k2.peak_per_replica  # the part had there: not at the full context
    r = planned(advice_answers("q25_hk_bank_retail"))
    assert r.supply_switch is None and r.hardware.gpu == before.hardware.gpu and r.in_region_fallback is not None


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_page_one_names_the_part_to_quote_and_the_figure_to_switch_under(lang: str) -> None:
    r = planned(advice_answers("q37_sg_fintech_public"))
    s = r.supply_switch
    assert s is not None
    md = render_memo_markdown(r, lang)
    hw = _row(md, HARDWARE[lang])
    assert s["gpu"] in hw and round_money(s["below"]) in hw and r.hardware.gpu_name in hw
    n = supply_lead.step_number(r, 3)
    assert n is not None and str(n) in hw
    step = r.next_steps[n - 1]
    assert step.id == supply_lead.STEP_ID and s["gpu"] in step.text_in(lang)
    assert f"{s['n']} × {s['gpu']}" in step.text_in(lang) and round_money(s["below"]) in step.text_in(lang)
    why = next(x for x in md.splitlines() if x.startswith(("**Why this GPU", "**为什么选")))
    assert s["gpu"] in why and r.hardware.gpu_name in why  # the why-this-GPU paragraph says it too
    assert not _row(md, FEASIBLE[lang]).split("|")[2].strip().startswith(CONDITIONAL[lang])


def _untiered_unled(answers: dict) -> object:
    """The plan the supply lead starts from: neither the lead nor the supply tier (``sure_first38``'s first plan,
    the cost deciding), the sales-only H20 rented as before s36-sourced."""
    from unittest import mock

    from advisor.plan import answers_from_dict, make_plan, sure_first38

    token = sure_first38.RANK_SUPPLY.set(False)
    try:
        with mock.patch.object(supply_lead, "pick", lambda result: None):
            return make_plan(answers_from_dict(answers))
    finally:
        sure_first38.RANK_SUPPLY.reset(token)


def test_launch_deadline_sizes_on_the_on_demand_part() -> None:
    # the H20 led on the cost alone (the supply tier off): the lead re-plans on the L20 within the deadline (q32 as
    # written; with the lead off, the supply tier ranks the L20 first itself: ``sure_first38``)
    before = _untiered_unled(advice_answers("q32_filed_public_chatbot_fast"))
    assert listed_on_request(before.hardware.gpu) and before.timeline.meets_deadline is None
    r = planned(advice_answers("q32_filed_public_chatbot_fast"))
    s = r.supply_switch
    assert s is not None and s["kind"] == "sales" and s["gpu_id"] == before.hardware.gpu
    assert not listed_on_request(r.hardware.gpu) and r.timeline.meets_deadline is True
    assert r.costs.within_budget is True and s["deadline_days"] == before.timeline.deadline_days
    assert r.hardware.gpu_name in next(x.text_in("en") for x in r.next_steps if x.id == "serve")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_job_deadline_runs_on_the_hourly_part(lang: str) -> None:
    before = unled(advice_answers("q28_bank_backfill_batch_48h"))
    assert listed_on_request(before.hardware.gpu)
    r = planned(advice_answers("q28_bank_backfill_batch_48h"))
    s = r.supply_switch
    assert s is not None and s["per_job"] and r.costs.per_job and not listed_on_request(r.hardware.gpu)
    assert r.feasible and r.costs.within_budget is True
    hw = _row(render_memo_markdown(r, lang), HARDWARE[lang])
    # a one-off job of under two days on a part rented now: the part set aside stays off page 1's hardware row and
    # gets no quote step (s35-batchjob, review 26 q28: "step 4 (ask sales for 12×H20) is noise for a one-off 19-hour
    # job"): the job is planned on the part rented now, and no step asks the sales for the other
    assert s["quiet"] and s["gpu"] not in hw and r.hardware.gpu_name in hw
    assert all(x.id != "supply_quote" for x in r.next_steps)


def test_no_deadline_keeps_the_sales_only_part() -> None:
    r = sales_led(deadline=None)  # fixture 10's H20, cheaper even at its top: no deadline, nothing to switch for
    assert r.supply_switch is None and listed_on_request(r.hardware.gpu)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_no_part_in_the_region_makes_feasibility_conditional(lang: str) -> None:
    r = planned(advice_answers("q43_us_team_mainland_low_latency"))
    fb = r.in_region_fallback
    assert fb is not None and not fb["meets"] and r.supply_switch is None
    assert r.feasible is True  # the engine's decision field is unchanged; the words carry the condition
    row = _row(render_memo_markdown(r, lang), FEASIBLE[lang]).split("|")[2].strip()
    assert row.startswith(CONDITIONAL[lang]) and fb["instead_of"] in row


def test_cli_summary_says_the_condition() -> None:
    from advisor.cli.plan import summary

    r = planned(advice_answers("q43_us_team_mainland_low_latency"))
    assert "conditional: " in summary(r, "en") and r.in_region_fallback["instead_of"] in summary(r, "en")


def test_fallback_over_budget_is_not_led_with() -> None:
    r = unled(advice_answers("q37_sg_fintech_public"))
    r.costs.budget_monthly = r.in_region_fallback["monthly"][1] - 1
    assert supply_lead.pick(r) is None
    assert supply_lead.feasible_text(r, "en", "yes").startswith(CONDITIONAL["en"])
