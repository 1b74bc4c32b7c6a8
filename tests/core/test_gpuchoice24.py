"""Round 13 of the blind review (issue 25, s24-gpuchoice24).

- q17/q01: the GPU to BUY was ranked on rental rows (4090 D 3.49 against L20 8.03 CNY/h) though the plan is a
  purchase: a setup laid out to buy is ranked on the one-off budget, on FP8 where the answers accept it, then on its
  purchase price (``purchase_rank``); a rented setup keeps its hourly cost.
- q10: a reviewer read the H800's 1,979 FP8 TFLOPS as the sparse figure beside the H20's and L20's dense ones: every
  catalogue row holds dense figures (NVIDIA prints the H100/H800 SXM at 3,958 FP8 TFLOPS with sparsity, 1,979
  dense), and the memo says "dense" beside them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, chat_speed37, engine, fp8_gain, price_rows, purchase_rank
from advisor.plan import gpu_choice as gchoice
from advisor.plan.context import resolve
from advisor.plan.data import PriceBook, gpus_by_id
from advisor.plan.prefill_stretch import note
from advisor.plan.region_decide import decide_region
from advisor.plan.result import BindingConstraint
from advisor.resources import load_json
from tests.support.former_l20_rent import former_rents_plan

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

SCENARIOS = Path(__file__).parents[2] / "bench" / "advice_scenarios"


def _answers(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))["answers"]


def _owned_ranked(answers: dict):
    """The setups to buy as ``gpu_choice.for_owning`` ranks them, with the context, region and price book."""
    c = resolve(answers_from_dict(answers))
    book = price_rows.eligible_book(PriceBook.build(None), c)
    region, _ = decide_region(c)
    _, ok, _ = engine._screen(c, region, book, float(book.fx()["cny_per_usd"]))
    _, owned = gchoice.for_owning(c, region, ok[0], ok, book, lambda k: True)
    return c, region, book, owned


# --- the catalogue's TFLOPS are dense, all of them ---------------------------------------------------------------
def test_every_fp8_figure_is_the_dense_twice_bf16_of_its_row():
    """Hopper, Ada and Blackwell run FP8 at twice their BF16 rate, dense or sparse alike: a row whose FP8 figure is
    four times its BF16 one mixes a sparse FP8 figure with a dense BF16 one (the H800 the reviewer suspected)."""
    checked = 0
    for g in load_json("gpus", "catalog.json"):
        fp8, bf16 = g.get("fp8_tflops_dense"), g.get("bf16_tflops_dense")
        if fp8 and bf16:
            checked += 1
            assert fp8 / bf16 == pytest.approx(2.0, rel=0.05), g["id"]  # L40S: 733 / 362.05 as printed
    assert checked >= 10


def test_the_h800_has_the_h100_sxm_dense_figures_not_the_sparse_ones():
    """NVIDIA's datasheet: H100 SXM FP8 3,958 TFLOPS with sparsity, 1,979 dense; the H800 keeps its tensor rate."""
    g = gpus_by_id()
    assert g["h800-sxm-80g"].fp8_tflops_dense == g["h100-sxm-80g"].fp8_tflops_dense == pytest.approx(3958 / 2, abs=1)
    assert g["h800-sxm-80g"].fp8_tflops_dense < 10 * g["h20-96g"].fp8_tflops_dense  # sparse would read ≈ 13 ×


def test_the_memo_says_dense_beside_the_tflops_it_compares():
    r = engine.plan(answers_from_dict(_answers("q10_128k_document_assistant")), check_fixes=False)
    assert r.gpu_choice is not None
    en, zh = r.gpu_choice.text_in("en"), r.gpu_choice.text_in("zh_CN")
    assert "TFLOPS" in en and "TFLOPS" in zh
    assert "dense TFLOPS" in en and "稠密" in zh


# --- a purchase ranked on what is bought ----------------------------------------------------------------------
def test_a_rented_setup_keeps_its_hourly_cost_in_the_key():
    c, region, book, owned = _owned_ranked(_answers("q01_office_lan_capex_contracts"))
    k = gchoice._copy(owned[0])
    gchoice.apply_layout(c, region, k, book, owned=False)
    assert purchase_rank.key(c, k, book, 1.25) == (0, 0, 0, 1.25)


