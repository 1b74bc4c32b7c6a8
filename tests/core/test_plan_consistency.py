"""Self-consistency of a plan, as properties over many answer sets: what the plan claims agrees with its own
numbers (issue 25, items 4 and 5).

- the capacity claim and the engine cap (--max-num-seqs) never exceed the highest concurrency that meets the
  target on the plan's own predicted curve;
- the budget is checked against the HIGH end of the cost; a range that straddles the budget is said as such;
- a hosted API is costed on input + output tokens;
- an offline batch is billed for its job hours + setup (a total, not a month, not the whole deadline);
- a GPU plan with no price says the cost is unknown (never "about — a month" with the budget check skipped).
"""

import json
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from advisor.catalog import get_gpu
from advisor.plan import answers_from_dict, line_total, make_plan
from advisor.plan.context import resolve
from advisor.plan.data import factor_range
from advisor.plan.gpu_scale42 import CARDS_X, MEMORY_X, PRICE_X, _tp, out_of_scale
from advisor.plan.hosted_prices import hosted_rates
from advisor.plan.sizing import HEADROOM
from tests.support.headroom_reason import amount, assert_reason_is_its_cause
from tests.support.planned import planned  # the scenarios as they are: planned once per session

SCENARIOS = {p.stem: json.loads(p.read_text(encoding="utf-8"))["answers"]
             for p in sorted((Path(__file__).resolve().parents[1] / "fixtures" / "plan_scenarios").glob("*.json"))}  # fmt: skip
INTERACTIVE = sorted(n for n, a in SCENARIOS.items() if "batch" not in str(a.get("use_case")))


def _highest_within_target(r) -> int:
    """Highest curve level whose predicted p99 TTFT and TPOT meet the target, below the first that misses."""
    curve = r.latency_curve
    best = 0
    for p in sorted(curve.points, key=lambda p: p.concurrency):
        ok = (curve.slo_ttft_p99_ms is None or (p.ttft_p99_ms is not None and p.ttft_p99_ms <= curve.slo_ttft_p99_ms)) and (
            curve.slo_tpot_p99_ms is None or (p.tpot_p99_ms is not None and p.tpot_p99_ms <= curve.slo_tpot_p99_ms))
        if not ok:
            break
        best = p.concurrency
    return best


def _vary(base: dict, peak_k: float, prompt_k: float, tpot_k: float) -> dict:
    a = json.loads(json.dumps(base))
    a["peak_concurrency"] = max(1, int(a.get("peak_concurrency", 8) * peak_k))
    if "prompt_tokens" in a:
        avg = max(16, int(a["prompt_tokens"]["avg"] * prompt_k))
        a["prompt_tokens"] = {"avg": avg, "p95": max(avg, int(a["prompt_tokens"]["p95"] * prompt_k))}
    slo = a.get("latency_slo") or {}
    if slo.get("tpot_p99_ms"):
        a["latency_slo"] = {**slo, "tpot_p99_ms": round(slo["tpot_p99_ms"] * tpot_k, 1)}
    return a


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(INTERACTIVE), st.sampled_from([0.5, 1.0, 2.0, 4.0]), st.sampled_from([0.5, 1.0, 2.0]),
       st.sampled_from([0.6, 1.0, 1.5]))  # fmt: skip
@example("10_large_moe", 4.0, 2.0, 1.5)  # 2 × 8 H20 at 14 %, said to be stopped by "64 replicas at most" (s19)
# the claim found on a 3-replica curve, the memo curve of the 4-replica layout without its level (13 vs 11; 46 vs 32;
# 80 vs 64): the cap is now a level the memo shows (s19, found by the derandomized CI draw and random draws)
@example("09_70b_long_context", 4.0, 2.0, 1.5)
@example("12_budget_far_below_slo", 2.0, 0.5, 0.6)
@example("12_budget_far_below_slo", 4.0, 0.5, 1.0)
def test_capacity_claim_engine_cap_and_latency_limit_agree_with_the_plans_own_curve(name, peak_k, prompt_k, tpot_k):
    """Two properties of one plan, checked on the same draws: each example is a distinct plan (~0.5–2 s), and as two
    tests with the same strategies they planned 28 answer sets for 16 + 12 checks; now 16 for 16 + 16 (issue #27)."""
    r = make_plan(answers_from_dict(_vary(SCENARIOS[name], peak_k, prompt_k, tpot_k)))
    _capacity_claim_and_engine_cap_stay_within_the_curve(r)
    _a_latency_binding_constraint_agrees_with_the_claim(r)


