"""A replica split over PCIe says why one card a replica was not taken (s20-gpu20, issue #25; ninth blind review q13:
"TP2 over PCIe on L4 pairs for a 14B model; one L40S per replica is simpler for about 40 % more").

The single-card preference (``single_card.prefer``, q38) was weighed for q13 and its limit decided: 2 × L40S cost
39 % more than 4 × L4, past the 25 % the plan pays for one card per replica. The memo now says so, with both setups
and the limit; within the limit the single card is the plan and this clause never shows.

s39-sgp (issue #25): since Google Cloud's L4 is priced on the VM that holds the replica (g2-standard-24 for a pair,
dearer a GPU than g2-standard-4), q13 takes one L4 a replica on Singapore's own rows and no pair is left to decline;
the rules here are read on q13 with Singapore's L4 priced by the card (``l4_by_card``), as they were written."""

from __future__ import annotations

from advisor.plan import answers_from_dict, make_plan, single_card
from advisor.plan.data import gpus_by_id
from tests.support.l4_by_card import l4_by_card, planned_by_card
from tests.support.planned import advice_answers, planned

Q13 = "q13_sg_sellers_pi_below_threshold"


def _q13_with_l40s_at(factor: float):
    """q13 with a quote for the single card at ``factor`` × the L4 pair's hourly cost (s21-gpu21b: on list prices q13
    now takes one L40S a replica, its L4 pair running at 92 ms of 100 P99 TPOT with one replica down —
    ``latency_pick`` —, so the clause this file protects is read where the single card costs more than that rule
    pays too)."""
    base = planned_by_card(advice_answers(Q13))
    fast = base.gpu_choice.latency_pick
    assert fast is not None, "on list prices the L40S is chosen for the failover margin"
    pair = fast["other"]["per_hour"]
    per_card = pair * factor / base.gpu_choice.chosen.gpus
    with l4_by_card():
        return make_plan(answers_from_dict(advice_answers(Q13)), quotes=[
            {"gpu": base.hardware.gpu, "kind": "on_demand", "low": per_card, "high": per_card}])  # fmt: skip


def test_q13s_pcie_pair_says_the_single_card_cost_past_the_limit():
    from advisor.plan import latency_pick

    r = _q13_with_l40s_at(1 + latency_pick.premium() + 0.08)  # past both premiums: the pair stays
    hw, gc = r.hardware, r.gpu_choice
    assert hw is not None and gc is not None
    assert hw.tp > 1 and gpus_by_id()[hw.gpu].interconnect != "nvlink"  # a replica split over PCIe cards
    d = gc.single_card_declined
    assert d is not None and gc.single_card is None and gc.latency_pick is None
    other = d["other"]
    assert other["gpu"] != hw.gpu
    # the premium as the figures give it, past the limit the preference allows
    more = (other["per_hour"] / gc.chosen.per_hour - 1) * 100
    assert abs(d["more_pct"] - more) <= 1 and d["more_pct"] > d["limit_pct"] == round(single_card.premium() * 100)
    # the same setup the option list and the dearer clause name (one size for one GPU)
    listed = next(a for a in gc.alternatives if a.gpu == other["gpu"])
    assert (listed.gpus, listed.per_hour) == (other["gpus"], other["per_hour"])
    en, zh = gc.text_in("en"), gc.text_in("zh_CN")
    assert f"costs {d['more_pct']} % more: the plan takes one card per replica only when it costs at most " \
           f"{d['limit_pct']} % more" in en
    assert f"贵 {d['more_pct']}%：本方案只在单卡方案最多贵 {d['limit_pct']}% 时才选它" in zh


def test_within_the_limit_the_single_card_is_the_plan_and_the_clause_is_gone():
    """A quote that brings the L40S within the premium of the L4 pair: one card per replica is chosen."""
    quoted = _q13_with_l40s_at((1 + single_card.premium()) * 0.95)
    d = quoted.gpu_choice.single_card
    assert quoted.hardware.tp == 1 and d is not None and d["other"]["gpu"] != quoted.hardware.gpu
    assert quoted.gpu_choice.single_card_declined is None


def test_a_single_card_plan_never_carries_the_clause():
    r = planned(advice_answers("q38_eu_internal_hr_assistant"))
    assert r.hardware.gpus_per_replica == 1 and r.gpu_choice.single_card_declined is None


def test_a_line_host_stand_in_on_the_regions_own_cloud_rows_says_the_line_can_be_bought_apart():
    """q13: Google Cloud's Singapore L4 rows stand in for a host selling GPU servers on a three-network line; the memo
    also says the plan can keep those cloud GPUs and buy the line separately, outside the cost total. A stand-in made
    of another region's rows times an uplift (q22's Hong Kong CN2 GIA node) names no GPUs rentable there, so no.
    s21-gpu21b: on list prices q13 now takes one L40S a replica, priced from US rows times Singapore's uplift (no
    Singapore row): the clause rightly goes, as q22's; the L4 pair on Google Cloud's Singapore rows is read where a
    quote puts the L40S past what the failover rule pays."""
    from advisor.plan import latency_pick
    from advisor.plan.memo import render_memo_markdown

    listed = planned_by_card(advice_answers(Q13))
    assert listed.costs.region_uplift is not None
    assert "buy the line separately" not in render_memo_markdown(listed, "en")
    r = _q13_with_l40s_at(1 + latency_pick.premium() + 0.08)
    assert r.line == "three_network" and r.region == "singapore"
    assert {p.region for p in r.costs.prices if p.kind == "on_demand" and p.gpu == r.hardware.gpu} == {"singapore"}
    en, zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    # s36-lines (review 27, q13): Singapore's three-network line is priced at Hong Kong's rate, a labelled stand-in, so
    # the clause says the total prices it (the unpriced wording, "not in this total", is for a line no row prices)
    assert r.line_cost is not None and r.line_cost.monthly is not None and r.line_cost.stand_in_from == "hong_kong"
    assert "Or rent these cloud GPUs and buy the line separately" in en and "the cost row's total with the line" in en
    assert "not in this total" not in en
    assert "也可以租用这些云 GPU，另行购买线路" in zh
    hk = planned(advice_answers("q22_hk_company_telecom_only"))
    assert hk.costs.region_uplift is not None  # US rows times Hong Kong's uplift
    assert "buy the line separately" not in render_memo_markdown(hk, "en")
