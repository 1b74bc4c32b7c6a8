"""Properties of make_plan: independent of dict order, monotone in budget, deterministic."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from advisor.plan import answers_from_dict, budget_fit43, make_plan
from tests.support.planned import planned  # a scenario as it is: planned once per session, a copy per caller

SCENARIOS = {p.stem: json.loads(p.read_text(encoding="utf-8"))["answers"]
             for p in sorted((Path(__file__).resolve().parents[1] / "fixtures" / "plan_scenarios").glob("*.json"))}  # fmt: skip


def _essence(r) -> dict:
    d = r.to_json("en")
    d.pop("generated_at")
    return d


def _shuffled(value, rng: random.Random):
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffled(v, rng) for k, v in items}
    return value


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SCENARIOS)), st.integers(0, 10**6))
def test_recommendation_does_not_depend_on_dict_order(name, seed):
    a = SCENARIOS[name]
    b = _shuffled(a, random.Random(seed))
    # the scenario as written is the session's shared plan (made from its answers in sorted-key order, another order
    # again); the shuffled copy is planned afresh
    assert _essence(planned(a)) == _essence(make_plan(answers_from_dict(b)))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["03_overseas_only", "12_budget_far_below_slo", "06_sensitive_medical", "01_fast_launch_no_icp"]),
    st.floats(100, 2_000_000), st.floats(1.0, 50.0), st.sampled_from(["CNY", "USD"]),
)  # fmt: skip
@example("01_fast_launch_no_icp", 3000.0, 5 / 3, "USD")
@example("01_fast_launch_no_icp", 3695.0, 11.0, "CNY")  # L40S at 3,695 CNY, the A100 the budget carries at 11×
def test_more_money_never_turns_a_feasible_plan_infeasible(name, budget, factor, currency):
    base = dict(SCENARIOS[name])
    low = make_plan(answers_from_dict({**base, "monthly_budget": {"amount": budget, "currency": currency}}))
    high = make_plan(answers_from_dict({**base, "monthly_budget": {"amount": budget * factor, "currency": currency}}))
    if low.feasible:
        assert high.feasible
    # the budget never changes what is recommended, only whether it is affordable — except the N+1 spare: a spare
    # that alone breaks the budget is left out and that plan says plainly it is not N+1 (sizing.redundancy's
    # over_budget case). A plan over the budget even without it keeps it (and is infeasible); enough money buys it.
    assert (low.deployment_form, low.region) == (high.deployment_form, high.region)
    if low.hardware.gpu != high.hardware.gpu:
        # kv_pick: a card whose KV cache holds the failover load is taken over a cheaper one that does not only where
        # the budget carries it ("budget"), or, priced by a stand-in, where the cheaper card also streams below the
        # chat line ("slow", review 35 q13: "2 × L40S should be the default"). So more money may buy that card —
        # only that way: the richer plan says which card it was chosen over, the poorer one is that card, and the
        # budget that did not carry the better card leaves the poorer plan no more feasible than the richer
        pick = high.gpu_choice.kv_pick
        assert pick is not None and pick["basis"] in ("budget", "slow"), (low.hardware.gpu, high.hardware.gpu)
        assert pick["other"] == low.hardware.gpu_name and high.feasible
        return
    if low.hardware.replicas != high.hardware.replicas:
        fewer, more = sorted((low, high), key=lambda r: r.hardware.replicas)
        point = fewer.finding("sizing.single_point")
        if point is not None and (point.params.get("verdict") or {}).get("tr") in budget_fit43.UPGRADE:
            # s31-q10lead32: a rented business service's spare server the budget does not carry over most of its
            # range is left out, the plan on one server says so and names the second as the upgrade; more money
            # that carries it buys the servers back (``spare_over_budget``)
            assert more.hardware.layout is not None and fewer.hardware.layout is not None
            assert fewer.hardware.layout.units == 1 < more.hardware.layout.units
            return
        kv = more.finding("sizing.redundancy")
        if kv is not None and kv.title_key.endswith(".kvp42.title"):
            # kv_plan42: the budget that carries them buys the serving replicas that keep one replica down within
            # what each KV cache holds at the full context; the spares stay as they were (fixture 01 at 3,000 vs
            # 5,000 USD: 2 → 3 × L40S; a random draw found it, pinned below)
            assert more.hardware.layout is not None and fewer.hardware.layout is not None
            assert more.hardware.layout.spare_units == fewer.hardware.layout.spare_units
            assert kv.title_key.startswith("plan.rule.sizing.redundancy.")
            return
        said = fewer.finding("sizing.redundancy")
        assert said is not None and said.title_key.endswith(".over_budget.title")
        assert more.hardware.layout is not None and more.hardware.layout.spare_units
        assert more.hardware.replicas - fewer.hardware.replicas <= more.hardware.layout.spare_units


def test_budget_threshold_is_the_high_end_of_the_cheapest_plans_cost():
    # "within budget" must hold for every price in the range: a budget between its low and high end straddles it
    base = dict(SCENARIOS["12_budget_far_below_slo"])
    r = planned(base)
    low, need = r.costs.recommended_monthly.low, r.costs.recommended_monthly.high
    just = make_plan(answers_from_dict({**base, "monthly_budget": {"amount": need * 1.01, "currency": "CNY"}}))
    assert just.feasible and "cost.budget_short" not in just.finding_ids and just.costs.within_budget
    between = make_plan(answers_from_dict({**base, "monthly_budget": {"amount": (low + need) / 2, "currency": "CNY"}}))
    assert between.costs.budget_straddles and between.costs.within_budget is False  # never "within budget"
    assert "cost.budget_straddles" in between.finding_ids
    fix = next(f for f in r.fixes if f.id == "more_budget")
    assert fix.change["monthly_budget"]["amount"] >= need
    patched = make_plan(answers_from_dict({**base, **fix.change}))
    assert patched.feasible


def test_plan_is_deterministic():
    a = answers_from_dict(SCENARIOS["10_large_moe"])
    assert _essence(make_plan(a)) == _essence(make_plan(a))


def test_every_fix_change_is_valid_answers():
    for name in ("07_public_genai_mainland", "11_h20_prefill_heavy", "12_budget_far_below_slo"):
        r = planned(SCENARIOS[name])
        assert r.fixes, name
        for fix in r.fixes:
            patched = {**SCENARIOS[name], **{k: v for k, v in fix.change.items()}}
            answers_from_dict({k: v for k, v in patched.items() if v is not None})


def test_the_offered_relaxations_really_make_the_h20_case_feasible():
    base = SCENARIOS["11_h20_prefill_heavy"]
    r = planned(base)
    for fix_id in ("relax_ttft", "shorter_prompts", "other_gpus"):
        fix = next(f for f in r.fixes if f.id == fix_id)
        patched = {k: v for k, v in {**base, **fix.change}.items() if v is not None}
        after = planned(patched)  # the same answers test_plan_consistency re-plans: planned once for both
        assert after.feasible, (fix_id, after.finding_ids)


def test_a_hosted_api_bills_the_prompts_too():
    # the bill was output tokens only: 2-20x low with long prompts, and then offered as the cheap fix
    base = dict(SCENARIOS["08_tiny_internal_tool"])
    short = make_plan(answers_from_dict({**base, "prompt_tokens": {"avg": 200, "p95": 400}}))
    long = make_plan(answers_from_dict({**base, "prompt_tokens": {"avg": 6000, "p95": 8000}}))
    assert short.deployment_form == long.deployment_form == "hosted_api"
    assert long.costs.recommended_monthly.low > 2 * short.costs.recommended_monthly.low


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_capacity_claims_and_engine_caps_stay_within_the_plans_own_latency_table(name):
    r = planned(SCENARIOS[name])
    curve = r.latency_curve
    if not curve.points or r.hardware.gpu is None:
        return
    slo_ttft, slo_tpot = curve.slo_ttft_p99_ms, curve.slo_tpot_p99_ms
    within = [p.concurrency for p in curve.points
              if (slo_ttft is None or p.ttft_p99_ms is None or p.ttft_p99_ms <= slo_ttft)
              and (slo_tpot is None or p.tpot_p99_ms is None or p.tpot_p99_ms <= slo_tpot)]
    per = r.capacity.concurrency_per_replica
    ceiling = max([per, *within])
    assert r.capacity.max_concurrency_per_replica <= ceiling
    assert r.hardware.max_num_seqs <= max(per, ceiling)
    sizing = next((f for f in r.findings if f.id == "sizing.plan"), None)
    if sizing is not None and "c_max" in sizing.params:
        assert sizing.params["c_max"] <= ceiling