def _capacity_claim_and_engine_cap_stay_within_the_curve(r) -> None:
    if r.hardware.gpu is None or not r.latency_curve.points:
        return
    top = _highest_within_target(r)
    assert top >= 1, "a chosen plan meets the target at least at its own load"
    assert r.hardware.max_num_seqs <= top, (r.hardware.max_num_seqs, top)
    assert r.capacity.max_concurrency_per_replica <= top
    plan_finding = next((f for f in r.findings if f.id == "sizing.plan"), None)
    if plan_finding is not None:
        assert plan_finding.params["c_max"] <= top
        # the headroom the finding states is the capacity table's (it said "20% headroom planned" beside 0 %)
        assert plan_finding.params["room"] == max(0, round(r.capacity.headroom * 100)), (plan_finding.params, r.capacity)
        if plan_finding.params.get("short"):  # below the policy: the 20 % is the policy, said with its true cause
            assert_reason_is_its_cause(r)
        else:
            for lang in ("en", "zh_CN"):
                assert "20%" not in plan_finding.detail_in(lang) or round(r.capacity.headroom * 100) == 20
    assert f"--max-num-seqs {r.hardware.max_num_seqs}" in r.hardware.engine_flags


def test_a_headroom_short_of_the_policy_states_the_budget_and_the_servers_it_takes():
    """2 × 8 H20 (4 × TP4, a whole server spare) carry 128 at 73 a replica: 14 %. The 20 % needs 3 replicas, so a
    third server, and that takes the plan over a budget of 300,000 CNY: the finding says so with the figures,
    not "more than the plan lays out (64 replicas at most)", and says the spare server's two replicas. The third
    server is bought where the budget allows it. (The scenario's own 400,000 held 2 servers' 238,663 CNY high end
    and not 3 servers' until the commitment discount became sourced, s20: now 3 fit it, so the budget is set here.
    It was 300,000 until the cloud uplift went by component, s23-uplift23: storage + support + egress instead of the
    flat 30-50 % bring 3 servers' high end to 298,329 CNY, under 300,000; 2 servers' is 198,886, so 260,000 is the
    budget that holds 2 and not 3. It is 200,000 since s24-ownrent24: the rent beside the purchase is sized to the
    load in 4-GPU VMs, 12 H20 rather than the 16 bought, so the rent-first month the budget is judged on fell and
    260,000 came to hold the third server's headroom; 150,000–230,000 hold 2 and not 3. Since s26-usage26 the
    own-vs-rent gate reads the usage the cost table prints: on its estimated tokens (44 % of the setup) this load
    rents 4-GPU VMs, whole servers never weighed; 400,000 requests a day counted keep it about 61 % busy, the
    rent-first-then-buy path on whole servers this test is about.)"""
    answers = {**_vary(SCENARIOS["10_large_moe"], 4.0, 2.0, 1.5),
               "monthly_budget": {"amount": 200_000, "currency": "CNY"},
               "requests_per_day": {"low": 400_000, "high": 400_000}}
    r = make_plan(answers_from_dict(answers))
    assert r.hardware.gpu == "h20-96g" and r.hardware.layout.whole_server and r.hardware.layout.spare_units == 1
    assert assert_reason_is_its_cause(r) == "plan.headroom19.short.budget_servers"
    f = r.finding("sizing.plan")
    short = f.params["short"]
    units = short["units"]
    en, zh = f.detail_in("en"), f.detail_in("zh_CN")
    assert f"{units} servers of {short['unit_gpus']} with the spare, where the plan has {short['have_units']}" in en
    assert f"over the budget of {short['budget']} CNY" in en and f"超出 {short['budget']} CNY 的预算" in zh
    assert "replicas at most" not in en and "可布置的上限" not in zh
    per = r.hardware.layout.unit_gpus // r.hardware.tp
    assert per == 2 and f"a server that fails takes its {per} replicas with it" in en
    assert f"一台服务器故障会带走其上的 {per} 个副本" in zh
    # the same answers with the budget the stated total: the plan buys the servers and has the headroom
    # s22-rentbasis22b: renting first, this form pays for its BGP line, which page 1's total and the budget now
    # count (as a rented plan's, s22-premium22); the sentence's total is the GPUs', so the line is added to it here
    line = r.line_cost.monthly.high if r.line_cost is not None and r.line_cost.monthly is not None else 0.0
    roomy = make_plan(answers_from_dict({**answers, "monthly_budget": {"amount": amount(short["total"]) + line,
                                                                         "currency": "CNY"}}))
    # (s23) the 3 replicas the headroom needs take 2 servers, which hold 4 and ride out one down on their own: the
    # spare server the finding counted is not bought (``spare_in_units``), so the budget of its total buys as many
    # servers or fewer, never less headroom
    assert roomy.hardware.layout.units <= units and roomy.capacity.headroom >= HEADROOM - 1e-9
    assert roomy.costs.within_budget and not roomy.finding("sizing.plan").params.get("short")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["03_overseas_only", "01_fast_launch_no_icp", "06_sensitive_medical", "13_mixed_users"]),
       st.floats(0.2, 3.0))  # fmt: skip