@pytest.mark.parametrize("name", ["q01_office_lan_capex_contracts", "q17_capex_only_university_lab"])
def test_setups_to_buy_follow_the_budget_fp8_then_the_purchase_price(name):
    """Within one standing (the tiers before cost), the setups to buy come in order of the one-off budget, of FP8
    where accepted, then of their purchase price, whatever the rental rows say."""
    c, region, book, owned = _owned_ranked(_answers(name))
    assert all(k.layout is not None and k.layout.owned for k in owned)
    rank = gchoice.rank_key(c, region, book)
    keys = [rank(k) for k in owned]
    # ``_single_first`` may move one card a replica ahead within its premium: compare the sorted keys themselves
    ordered = sorted(keys)
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a[:6] == b[:6] and a[6:9] == b[6:9]:
            assert a[9] <= b[9]  # the purchase mid, USD
    budget = purchase_rank.one_off_budget_usd(c, book)
    for k in owned:
        price = purchase_rank.purchase_usd(book, k)
        over, short, unpriced, cost = purchase_rank.key(c, k, book, gchoice.hourly(k))
        assert unpriced == (price is None)
        if price is not None:
            assert cost == pytest.approx((price[0] + price[1]) / 2, rel=1e-6)
            # gpu26: over only at the high end of a stand-in price whose middle fits is no verdict (the quote decides)
            assert over == int(budget is not None and price[1] > budget
                               and not purchase_rank.stand_in_straddle(c, k, book))
        assert short == int(c.quant != "no" and not k.gpu.fp8_tflops_dense)


def test_a_purchase_without_a_one_off_budget_keeps_the_hourly_yardstick():
    """q26/q31 buy on a monthly budget: their month (purchase spread, power, space) is weighed against renting, so the
    rental rows stay the yardstick; the purchase rows alone bought 88 × A10 for 24 × H20 in q26."""
    c, region, book, owned = _owned_ranked(_answers("q31_icp_filed_hosting_move"))
    assert purchase_rank.one_off_budget_usd(c, book) is None
    assert all(purchase_rank.key(c, k, book, gchoice.hourly(k)) == (0, 0, 0, round(gchoice.hourly(k), 6))
               for k in owned)


def test_a_purchase_ranks_the_fp8_card_before_a_cheaper_one_without_fp8():
    """q01 (FP8 accepted, a one-off budget that covers both): the A10 costs less to buy than the L20 but has no FP8;
    the L20 comes first among the setups to buy, the A10 after every setup on a part with FP8."""
    c, region, book, owned = _owned_ranked(_answers("q01_office_lan_capex_contracts"))
    ids = [k.gpu.id for k in owned]
    assert "a10" in ids and "l20-48g" in ids
    a10 = next(k for k in owned if k.gpu.id == "a10")
    l20 = next(k for k in owned if k.gpu.id == "l20-48g")
    assert purchase_rank.purchase_usd(book, a10)[1] < purchase_rank.purchase_usd(book, l20)[0]  # the A10 is cheaper
    assert ids.index("l20-48g") < ids.index("a10")
    assert all(k.gpu.fp8_tflops_dense for k in owned[:ids.index("a10")])


def test_a_setup_over_the_one_off_budget_comes_after_one_within_it():
    """q17: a setup whose purchase breaks the ¥400,000 grant (on a sourced price, or with its stand-in's middle over
    it) ranks after a data-centre setup within it. Re-argued in session 26 (gpu26, blind review 15): 4 × L20
    (¥340,000–460,000, a stand-in whose middle fits) broke the grant only at a placeholder's high end, which never
    decides alone: it ranks as within, is bought in FP8, and the A10s are named as the buy if its quote is over."""
    ans = _answers("q17_capex_only_university_lab")
    c, region, book, owned = _owned_ranked(ans)
    budget = purchase_rank.one_off_budget_usd(c, book)
    priced = [(k, p) for k in owned if (p := purchase_rank.purchase_usd(book, k)) is not None]
    straddle = [k for k, p in priced if purchase_rank.stand_in_straddle(c, k, book)]
    within = [k for k, p in priced if p[1] <= budget or k in straddle]
    over = [k for k, p in priced if k not in within]
    rank = gchoice.rank_key(c, region, book)
    assert within and over and straddle
    assert all(k.gpu.id == "l20-48g" for k in straddle)
    for k in within:
        if gchoice.tiers(c, region, k, book).grade == 0:  # a data-centre part within the grant
            assert all(rank(k) < rank(o) for o in over)
    r = engine.plan(answers_from_dict(ans), check_fixes=False)
    assert r.hardware.gpu == "l20-48g" and r.hardware.weights == "fp8"
    assert r.gpu_choice is not None and r.gpu_choice.grant is not None and r.gpu_choice.grant["fp8"]
    assert r.gpu_choice.grant["fallback"] and r.gpu_choice.grant["gpu_name"] == "NVIDIA A10 24GB"


