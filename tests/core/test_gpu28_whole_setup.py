"""Session 28 (gpu28), review 17b on the GPU choice and the owned fleet.

1. q42/q19: "Why this GPU" said the H20 setup costs 24 % more an hour; the rule that chose it weighed one replica
   laid out alone (44 a replica for q42) while the memo stated the plan's claim, stopped at its share (28): "56
   against 48 requests for 24 % more" asked why pay it. The rule and the memo now rest on one figure (each setup as
   laid out, searched to the whole peak with its headroom), the setup chosen claims as much, and one sentence says
   what the premium buys: what each whole setup carries (the spare out of the load, in the cost), as a multiple
   of the peak, and each setup's hour per request carried.
2. q04: the sizing reason was one overlong sentence with "buy 8 more to stay within the knee" beside a plan that
   meets the target; section 7 argued from the 355 → 315 tokens/s dip section 3 reads as a short sample's; the
   L20s taking the H20s' other work had their own load unchecked.
3. q08: the serve command's cap (12) was the sizing share where one replica meets the target up to 17, and the
   memo said the three replicas keep 24 of the 30 with one down.
"""

from __future__ import annotations

import pytest

from advisor.plan import capacity, decode_pick, fleet, fleet_move_fits
from advisor.plan.memo import render_memo_markdown
from tests.support.former_l20_rent import former_rents_plan
from tests.support.planned import Q04_GIVEN, advice_answers, advice_plan, only_finding, planned

LANGS = ("en", "zh_CN")
Q04, Q08 = "q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal"


def _q04_full():
    """q04's H20s alone at 25 % (4 cards' worth of other work, no idle L20s to take it): the plan keeps 3 replicas
    on the 12 free, past the knee, and weighs the options. s33-fleet33: q04 itself now runs 4 replicas, the 4th on
    its owners' sign-off (blind review 21: "the 4-replica/16-card layout should be the headline"), at the knee, so
    it has no past-the-knee choice (and no purchase option: "remove it")."""
    a = {**advice_answers(Q04), **Q04_GIVEN}
    return planned({**a, "measured_utilisation": 0.25, "current_fleet": {"gpu": "h20-96g", "count": 16}})


def _q08_busier():
    """q08 at 25 % (4 cards' worth of other work): 3 replicas, the 4th recommended (s33-fleet33: at 20 % it is in
    the plan on its owners' sign-off)."""
    return planned({**advice_answers(Q08), "measured_utilisation": 0.25})
Q19, Q42 = "q19_export_controlled_h100_mainland", "q42_china_market_gpus_mainland"


# --- 1. the whole setup -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [Q19, Q42])
def test_the_premium_rests_on_the_figures_the_plan_states(name):
    """The chosen replica's figure in "Why this GPU" is the plan's own claim and the serve command's cap; what the
    setup carries is that figure × the replicas that serve (the spare left out)."""
    # s29-prices29: at Alibaba's sourced L20 rent q42/q19 take the H20 on cost with no decode premium
    # (test_gpu21_choice); the premium is tested on the former placeholder rents, given as quotes
    r = former_rents_plan(name)
    d = r.gpu_choice.decode_pick
    assert d["per"] == r.capacity.max_concurrency_per_replica == r.hardware.max_num_seqs
    serving = r.hardware.replicas - r.hardware.layout.spare_units
    assert d["carried"] == d["per"] * serving
    # the cap is a level the latency table shows within the target
    shown = {p.concurrency: p for p in r.latency_curve.points}
    assert shown[d["per"]].tpot_p99_ms <= r.latency_curve.slo_tpot_p99_ms
    assert shown[d["per"]].ttft_p99_ms <= r.latency_curve.slo_ttft_p99_ms