@example("01_fast_launch_no_icp", 1.0)  # a budget equal to the shown high end (found by a random draw, session 16)
def test_budget_is_checked_against_the_high_end(name, k):
    base = SCENARIOS[name]
    probe = planned(base)  # the same for every example of this scenario
    # the figure the budget is judged on: the setup's cost, with its network line where that is priced and in the
    # total (s22-premium22: a line pushing the total over the budget is not "within budget")
    m = line_total.judged_total(probe.costs)
    if m is None:
        return
    budget = (m.low + (m.high - m.low) * k) if k <= 1 else m.high * k
    cur = probe.costs.currency
    r = make_plan(answers_from_dict({**base, "monthly_budget": {"amount": budget, "currency": cur}}))
    c = r.costs
    t = line_total.judged_total(c)
    assert c.within_budget == (t.high <= budget)
    assert c.budget_straddles == (t.low <= budget < t.high)
    assert ("cost.budget_straddles" in r.finding_ids) == c.budget_straddles
    if c.budget_straddles:
        assert "cost.budget_short" not in r.finding_ids


def test_straddling_budget_is_not_called_within_budget_in_the_memo():
    from advisor.plan.memo import render_memo_markdown as render_markdown

    base = SCENARIOS["03_overseas_only"]
    m = planned(base).costs.recommended_monthly
    mid = (m.low + m.high) / 2
    r = make_plan(answers_from_dict({**base, "monthly_budget": {"amount": mid, "currency": "USD"}}))
    assert r.costs.budget_straddles and r.costs.within_budget is False
    en, zh = render_markdown(r, "en"), render_markdown(r, "zh_CN")
    assert "(within budget)" not in en and "over budget at the high end" in en
    assert "按区间上限计超出预算" in zh


def test_hosted_api_counts_input_and_output_tokens():
    base = {**SCENARIOS["03_overseas_only"], "ops_capability": "none"}
    short = make_plan(answers_from_dict({**base, "prompt_tokens": {"avg": 100, "p95": 200}}))
    long = make_plan(answers_from_dict({**base, "prompt_tokens": {"avg": 4000, "p95": 6000}}))
    assert long.deployment_form == "hosted_api"
    c = long.costs
    rates = hosted_rates(resolve(answers_from_dict({**base, "prompt_tokens": {"avg": 4000, "p95": 6000}})))
    (_, in_hi), (_, out_hi) = rates.input_usd, rates.output_usd
    expect_hi = c.output_tokens_per_month / 1e6 * out_hi + c.input_tokens_per_month / 1e6 * in_hi
    expect_in = c.output_tokens_per_month * 4000 / base["output_tokens"]["avg"]
    assert abs(c.input_tokens_per_month - expect_in) <= 1e-6 * expect_in
    assert abs(c.hosted_api_monthly.high - expect_hi) <= 0.01 * expect_hi + 1
    assert c.hosted_api_monthly.high > c.output_tokens_per_month / 1e6 * out_hi  # not output-only
    # the same output volume costs more with long prompts
    assert long.costs.recommended_monthly.high > short.costs.recommended_monthly.high
    assert c.hosted_api_input_per_million.high == round(in_hi, 2)
    assert c.hosted_api_output_per_million.high == round(out_hi, 2)