# --- the binding sentence on a mostly-prefill load ------------------------------------------------------------
def test_a_per_token_limit_on_a_mostly_prefill_load_opens_on_prefill_compute():
    """q04 (round 13): "Decode bandwidth decides" beside the cost table's 74 % prefill read as a contradiction; the
    sentence now names prefill compute as the limit, with the same share as the cost table, in both languages."""
    r = engine.plan(answers_from_dict(_answers("q04_securities_h20_l20_fleet")), check_fixes=False)
    b, share = r.binding_constraint, r.costs.prefill_gpu_share
    assert b is not None and share is not None and share >= 0.5
    assert b.kind == "decode_bandwidth" and b.variant.endswith("prefill")
    en, zh = b.text_in("en"), b.text_in("zh_CN")
    assert en.startswith("Prefill compute decides") and "Decode bandwidth decides" not in en
    assert zh.startswith("预填充算力决定") and f"{round(share * 100)} %" in en


def test_a_mostly_decode_load_keeps_the_decode_sentence():
    bc = BindingConstraint(kind="decode_bandwidth", figures={"at": 5, "tpot_ms": 120, "target_ms": 100, "kv": ""})
    assert note(bc, False, 0.3) is bc
    assert note(bc, False, 0.7).variant == "prefill" and note(bc, True, 0.7) is bc


# --- a purchase said at its purchase --------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_purchase_on_a_one_off_budget_names_each_setup_at_what_it_costs_to_buy(lang):
    """q01 (round 13): "the card is ranked on rental prices (4090D 3.49 vs L20 8.03 CNY/h) although this is a
    purchase": the opening sentence gives each setup's purchase from the purchase rows, the chosen one's as the
    hardware row's one-off purchase."""
    r = engine.plan(answers_from_dict(_answers("q01_office_lan_capex_contracts")), check_fixes=False)
    ch = r.gpu_choice
    assert ch is not None and ch.chosen.purchase is not None and r.deployment_form == "on_premises"
    book = PriceBook.build(None)
    per = purchase_rank.per_gpu_usd(book, ch.chosen.gpu)
    fx = float(book.fx()["cny_per_usd"])
    assert ch.chosen.purchase == [round(per[0] * ch.chosen.gpus * fx), round(per[1] * ch.chosen.gpus * fx)]
    assert all(a.purchase is not None for a in ch.alternatives)
    opening = ch.text_in(lang).split("." if lang == "en" else "。")[0]
    assert ("/h" not in opening and "to buy" in opening) if lang == "en" else ("每小时" not in opening and "购置" in opening)
    # review 34 (q01): the chosen pair in the opening, the one fallback after it; each card named at its purchase
    text = ch.text_in(lang)
    assert ch._fallback_only(lang)
    named = [a for a in ch.alternatives if a.gpu_name in text]
    assert named and all(f"{a.purchase[0]:,.0f}–{a.purchase[1]:,.0f}" in text for a in named)


def test_a_purchase_without_a_one_off_budget_keeps_its_hourly_figures():
    """q31 buys on a monthly budget, ranked on the rental rows as its yardstick: said in the figures it was ranked on."""
    r = engine.plan(answers_from_dict(_answers("q31_icp_filed_hosting_move")), check_fixes=False)
    assert r.gpu_choice is not None and r.gpu_choice.chosen.purchase is None
    assert all(a.purchase is None for a in r.gpu_choice.alternatives)


