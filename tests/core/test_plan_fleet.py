"""The team's current fleet used and subtracted (issue 25, s13-fleet): the free GPUs at the measured utilisation
cost only their running costs, the plan buys or rents only what is missing, the form follows where the fleet
lives, a bursty public service's base is sized on the plan's own curve with the peak rented (hybrid), a fleet that
cannot serve the model is not used, and an assumed TTFT target out of reach does not make the plan infeasible."""

import math

import pytest

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.context import PEAK_FACTOR
from advisor.plan.fleet import free_gpus
from advisor.plan.memo import render_memo_markdown

# A US company with 32 × H100 SXM in colocation, 45 % used, serving Llama 3.3 70B to paying customers (q18)
US_FLEET = {
    "use_case": "api", "audience": "business", "model": "llama-3.3-70b-instruct", "peak_concurrency": 200,
    "latency_slo": {"ttft_p99_ms": 2000, "tpot_p99_ms": 50}, "prompt_tokens": {"avg": 1500, "p95": 4000},
    "output_tokens": {"avg": 400, "p95": 1000}, "quantization_acceptable": "fp8_only", "user_location": "overseas",
    "overseas_markets": ["US"], "mainland_carriers": "n/a", "mainland_entity": False, "charges_users": True,
    "ops_capability": "strong", "expected_duration_months": 36, "load_pattern": "diurnal",
    "measured_utilisation": 0.45, "current_fleet": {"gpu": "h100-sxm-80g", "count": 32},
}  # fmt: skip
# A mainland business API on 16 owned L20, bursty, ICP filed (q39)
L20_BURSTY = {
    "use_case": "api", "audience": "business", "model": "qwen2.5-14b-instruct", "peak_concurrency": 300,
    "prompt_tokens": {"avg": 1200, "p95": 3000}, "output_tokens": {"avg": 300, "p95": 800},
    "quantization_acceptable": "fp8_only", "user_location": "mainland", "mainland_carriers": "all_three",
    "icp_status": "filed", "mainland_entity": True, "public_genai_in_mainland": False, "charges_users": False,
    "monthly_budget": {"amount": 80000, "currency": "CNY"}, "ops_capability": "strong",
    "expected_duration_months": 36, "load_pattern": "bursty", "measured_utilisation": 0.85,
    "current_fleet": {"gpu": "l20-48g", "count": 16},
}  # fmt: skip
# A state-owned enterprise's 16 Ascend 910B in its own machine room, an internal assistant on a 72B model (q08)
ASCEND = {
    "use_case": "interactive", "audience": "internal", "reach": "private_network", "model": "qwen2.5-72b-instruct",
    "peak_concurrency": 30, "prompt_tokens": {"avg": 2000, "p95": 6000}, "output_tokens": {"avg": 500, "p95": 1200},
    "quantization_acceptable": "no", "user_location": "mainland", "mainland_carriers": "n/a",
    "mainland_entity": True, "ops_capability": "strong", "expected_duration_months": 36, "load_pattern": "stable",
    "measured_utilisation": 0.2, "gpu_constraint": ["ascend-910b"],
    "current_fleet": {"gpu": "ascend-910b", "count": 16},
}  # fmt: skip


def plan(answers: dict):
    return make_plan(answers_from_dict(answers))


@pytest.fixture(scope="module")
def us_fleet():
    return plan(US_FLEET)