def test_batch_is_billed_for_job_hours_plus_setup_as_a_total():
    base = SCENARIOS["04_offline_batch"]
    r = make_plan(answers_from_dict(base))
    c = r.costs
    assert c.per_job
    s_lo, s_hi = factor_range("batch_setup_hours")
    job = r.capacity.batch_hours
    # to 2 decimals since s33-arith: the memo multiplies the billed hours out to the cost beside them, and the
    # hour's tenth they lost moved that product by up to 0.3 % (q29's 124.43 h printed "124")
    assert c.billed_hours.low == round(job + s_lo, 2) and c.billed_hours.high == round(job + s_hi, 2)
    deadline = base.get("batch_deadline_hours")
    if deadline and job + s_hi < deadline:
        assert c.billed_hours.high < deadline  # never the whole deadline
    from advisor.plan.memo import render_memo_markdown as render_markdown

    en = render_markdown(r, "en")
    assert "for the whole job" in en and "Cloud, on demand, per month" not in en
    assert "整个任务" in render_markdown(r, "zh_CN")


def test_region_uplift_is_shown_with_its_source():
    base = {**SCENARIOS["03_overseas_only"], "overseas_markets": ["SG"], "user_location": "overseas"}
    # s39-sgp (issue #25): Singapore's L4 pair is priced on g2-standard-24 (its VM part a GPU three times
    # g2-standard-4's), about USD 3,600 a month, past the scenario's USD 3,000: the plan would rightly stay on the
    # stand-in; with room for it the budget lets the move below be read, as before
    base["monthly_budget"] = {**base["monthly_budget"], "amount": 4000}
    # the stand-in plan (a US row times Singapore's uplift): since s34-supply36 the plan itself moves to a part
    # priced on Singapore's own row where one meets the target, so the stand-in is read before that move
    from tests.support.planned import unled

    r = unled(base)
    assert r.region == "singapore" and r.costs.region_uplift is not None
    # the plan as led: ovs44 (review 35) keeps an overseas node on the stand-in card where the part on Singapore's
    # own row costs more than the stand-in's whole range (here the L4 pair on g2-standard-24): the led plan then
    # carries the uplift too, and its memo shows it with its source as the unled one does
    led = make_plan(answers_from_dict(base))
    if led.costs.region_uplift is not None:
        from advisor.plan.memo import render_memo_markdown

        assert led.costs.region_uplift.source and led.costs.region_uplift.grade
        assert led.costs.price_basis is not None and led.costs.price_basis.stand_in_region == "singapore"
        assert "Regional uplift on US price rows" in render_memo_markdown(led, "en")
    up = r.costs.region_uplift
    assert up is not None and up.source and up.grade
    # each region its own uplift (s30-prices30: AWS's list price there over N. Virginia's; was one APAC survey range)
    from advisor.plan.price_rows import UPLIFT_FACTOR

    assert (up.low, up.high) == factor_range(UPLIFT_FACTOR[r.region])
    from advisor.plan.memo import render_memo_markdown as render_markdown

    assert "Regional uplift on US price rows" in render_markdown(r, "en")


def test_cost_per_million_tokens_input_and_output_together():
    r = planned(SCENARIOS["03_overseas_only"])
    c = r.costs
    assert c.cost_per_million_tokens is not None and c.cost_per_million_output_tokens is not None
    ratio = (c.output_tokens_per_month + c.input_tokens_per_month) / c.output_tokens_per_month
    assert abs(c.cost_per_million_output_tokens.high / c.cost_per_million_tokens.high - ratio) < 0.02 * ratio


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["12_budget_far_below_slo", "11_h20_prefill_heavy", "07_public_genai_mainland",
                        "09_70b_long_context"]), st.sampled_from([0.3, 1.0, 3.0]))  # fmt: skip