@pytest.mark.parametrize("name", [Q19, Q42])
def test_the_chosen_setup_carries_more_per_unit_of_price_counting_the_spare(name):
    """The rule's own condition, on whole setups: the chosen one's hour over what it carries is the lower, and it
    costs at most the premium more."""
    # s29-prices29: at Alibaba's sourced L20 rent q42/q19 take the H20 on cost with no decode premium
    # (test_gpu21_choice); the premium is tested on the former placeholder rents, given as quotes
    r = former_rents_plan(name)
    g = r.gpu_choice
    d = g.decode_pick
    mine, theirs = g.request_hours()
    assert mine < theirs
    assert mine == pytest.approx(g.chosen.per_hour / d["carried"])
    assert theirs == pytest.approx(d["other"]["per_hour"] / d["other_carried"])
    assert g.chosen.per_hour <= d["other"]["per_hour"] * (1 + decode_pick.premium()) + 0.01


@pytest.mark.parametrize("lang", LANGS)
def test_q42_says_what_the_premium_buys_in_one_sentence(lang):
    # s29-prices29: at Alibaba's sourced L20 rent q42/q19 take the H20 on cost with no decode premium
    # (test_gpu21_choice); the premium is tested on the former placeholder rents, given as quotes
    r = former_rents_plan(Q42)
    g = r.gpu_choice
    d = g.decode_pick
    text = g.text_in(lang)
    mine, theirs = g.request_hours()
    start = text.index("In all it costs" if lang == "en" else "整套每小时比")
    end = text.index(". ", start) if lang == "en" else text.index("。", start)
    sentence = text[start:end]
    for figure in (f"{d['more_pct']}", f"{d['carried']}", f"{d['other_carried']}", f"{d['carried'] / 40:.1f}",
                   f"{d['other_carried'] / 40:.1f}", f"{mine:,.2f}", f"{theirs:,.2f}"):
        assert figure in sentence, (figure, sentence)


def test_only_a_decode_pick_searches_the_claim_to_the_whole_peak():
    """Where ``decode_pick`` chose the GPU, the claim is searched to the peak with its headroom; elsewhere it stops
    at the load the sizing asks of each replica (one predictor run a level)."""
    class _C:
        peak, is_batch = 40, False

    class _K:
        notes: list[str] = []

    picked = _K()
    picked.notes = [f"{decode_pick.NOTE}:l20-48g:1:fp8:4:1:fp8"]
    assert capacity._decode_pick_need(_C(), picked) == capacity.headroom_target(_C()) == 48
    assert capacity._decode_pick_need(_C(), _K()) == 0


def test_the_fleet_basis_is_one_name():
    assert capacity.FLEET_BASIS == fleet.FLEET_BASIS


# --- 2. q04 -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_q04_reason_is_short_and_offers_no_purchase(lang):
    # re-argued in s33-fleet33 (blind review 21, q04: "Option (3), buying an 8-GPU H20 server for ~¥1M 'only for
    # faster tokens', does not belong in a memo whose fleet suffices; remove it"): with the 4th replica in the plan
    # each runs at the knee, so there is no past-the-knee choice at all and nothing to buy anywhere in the memo
    r = advice_plan(Q04, **Q04_GIVEN)
    assert not any(x.title_key == "plan.owned20.knee.room.title" for x in r.findings)
    memo = render_memo_markdown(r, lang)
    assert ("8-GPU server to buy" not in memo and "8 more than you own" not in memo) if lang == "en" else \
        ("采购 1 台" not in memo and "再买" not in memo)
    # the variant where the plan stays past the knee keeps the two-sentence reason
    title = next(x for x in _q04_full().findings if x.title_key == "plan.owned20.knee.room.title").title_in(lang)
    assert title.count(". " if lang == "en" else "。") <= 1