def test_the_free_gpus_of_the_fleet_are_used_and_cost_only_running_costs(us_fleet):
    r = us_fleet
    o = r.costs.owned
    assert r.feasible and r.deployment_form == "bare_metal", r.deployment_form  # colocated fleet: bare metal
    assert r.hardware.gpu == "h100-sxm-80g"
    assert o is not None and o.fleet_gpus == r.hardware.total_gpus <= free_gpus(32, 0.45) == 17
    assert o.gpus_bought == 0 and o.capex.high == 0
    # s21-costbasis21 (round 10, q18): the fleet's racks stay for its other work, so their colocation is said as
    # already paid and left out of the running cost (it used to be counted: colo_monthly > 0)
    assert o.colo_monthly is None and o.colo_already_paid is not None and o.colo_already_paid.low > 0
    # the plan's cost is the running cost of the fleet's GPUs, far below renting them or buying them
    assert r.costs.recommended_monthly == o.running_monthly
    assert r.costs.recommended_monthly.high < r.costs.cloud_on_demand_monthly.low
    assert r.timeline.launch_days_high <= 5  # nothing to procure
    f = r.finding("cost.fleet")
    assert f is not None and r.finding("cost.buy") is None  # not "bare metal pays off" on a purchase never made
    # misc32 (re-argued, review 20b q08): the free share is the cards' worth a measured utilisation leaves idle
    assert f"{o.fleet_gpus} of your 32 × NVIDIA H100" in f.title_in("en") and "about 17 cards' worth idle" in f.title_in("en")
    assert f"现有 32 张 NVIDIA H100 SXM5 80GB 中的 {o.fleet_gpus} 张" in f.title_in("zh_CN")
    memo = render_memo_markdown(r, "en")
    assert "Run it on the GPUs your team already owns, in colocation" in memo
    assert f"| Your fleet | {o.fleet_gpus} of your 32 × NVIDIA H100 SXM5 80GB (about 17 cards' worth idle at 45 % utilisation)" in memo
    assert "Buy your own" not in memo


@pytest.mark.parametrize("util", [0.2, 0.75, 0.9])
def test_the_measured_utilisation_decides_how_many_are_free(util):
    r = plan({**US_FLEET, "measured_utilisation": util})
    free = free_gpus(32, util)
    o = r.costs.owned if r.deployment_form != "hybrid" else r.costs.hybrid
    assert r.hardware.gpu == "h100-sxm-80g" and o is not None
    assert o.fleet_free == free and 0 < o.fleet_gpus <= free  # never more of the fleet than is free
    if r.hardware.total_gpus <= free:
        assert o.fleet_gpus == r.hardware.total_gpus and not o.gpus_bought and not o.gpus_burst
    else:  # the missing GPUs are bought (whole 8-GPU servers) or rented for the peak, never the fleet's busy ones
        assert (o.gpus_bought or 0) + o.gpus_burst >= r.hardware.total_gpus - o.fleet_gpus
        assert (o.gpus_bought or 0) % 8 == 0
    assert f"about {free} cards' worth idle" in r.finding("cost.fleet").title_in("en")  # misc32: not whole cards


def test_a_bursty_public_service_keeps_its_fleet_for_the_base_and_rents_the_peak():
    r = plan(L20_BURSTY)
    h = r.costs.hybrid
    assert r.feasible and r.deployment_form == "hybrid" and r.line == "bgp"
    assert r.hardware.gpu == "l20-48g" and h is not None
    # the base carries the steady load (peak ÷ the bursty factor) at what one replica takes within the target on
    # the plan's own curve; the burst carries the rest of the peak
    cap = r.capacity.max_concurrency_per_replica
    base = math.ceil(math.ceil(300 / PEAK_FACTOR["bursty"]) / cap) * r.hardware.tp
    assert h.fleet_gpus + (h.gpus_bought or 0) == base
    assert h.fleet_gpus <= free_gpus(16, 0.85)
    # the burst carries the rest of the peak, counted in the plan's GPU; rented on the part that carries that work for
    # least (s24-burst24: H20s here, fewer cards than the L20s they stand for)
    assert (h.burst_plan_gpus or h.gpus_burst) == r.hardware.total_gpus - base > 0
    assert h.gpus_burst <= (h.burst_plan_gpus or h.gpus_burst)
    assert h.burst_monthly is not None and h.burst_monthly.low > 0
    # cheaper than renting everything, and than owning for the peak (which would idle most hours)
    assert h.monthly.high < r.costs.cloud_on_demand_monthly.high
    assert "rents" in r.finding("cost.fleet").title_in("en") and r.finding("cost.hybrid") is None
    assert r.finding("scaling.prestage_weights") is not None


def test_an_ascend_fleet_is_used_and_keeps_its_per_model_support_check():
    r = plan(ASCEND)
    o = r.costs.owned
    assert r.feasible and r.deployment_form == "on_premises"  # its own machine room: no colocation
    assert r.hardware.gpu == "ascend-910b" and r.hardware.gpus_per_replica >= 4
    assert o.fleet_gpus == r.hardware.total_gpus and o.colo_monthly is None and not o.gpus_bought
    assert r.finding("gpu.domestic") is not None