def test_every_listed_fix_alone_makes_the_plan_feasible_within_budget(name, budget_k):
    """"Any one of these makes it feasible": each fix's change applied alone is re-planned here, independently."""
    base = dict(SCENARIOS[name])
    if base.get("monthly_budget"):
        base["monthly_budget"] = {**base["monthly_budget"], "amount": base["monthly_budget"]["amount"] * budget_k}
    r = planned(base)
    for fix in r.fixes:
        patched = {k: v for k, v in {**base, **fix.change}.items() if v is not None}
        # planned afresh by the test (not read from the plan's own fix check), once per session for the same answers:
        # hypothesis draws the same scenario and budget again, and test_plan_properties re-plans the same fixes
        p = planned(patched)
        assert p.feasible, (fix.id, [x.id for x in p.findings if x.severity == "blocker"])
        assert p.costs.within_budget is not False, fix.id
        if fix.monthly_cost is not None and p.costs.recommended_monthly is not None:
            assert fix.monthly_cost.high == p.costs.recommended_monthly.high  # the cost shown is that plan's
        if fix.with_budget:
            assert fix.change["monthly_budget"] == fix.with_budget
            # the budget the fix needs is said with it; where its range straddles the budget as asked (low end
            # within, high end over), as that (s21-util21b, q29/q40), not "still costs more than the budget"
            asked = base["monthly_budget"]["amount"]
            straddles = fix.monthly_cost is not None and fix.monthly_cost.low <= asked < fix.monthly_cost.high
            assert (fix.straddles_budget is not None) == straddles, fix.id
            assert ("straddles the budget" if straddles else "together with a monthly budget") in fix.text_in("en")
            assert f"a monthly budget of about {fix.with_budget['amount']:,.0f}" in fix.text_in("en")


def test_binding_constraint_in_json_and_memo_with_sizing_core_figures():
    from advisor.plan.memo import render_memo_markdown

    moe = planned(SCENARIOS["10_large_moe"])
    b = moe.binding_constraint
    assert b.kind == "weights_memory" and b.figures["tp"] == moe.hardware.tp
    j = moe.to_json("en")["binding_constraint"]
    assert j["kind"] == "weights_memory" and "Weights memory decides" in j["text"]
    assert moe.to_json("zh_CN")["binding_constraint"]["text"].startswith("权重显存决定规模")
    assert "What decides the size" in render_memo_markdown(moe, "en")
    assert "规模由什么决定" in render_memo_markdown(moe, "zh_CN")
    budget = planned(SCENARIOS["12_budget_far_below_slo"]).binding_constraint
    assert budget.kind == "budget" and budget.figures["cost_high"] > budget.figures["budget"]
    prefill = planned(SCENARIOS["11_h20_prefill_heavy"]).binding_constraint
    assert prefill.kind == "prefill_compute" and prefill.figures["ttft_ms"] > prefill.figures["target_ms"]


def _a_latency_binding_constraint_agrees_with_the_claim(r) -> None:
    """A latency limit is named above the claimed capacity, and its figure breaks the target it names (checked on
    the draws of ``test_capacity_claim_engine_cap_and_latency_limit_agree_with_the_plans_own_curve``)."""
    b = r.binding_constraint
    if r.hardware.gpu is not None:
        assert b is not None
    if b is None or b.kind not in ("prefill_compute", "decode_bandwidth"):
        return
    value = b.figures["ttft_ms" if b.kind == "prefill_compute" else "tpot_ms"]
    assert value > b.figures["target_ms"]
    if r.hardware.gpu is not None:
        assert b.figures["at"] > r.capacity.max_concurrency_per_replica


def test_an_infeasible_plan_does_not_start_the_setup_it_ruled_out():
    for name in ("07_public_genai_mainland", "12_budget_far_below_slo"):
        r = planned(SCENARIOS[name])
        assert not r.feasible
        assert not {"serve", "quant_ab"} & {s.id for s in r.next_steps}, name
    ok = planned(SCENARIOS["03_overseas_only"])
    # s28-lead28: 03 leads with a hosted API, so its replica is started later, in the step that names its trigger
    # (consistent28.next.later*), not as a "serve" step of its own; a feasible plan still starts its setup
    assert ok.feasible and ("serve" in {s.id for s in ok.next_steps}
                            or any(s.key.startswith("consistent28.next.later") for s in ok.next_steps))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(INTERACTIVE), st.sampled_from([0.5, 1.0, 2.0]), st.sampled_from([0.5, 1.0, 2.0]))