# --- the cost of a request served, where it decides ---------------------------------------------------------------
# Re-argued in session 28 (gpu28): round 13 asked for the cost of a request served, which was said per card (13.27/28
# against 8.03/16); blind review 17 then read "24 % more" beside "cheaper per request" as paying more for nothing,
# since a per-card figure leaves out the N+1 spare and the card count each setup needs. The figure is now each whole
# setup's hour over the requests its serving replicas carry within the target: what the rule itself weighs.
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_decode_pick_says_the_cost_of_a_request_carried_by_the_whole_setup(lang):
    # s29-prices29: with Alibaba's L20 quote wired in, 4 × L20 costs more an hour than 3 × H20 even at the H20
    # placeholder's top, so q42/q19 take the H20 on cost and pay no decode premium (test_gpu21_choice's
    # test_q42_q19_take_the_h20_on_cost_at_the_sourced_l20_rent); the premium's sentences are tested on the
    # rents these tests were written on, given as quotes (tests/support/former_l20_rent.py).
    r = former_rents_plan("q42_china_market_gpus_mainland")
    g = r.gpu_choice
    d = g.decode_pick if g is not None else None
    assert d is not None and d["carried"] > 0 and d["other_carried"] > 0
    mine, theirs = g.chosen.per_hour / d["carried"], d["other"]["per_hour"] / d["other_carried"]
    text = g.text_in(lang)
    assert f"{mine:,.2f}" in text and f"{theirs:,.2f}" in text
    assert mine < theirs  # the rule's own condition: more carried per unit of price


def test_the_request_hours_follow_the_setups_figures():
    # s29-prices29: with Alibaba's L20 quote wired in, 4 × L20 costs more an hour than 3 × H20 even at the H20
    # placeholder's top, so q42/q19 take the H20 on cost and pay no decode premium (test_gpu21_choice's
    # test_q42_q19_take_the_h20_on_cost_at_the_sourced_l20_rent); the premium's sentences are tested on the
    # rents these tests were written on, given as quotes (tests/support/former_l20_rent.py).
    r = former_rents_plan("q42_china_market_gpus_mainland")
    assert r.gpu_choice is not None and r.gpu_choice.decode_pick is not None
    d = dict(r.gpu_choice.decode_pick)
    mine, theirs = r.gpu_choice.request_hours()
    d["other_carried"] = d["other_carried"] * 2  # the other setup carrying twice as much halves its request-hour
    choice = r.gpu_choice.model_copy(update={"decode_pick": d})
    assert choice.request_hours() == (mine, theirs / 2)


# --- a faster card on the overseas node, named with its price ------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_the_singapore_node_names_a_faster_card_with_its_month_and_tpot(lang):
    """q05 (round 13): 3 × L4 in Singapore run at a P99 TPOT of 71 ms of a 100 ms target; the node keeps the cheaper
    L4s (the region's ranking) and the finding names the faster card priced there with both TPOT figures."""
    r = engine.plan(answers_from_dict(_answers("q05_filed_finetune_mainland_sg")), check_fixes=False)
    f = r.finding("region.split")
    assert f is not None and f.detail_key.endswith("own_part_faster.detail")
    q = f.params["faster"]
    # the faster card named, as the part to quote first where the L4 is slow for chat and it fits the budget (np43)
    assert q["tr"] in chat_speed37.QUICK
    assert float(q["other_tpot"]) <= (1 - fp8_gain.TPOT_CUT) * float(q["tpot"])
    assert float(q["tpot"]) >= fp8_gain.TPOT_FELT * q["target"]
    detail = f.detail_in(lang)
    assert q["monthly"] in detail and q["other_tpot"] in detail and q["gpu"] in detail


def test_no_faster_card_where_the_node_decodes_well_within_its_target():
    """The same node with a loose TPOT target (its 71 ms under half of it): nothing to name."""
    a = _answers("q05_filed_finetune_mainland_sg")
    r = engine.plan(answers_from_dict({**a, "latency_slo": {**(a.get("latency_slo") or {}), "tpot_p99_ms": 400}}),
                    check_fixes=False)
    f = r.finding("region.split")
    assert f is not None and not (isinstance(f.params.get("faster"), dict)
                                  and f.params["faster"].get("tr") in chat_speed37.QUICK)