def test_a_fleet_that_cannot_serve_the_model_is_not_used():
    # 24 GB consumer cards cannot hold a 70B model within a 50 ms TPOT: the plan goes elsewhere, nothing "used"
    r = plan({**US_FLEET, "current_fleet": {"gpu": "t4", "count": 64}, "measured_utilisation": 0.0})
    assert r.hardware.gpu != "t4"
    assert r.finding("cost.fleet") is None
    assert not (r.costs.owned and r.costs.owned.fleet_gpus) and not (r.costs.hybrid and r.costs.hybrid.fleet_gpus)
    fleet = r.finding("gpu.fleet")
    assert fleet is not None and "T4" in fleet.detail_in("en")


def test_a_fully_busy_fleet_is_not_used():
    r = plan({**US_FLEET, "measured_utilisation": 1.0})
    assert r.finding("cost.fleet") is None
    assert r.deployment_form != "bare_metal" or r.costs.owned is None or not r.costs.owned.fleet_gpus


def test_an_assumed_ttft_out_of_reach_is_raised_and_said_a_given_one_is_not():
    # no TTFT given: the assumed target for 32,000-token prompts (2 s + 0.5 s per 1,000 tokens over 2,000, capped at
    # 6 s, context.assumed_ttft_ms) is out of reach on the 910B, so the plan is sized for a step it reaches and says
    # so. (6,000-token prompts' 4 s is met on TP8 since the HCCS link is priced as such, s23: see the next test.)
    assumed = plan({**ASCEND, "prompt_tokens": {"avg": 10000, "p95": 32000}})
    a = next(x for x in assumed.assumptions if x.field == "latency_slo.ttft_p99_ms")
    # said as the team's choice (s20-owned20, q08: never relaxed silently), asked among the decision's questions
    assert a.key == "plan.owned20.assume.ttft_choice" and a.value > 6000 and a.params["default"] == 6000
    assert assumed.latency_curve.slo_ttft_p99_ms == a.value and assumed.feasible
    assert "6,000" in a.text_in("en")
    met = plan(ASCEND)  # the 4 s default for 6,000-token prompts: met on the fleet, not relaxed
    assert met.feasible and met.latency_curve.slo_ttft_p99_ms == 4000
    assert all(x.key != "plan.owned20.assume.ttft_choice" for x in met.assumptions)
    given = plan({**ASCEND, "prompt_tokens": {"avg": 10000, "p95": 32000},
                  "latency_slo": {"ttft_p99_ms": 6000, "tpot_p99_ms": 100}})
    assert not given.feasible and given.finding("sizing.slo_unmet") is not None  # the team's own target stands


# An office of 8 idle RTX 4090D, a 32B coding assistant for 12 developers at once on the office LAN (q33)
OFFICE_4090D = {
    "use_case": "interactive", "audience": "internal", "reach": "lan", "model": "qwen2.5-32b-instruct",
    "peak_concurrency": 12, "prompt_tokens": {"avg": 3000, "p95": 8000}, "output_tokens": {"avg": 300, "p95": 800},
    "quantization_acceptable": "yes", "user_location": "mainland", "mainland_carriers": "n/a",
    "mainland_entity": True, "data_sensitivity": {"level": "medium", "personal_info": False, "sector": "general"},
    "ops_capability": "basic", "expected_duration_months": 24, "load_pattern": "diurnal",
    "measured_utilisation": 0.1, "gpu_constraint": ["rtx-4090d"], "current_fleet": {"gpu": "rtx-4090d", "count": 8},
}  # fmt: skip


def test_idle_fleet_cards_give_the_plan_the_headroom_every_plan_is_sized_for():
    """q33: 4 of 8 idle 4090Ds at 0 % headroom. On the fleet, idle cards cost only their power: the plan uses as
    many as the engine's headroom rule (sizing.HEADROOM over the peak) asks, within the free ones, and the
    headroom the memo states is the one it has."""
    from advisor.plan.sizing import HEADROOM

    r = plan(OFFICE_4090D)
    hw, cap = r.hardware, r.capacity
    assert r.deployment_form == "on_premises" and hw.gpu == "rtx-4090d"
    free = free_gpus(8, 0.1) // hw.tp * hw.tp
    wanted = HEADROOM  # capacity ≥ peak × (1 + HEADROOM): the headroom shown is capacity ÷ peak − 1
    assert cap.headroom is not None
    assert cap.headroom >= wanted - 1e-9 or hw.total_gpus == free, (cap.headroom, hw.total_gpus)
    assert hw.total_gpus <= 8 and r.costs.owned is not None and r.costs.owned.gpus_bought == 0
    assert r.costs.owned.fleet_gpus == hw.total_gpus  # the running costs are those of every card the plan uses
    assert hw.layout is not None and hw.layout.fleet_used == hw.total_gpus  # "6 of your 8" is the 6 it lays out
    room = r.finding("sizing.plan").params["room"]
    assert room == round(cap.headroom * 100)