# found by a random draw (session 16): the screen's 4 × A10 (26.55 CNY/h), which the predictor's check had sized at
# 12, offered as "the next cheapest" beside a 32.13 CNY/h L20 plan
@example("13_mixed_users", 1.0, 2.0)
def test_gpu_choice_names_two_dearer_alternatives_on_other_gpus(name, peak_k, prompt_k):
    r = make_plan(answers_from_dict(_vary(SCENARIOS[name], peak_k, prompt_k, 1.0)))
    g = r.gpu_choice
    if r.hardware.gpu is None:
        assert g is None
        return
    assert g.chosen.gpu == r.hardware.gpu and g.chosen.gpus == r.hardware.total_gpus
    assert len(g.alternatives) <= 2 and r.hardware.gpu not in {a.gpu for a in g.alternatives}
    # a cheaper setup ranked after the chosen one was set aside for a stated reason (where the part is sold, the
    # team's fleet, the vendor's stack, a part not sold new, or a replica split over PCIe cards passed over for one
    # card per replica within the premium: s19), never silently
    # s29-prices29b: or a placeholder-priced setup cheaper only at the middle of its guessed range (ranked at its top,
    # gpu_choice.ranked_hourly), which the memo names as "perhaps cheaper, about <its middle>/h on a placeholder
    # price: get a quote" (``unsourced_cheaper``): with Alibaba's L20 quote wired in, 06's small variant keeps 2 × L20 at ¥29.26/h
    # over 2 × H20 at ¥26.55/h at the middle of the H20's placeholder range (up to ¥36.3/h at its top)
    passed = g.single_card["other"] if g.single_card else None
    guessed = g.unsourced_cheaper
    assert g.reason != "cost" or all(a.per_hour >= g.chosen.per_hour or (passed is not None and (a.gpu, a.gpus) == (
        passed["gpu"], passed["gpus"]) and a.per_hour * (1 + g.single_card["limit_pct"] / 100) >= g.chosen.per_hour)
        or (guessed is not None and (a.gpu, a.gpus) == (guessed.gpu, guessed.gpus) and not guessed.price_sourced)
        # s31-burst32: or a part the cloud sells only through its sales, cheaper by the hour but billed every card all
        # month on a bursty load, against the chosen one that bursts (``all_month``, said with both monthly figures)
        or (g.all_month is not None and a.gpu == g.all_month["gpu"] and g.all_month["billed"] > g.all_month["chosen_billed"])
        for a in g.alternatives), (g.chosen, g.alternatives)
    # gl42 (blind review 32: "8 × A10 beside 2 cards"): an alternative out of scale (gpu_scale42) is left out of the
    # text; it is one by the rule's own figures (twice the cards a replica and in all at a higher hourly price, or
    # three times a replica's memory at twice the card-hour), and every alternative in scale is still named. The
    # example's 4 × A10 in pairs at 38.96 CNY/h beside 2 × H20 one a replica at 26.55 is one; its L20 stays named.
    out = out_of_scale(g)
    for a in g.alternatives:
        if a.gpu_name in out:
            more_cards = a.gpus >= CARDS_X * g.chosen.gpus and a.per_hour > g.chosen.per_hour
            bigger = (get_gpu(a.gpu).memory_bytes * (_tp(g, a.gpu_name) or 1)
                      >= MEMORY_X * get_gpu(g.chosen.gpu).memory_bytes * (_tp(g, g.chosen.gpu_name) or 1)
                      and a.per_hour / a.gpus >= PRICE_X * g.chosen.per_hour / g.chosen.gpus)
            assert more_cards or bigger, (a, g.chosen)
    for lang in ("en", "zh_CN"):
        text = r.to_json(lang)["gpu_choice"]["text"]
        assert g.chosen.gpu_name in text and all(a.gpu_name in text for a in g.alternatives if a.gpu_name not in out)


def test_gpu_choice_sentence_is_in_the_memo():
    from advisor.plan.memo import render_memo_markdown

    r = planned(SCENARIOS["03_overseas_only"])
    assert "Why this GPU" in render_memo_markdown(r, "en") and "为什么选这款 GPU" in render_memo_markdown(r, "zh_CN")


def test_china_market_parts_never_go_to_an_offshore_node():
    base = {**SCENARIOS["03_overseas_only"], "overseas_markets": ["DE"]}
    r = make_plan(answers_from_dict({**base, "gpu_constraint": ["h800-sxm-80g", "a100-sxm-80g"]}))
    assert r.region == "europe" and r.hardware.gpu == "a100-sxm-80g"
    note = next(a for a in r.assumptions if a.field == "gpu_constraint")
    assert "H800" in note.text_in("en") and "中国市场专供" in note.text_in("zh_CN")
    only = make_plan(answers_from_dict({**base, "gpu_constraint": ["h800-sxm-80g"]}))
    assert only.hardware.gpu != "h800-sxm-80g"
    mainland = make_plan(answers_from_dict({**SCENARIOS["06_sensitive_medical"], "gpu_constraint": ["h800-sxm-80g"]}))
    if mainland.region == "mainland" and mainland.hardware.gpu is not None:
        assert mainland.hardware.gpu == "h800-sxm-80g"