@pytest.mark.parametrize("lang", LANGS)
def test_q04_throughput_past_the_knee_is_read_as_flat_in_both_sections(lang):
    r = _q04_full()
    pts = {p.concurrency: p for p in r.latency_curve.points}
    f = next(x for x in r.findings if x.title_key == "plan.owned20.knee.room.title")
    o = f.params["options"]
    lo, hi = sorted((o["tput"], o["tput_knee"]))
    detail = f.detail_in(lang)
    assert f"{lo:,.0f}–{hi:,.0f}" in detail
    assert "fewer tokens a second" not in detail and "反而减少" not in detail
    # the figures are the table's
    assert {round(pts[o["per"]].output_tokens_per_s, 1), round(pts[o["knee"]].output_tokens_per_s, 1)} == {lo, hi}


@pytest.mark.parametrize("lang", LANGS)
def test_q04_purchase_says_what_it_would_buy(lang):
    r = _q04_full()
    f = next(x for x in r.findings if x.title_key == "plan.owned20.knee.room.title")
    buy = f.params["options"]["buy"]
    assert buy["tpot_knee"] < buy["tpot"] <= r.latency_curve.slo_tpot_p99_ms  # faster tokens, not the target
    detail = f.detail_in(lang)
    assert f"{buy['tpot_knee']:g}" in detail and ("no target needs it" in detail if lang == "en" else "没有哪个目标需要" in detail)


@pytest.mark.parametrize("lang", LANGS)
def test_q04_checks_the_l20s_own_load(lang):
    r = advice_plan(Q04, **Q04_GIVEN)
    why = only_finding(r, "gpu.fleet").params["why"]
    load = why["fits"]
    # 30 % of 16 L20: 11 free; the 5 busy H20s' work needs at most 2 L20 each (96 against 48 GB)
    assert (load["free"], load["count"], load["busy"], load["need"], load["mem"], load["other_mem"]) == \
        (11, 16, 5, 10, 96, 48)
    assert load["tr"] == "gpu28.fleet.their_load"
    text = only_finding(r, "gpu.fleet").detail_in(lang)
    # the 10 said as what it is, 2 L20 a busy card for its memory (review 23, q04: "at most 10" read as a third count)
    assert load["ratio"] == 2
    assert ("11 of 16 free, enough for the 5 busy cards' work even where each needs 2 NVIDIA L20 48GB for its memory "
            "(10 cards)" in text) if lang == "en" else ("16 张中空闲 11 张；即使按显存每张在用的卡上的工作要 2 张" in text)


def test_receiving_cards_too_busy_are_said_short(monkeypatch):
    """The other way: where the receiving cards' free count is below what the moved work may need, said so."""
    ctx = type("C", (), {"utilisation": 0.3})()
    monkeypatch.setattr(fleet_move_fits.gpu_choice, "fleets", lambda c: [("h20-96g", 16), ("l20-48g", 8)])
    load = fleet_move_fits._their_load(ctx, "h20-96g", "l20-48g", 96, 48)
    assert isinstance(load, dict)
    assert load["free"] == 5 and load["need"] == 10 and load["tr"] == "gpu28.fleet.their_load_short"


# --- 3. q08 -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_q08_cap_reaches_the_one_down_load_and_the_memo_says_the_peak_is_kept(lang):
    r = _q08_busier()
    cap = r.hardware.max_num_seqs
    one_down = -(-r.answers["peak_concurrency"] // (r.hardware.replicas - 1))
    assert cap >= one_down == 15
    shown = {p.concurrency: p for p in r.latency_curve.points}
    assert shown[cap].tpot_p99_ms <= r.latency_curve.slo_tpot_p99_ms  # the cap is a level within the target
    memo = render_memo_markdown(r, lang)
    assert f"--max-num-seqs {cap}" in memo
    # misc32 (re-argued, review 20b q08: "one down" read as one server beside "one server down leaves 1 of 3"): the
    # clause names one replica, not a whole server
    assert ("carry the peak with one replica down, not a whole server (15 each on the other 2" in memo
            and "keep 24 of the 30" not in memo) \
        if lang == "en" else "坏一个（不是整台服务器宕机）时仍能承载峰值（其余 2 个每个承担 15 个请求" in memo