def test_the_fleet_rows_count_the_gpus_the_plan_lays_out(us_fleet):
    """q18: the hardware row read "16 of your 32 × H100; 14 × H100" (the fleet's count taken again after the layout
    moved the curve): the layout, the fleet row and the costed GPUs are one number."""
    hw, o = us_fleet.hardware, us_fleet.costs.owned
    assert hw.layout is not None and hw.layout.fleet_used == hw.total_gpus == o.fleet_gpus


# A securities firm's own data centre: 16 H20 and 16 L20, 30 % used; a 72B research assistant at FP8 (q04)
TWO_TYPES = {
    "use_case": "interactive", "audience": "internal", "reach": "private_network", "model": "qwen2.5-72b-instruct",
    "peak_concurrency": 40, "prompt_tokens": {"avg": 4000, "p95": 12000}, "output_tokens": {"avg": 600, "p95": 1500},
    "quantization_acceptable": "fp8_only", "user_location": "mainland", "mainland_carriers": "n/a",
    "mainland_entity": True, "data_sensitivity": {"level": "high", "personal_info": False, "sector": "finance"},
    "charges_users": False, "ops_capability": "strong", "expected_duration_months": 36, "load_pattern": "diurnal",
    "measured_utilisation": 0.3, "gpu_constraint": ["h20-96g", "l20-48g"],
    "current_fleet": {"gpu": "h20-96g", "count": 16, "others": [{"gpu": "l20-48g", "count": 16}]},
    # the 6,000 ms first-token target q04's plan once assumed, given: an assumed one met only on busy cards is now
    # relaxed to the free cards' step (s34-fleet36), and these tests read the layout that takes busy cards
    "latency_slo": {"ttft_p99_ms": 6000},
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_fleet_of_two_gpu_types_runs_on_the_one_that_fits_and_says_why_not_the_other(lang):
    """q04: the firm's L20s were ignored because the fleet held one GPU type. The fleet now lists every type; the
    plan runs on the type that meets the target and the fleet's finding says why the other is not used, with the
    sizing core's figures (the L20s hold 72B at FP8 but prefill of 12,000-token prompts misses the TTFT target)."""
    r = plan(TWO_TYPES)
    assert r.hardware.gpu == "h20-96g" and r.deployment_form in ("on_premises", "bare_metal")
    f = r.finding("gpu.fleet")
    assert f is not None
    text = f.detail_in(lang)
    assert "L20" in text and "H20" in text
    other = f.params["others"]["list"]
    # review 28 (q04): the first token, not memory, rules them out (4 cards hold 72B fp8; the fastest spans 8)
    assert [o["tr"] for o in other] == ["quote39_fleet.misses_ttft"] and other[0]["count"] == 16
    assert other[0]["fit"] < other[0]["tp"]
    assert float(other[0]["ttft"].replace(",", "")) > 6000  # its best TTFT, above the assumed 6 s target
    assert f.title_in(lang) in render_memo_markdown(r, lang)
    # the answers in the memo name both types
    assert "16 × NVIDIA H20 96GB" in render_memo_markdown(r, lang) and "16 × NVIDIA L20 48GB" in \
        render_memo_markdown(r, lang)


def test_a_fleet_type_that_cannot_hold_the_model_is_said_so_and_old_answers_stay_valid():
    from advisor.plan import AnswersError

    t4 = {**TWO_TYPES, "gpu_constraint": None, "quantization_acceptable": "no",
          "current_fleet": {"gpu": "h20-96g", "count": 16, "others": [{"gpu": "t4", "count": 8}]}}  # fmt: skip
    r = plan(t4)
    other = r.finding("gpu.fleet").params["others"]["list"]
    assert [o["tr"] for o in other] == ["plan.fleet14.no_fit"] and "fp16" in other[0]["formats"]
    assert "cannot hold the model" in r.finding("gpu.fleet").detail_in("en")
    # one type, as before: valid, and the finding has nothing more to say
    one = plan({**TWO_TYPES, "current_fleet": {"gpu": "h20-96g", "count": 16}})
    assert one.hardware.gpu == "h20-96g" and one.finding("gpu.fleet").params["others"] == ""
    # a type listed twice is refused on its field, in words
    with pytest.raises(AnswersError) as err:
        plan({**TWO_TYPES, "current_fleet": {"gpu": "h20-96g", "count": 8, "others": [{"gpu": "h20-96g", "count": 8}]}})
    assert any(where.startswith("current_fleet") and "twice" in msg for where, msg in err.value.problems)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_fleet_short_by_a_few_cards_moves_their_work_onto_its_idle_other_type(lang):
    """q04: the plan needs 12 H20 in groups of 4 and 11 of the 16 are free; it bought a whole 8-GPU server for the
    one missing (blind reviewers, both rounds: "buys hardware it does not need"). The firm's 16 L20 are idle at
    30 %: the plan takes the 12th H20 by moving its current work onto them, and buys nothing. s24-redund24 made
    the move the load needs also give a spare replica (16 H20, the work of 5 moved); blind review 16 sent that back
    ("moving 5 cards of existing work onto the L20s, whose own load is unknown"): re-argued in s26-fleet26, the plan
    takes the 12 the peak needs, the work of 1 moved, and recommends the fourth replica with its condition.
    Re-argued in s33-fleet33 (blind review 21, q04 en and zh: "the 4-replica/16-card layout should be the headline,
    not an add-on ... moving 30 % of the load onto the L20s is plausible but needs the owners' sign-off"): the 4th
    replica is in the plan, the work of all 5 moved, with that sign-off said as its condition (and still nothing
    bought)."""
    r = plan(TWO_TYPES)
    o = r.costs.owned
    assert o is not None and not o.gpus_bought and o.fleet_free == free_gpus(16, 0.3) == 11
    assert r.hardware.total_gpus == 16 and o.fleet_moved == 5 and r.hardware.layout.spare_units == 1
    more = r.finding("cost.fleet").params["more"]
    assert more["tr"] == "plan.fleet14.moved" and more["n"] == 5 and more["other"] == "NVIDIA L20 48GB"
    assert r.finding("sizing.redundancy").title_key.endswith(".idle_signoff.title")
    memo = render_memo_markdown(r, lang)
    assert r.finding("cost.fleet").title_in(lang) in memo and "L20" in r.finding("cost.fleet").title_in(lang)
    row = next(line for line in memo.splitlines() if line.startswith(("| One-off purchase", "| 一次性采购")))
    assert "894" not in row  # no server bought


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_one_type_short_by_less_than_a_server_frees_the_few_first_and_buys_only_as_the_alternative(lang):
    """With no other type to take the work, the purchase stays, and freeing the missing few from current work is
    said first (s14-fleetq)."""
    r = plan({**TWO_TYPES, "current_fleet": {"gpu": "h20-96g", "count": 16}})
    o = r.costs.owned
    assert o is not None and o.gpus_bought and o.fleet_free == 11 and o.fleet_moved == 0
    short = r.hardware.total_gpus - 11
    assert 0 < short < o.gpus_bought
    more = r.finding("cost.fleet").params["more"]
    assert more["tr"] == "plan.fleetq.more.free_first" and more["short"] == short and more["move"] == ""
    memo = render_memo_markdown(r, lang)
    row = next(line for line in memo.splitlines() if line.startswith(("| One-off purchase", "| 一次性采购")))
    assert row.index("1 more" if lang == "en" else "腾出 1 张") < row.index(f"{o.capex.low:,.0f}")


def test_a_fleet_short_by_a_whole_purchase_unit_just_buys():
    """The freeing option is only for a shortfall smaller than the purchase (q18's fleet has room: nothing
    bought, no option said)."""
    r = plan(US_FLEET)
    assert r.finding("cost.fleet").params["more"]["tr"] != "plan.fleetq.more.free_first"


def _chain(phrase: dict) -> list[dict]:
    out = [phrase]
    while out[-1].get("more"):
        out.append(out[-1]["more"]["next"])
    return out


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_tensor_parallel_over_pcie_says_why_one_card_per_replica_was_not_chosen(lang):
    """q33: 4-bit accepted on idle 24 GB cards, and the plan runs TP2 over PCIe. An engineer runs AWQ int4 on one
    card per replica; the sizing core says it misses (KV room under one request's context), and the memo says so
    with those figures. s22-cleanup22b: it also said "the p95 prompt of 8,000 tokens would take 5,554 ms to its first
    token on one card", the screen's analytic estimate: a card that cannot hold one request is not run on the
    predictor, so no latency is said for it (a figure the plan never checked)."""
    from advisor.plan.context import resolve

    r = plan(OFFICE_4090D)
    assert r.hardware.gpu == "rtx-4090d" and r.hardware.tp > 1
    f = r.finding("gpu.pcie_tp")
    why = f.params["one"]["why"]
    assert why["weights"] == "awq-int4"  # the most compact format the answers allow
    reasons = {p["tr"]: p for p in _chain(why["reasons"])}
    ctx = resolve(answers_from_dict(OFFICE_4090D))
    kv = reasons["plan.fleetq.one.kv"]
    assert kv["kv"] < kv["context"] == ctx.max_context
    assert list(reasons) == ["plan.fleetq.one.kv"]
    text = f.detail_in(lang)
    assert f"{kv['kv']:,}" in text and "awq-int4" in text and "5,554" not in text
    assert text in render_memo_markdown(r, lang)


def test_one_card_that_misses_on_the_predictor_says_the_predictors_figure():
    """q33 at a 2,000-token context (one card then holds a request): the first-token clause, where one is said,
    is the predictor's P99 for one request on one card, and past the target."""
    from advisor.plan import one_request, sizing
    from advisor.plan.context import resolve
    from advisor.plan.data import gpus_by_id
    from advisor.plan.one_gpu import why_not_one

    answers = {**OFFICE_4090D, "prompt_tokens": {"avg": 1500, "p95": 1800}, "latency_slo": {"ttft_p99_ms": 300}}
    ctx = resolve(answers_from_dict(answers))
    gpu = gpus_by_id()["rtx-4090d"]
    why = why_not_one(ctx, gpu)
    assert why is not None
    reasons = {p["tr"]: p for p in _chain(why["reasons"])}
    weights, kv = sizing.allowed_formats(ctx, gpu)[-1]
    one = one_request.setup(ctx, gpu, weights, kv, 1)
    assert one is not None
    ttft = sizing.levels_at(ctx, one, [1])[0].ttft_ms.p99
    assert ttft > 300 and reasons["cleanup22b.one.ttft"]["value"] == f"{ttft:,.0f}"


def test_one_card_that_meets_the_target_gives_no_reason():
    """A 7B model in 4-bit fits one 24 GB card and meets the target: nothing to explain."""
    from advisor.plan.context import resolve
    from advisor.plan.data import gpus_by_id
    from advisor.plan.one_gpu import why_not_one

    small = {**OFFICE_4090D, "model": "qwen2.5-7b-instruct", "prompt_tokens": {"avg": 1000, "p95": 2000}}
    assert why_not_one(resolve(answers_from_dict(small)), gpus_by_id()["rtx-4090d"]) is None
    assert why_not_one(resolve(answers_from_dict(OFFICE_4090D)), gpus_by_id()["rtx-4090d"]) is not None


def test_the_fleet_finding_agrees_that_the_busy_card_moves_rather_than_a_purchase():
    """Its text said "so 4 more of the same are bought or rented" beside "nothing to buy" (recheck of q04)."""
    r = plan(TWO_TYPES)
    why = r.finding("gpu.fleet").params["why"]
    # s25-consist25 (round 14, q04: "a fleet-average 30 % does not mean 11 whole cards are free"): the same sentence
    # with the assumption behind the free count said after it
    # the load's 1 (s26-fleet26: no spare on busy cards), with whether the moved work fits the L20s' 48 GB asked
    # s33-fleet33: with the 4th replica on its owners' sign-off (blind review 21), the work of all 5 busy ones moves
    assert why["tr"] == "consist25.fleet.same_moved" and why["moved"] == 5
    assert why["fits"]["other_mem"] == 48 and why["fits"]["mem"] == 96
    assert "bought or rented" not in r.finding("gpu.fleet").detail_in("en")