def test_an_offered_ttft_relaxation_is_the_smallest_that_works_in_500_ms_steps():
    for name, quant in (("11_h20_prefill_heavy", None), ("11_h20_prefill_heavy", "fp8_only"),
                        ("11_h20_prefill_heavy", "yes_after_quality_check")):
        base = dict(SCENARIOS[name])
        if quant:
            base["quantization_acceptable"] = quant
        r = planned(base)
        fix = next((f for f in r.fixes if f.id == "relax_ttft"), None)
        if fix is None:
            continue
        value = fix.change["latency_slo"]["ttft_p99_ms"]
        assert make_plan(answers_from_dict({**base, **fix.change})).feasible
        tighter = {**fix.change["latency_slo"], "ttft_p99_ms": value - 500}
        if tighter["ttft_p99_ms"] > base["latency_slo"]["ttft_p99_ms"]:
            assert not make_plan(answers_from_dict({**base, "latency_slo": tighter})).feasible, (quant, value)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(INTERACTIVE), st.sampled_from([1.0, 2.0, 4.0, 8.0]))
@example("02_steady_3y_strong_ops", 4.0)  # owned servers whose cover is renting for the repair days (found by a draw)
def test_an_n_plus_1_claim_holds_on_the_plans_own_curve(name, peak_k):
    """N+1 is claimed only when, with one unit down, the other replicas at the most each takes within the target
    carry the peak; otherwise the finding says 'on paper only' with those figures (blind reviewers found N+1
    claimed where losing one replica left 54 of 80 calls)."""
    r = make_plan(answers_from_dict({**_vary(SCENARIOS[name], peak_k, 1.0, 1.0), "charges_users": True}))
    x = r.finding("sizing.redundancy")
    if x is None or r.hardware.layout is None:
        return
    p = x.params
    per_unit = max(1, r.hardware.layout.unit_gpus // max(1, r.hardware.gpus_per_replica))
    left = max(0, r.hardware.replicas - per_unit) * r.capacity.max_concurrency_per_replica
    if ".repair_" in x.detail_key:
        # Owned servers bought without a spare server (own28's repair-day rent, redundancy31's unsure rent): the
        # finding counts a server's loss in replicas against the replicas the peak needs, not in requests. Its figures
        # must still be the hardware's, and say "short" exactly when the requests left fall short of the peak.
        if "left" in p:
            assert p["left"] == max(0, r.hardware.replicas - per_unit)
            assert (p["left"] >= p["need"]) == (left >= r.capacity.peak_concurrency)
        return
    assert p["left"] == left
    if x.detail_key.endswith(".thin.detail"):
        assert left < r.capacity.peak_concurrency and x.severity == "warning"
        assert str(left) in x.title_in("en") and str(left) in x.title_in("zh_CN")
    else:
        assert left >= r.capacity.peak_concurrency


def test_the_sizing_finding_quotes_the_capacity_cards_latency():
    """The finding that says the setup meets the target quotes the P99 TTFT and TPOT the capacity card shows (q33 said
    "Predicted P99 TTFT 4,363 ms" under a card of 3,504 ms: the screen's analytic figure beside the curve's)."""
    stems = ("q33_office_4090d_fleet", "q01_office_lan_capex_contracts", "q26_steady_3y_strong_ops_buy")
    root = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
    for stem in stems:
        r = planned(json.loads((root / f"{stem}.json").read_text(encoding="utf-8"))["answers"])  # as they are: shared
        f = r.finding("sizing.plan")
        assert f is not None, stem
        assert f.params["ttft"] == round(r.capacity.ttft_p99_ms), (stem, f.params["ttft"], r.capacity.ttft_p99_ms)
        assert f.params["tpot"] == round(r.capacity.tpot_p99_ms, 1), (stem, f.params["tpot"], r.capacity.tpot_p99_ms)
