"""The GPU an expert would not send back (issue #25, tenth blind review, s21-gpu21).

- A decode-heavy chat takes the GPU that carries more requests within the target per unit of price, fewer and
  larger cards, when it costs at most the decode premium more (``advisor.plan.decode_pick``): q42 and q19 run on
  3 × H20 instead of 4 × L20, and the memo names the L20 setup with both hourly costs.
- A fleet GPU rejected because its long-prompt prefill is too slow names the PCIe all-reduce where the predictor's
  step model finds it a large part of that prefill (``advisor.plan.pcie_prefill``; q04's 16 L20)."""

from __future__ import annotations

import pytest

from advisor.plan import decode_pick
from advisor.plan.memo import render_memo_markdown
from tests.support.former_l20_rent import former_rents_plan
from tests.support.planned import H20_KEPT, advice_answers, planned


@pytest.mark.parametrize("name", ["q42_china_market_gpus_mainland", "q19_export_controlled_h100_mainland"])
def test_a_decode_heavy_chat_runs_on_the_gpu_that_carries_more_per_price_within_the_premium(name):
    # s29-prices29: with Alibaba's L20 quote wired in, 4 × L20 costs more an hour than 3 × H20 even at the H20
    # placeholder's top, so q42/q19 take the H20 on cost and pay no decode premium (test_gpu21_choice's
    # test_q42_q19_take_the_h20_on_cost_at_the_sourced_l20_rent); the premium's sentences are tested on the
    # rents these tests were written on, given as quotes (tests/support/former_l20_rent.py).
    r = former_rents_plan(name)
    g = r.gpu_choice
    if name.startswith("q19"):  # H100 is not sold there: the mainland fix's re-plan is the memo's body
        assert not r.feasible
    assert g is not None and g.chosen.gpu == "h20-96g" and g.decode_pick is not None
    d = g.decode_pick
    other = d["other"]
    assert other["gpu"] == "l20-48g" and other["gpus"] > g.chosen.gpus  # fewer, larger cards
    more = g.chosen.per_hour / other["per_hour"] - 1
    assert 0 < more <= decode_pick.premium() + 1e-9 and d["more_pct"] == round(more * 100)
    assert d["per"] > d["other_per"]
    en, zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    # s23-pages23: the opening sentence names the L20 with what a replica takes; the detail its size, cost, premium
    # s27-gpuwhy27 re-argued (blind review 17, q19/q42: "costs 24 % more … yet the cheaper card"): the premium is the
    # whole setup's an hour, said as such; the opening sentence gave the L20's hourly cost, so the detail names the
    # setup by its size and precision only (its cost stays in the opening)
    assert f"In all it costs {d['more_pct']} % more an hour than {other['gpus']} × NVIDIA L20 48GB (fp8)" in en
    assert f"about {other['per_hour']:,.2f} CNY/h" in en.split("**Why this GPU:**")[1].split("In all it costs")[0]
    assert f"整套每小时比 {other['gpus']} 张 NVIDIA L20 48GB（fp8）贵 {d['more_pct']}%" in zh
    # the weighing names the L20 passed over as the setup whose time decoding dominates, with no second split figure
    assert "on the NVIDIA L20 48GB decoding takes most of the GPU time" in en
    assert "峰值时 NVIDIA L20 48GB 的大部分 GPU 时间用于解码" in zh


@pytest.mark.parametrize("name", ["q42_china_market_gpus_mainland", "q19_export_controlled_h100_mainland"])
def test_q42_q19_take_the_h20_on_cost_at_the_sourced_l20_rent(name):
    """s29-prices29: at Alibaba's L20 quote (a sourced row) 4 × L20 costs more an hour than 3 × H20 even at the H20
    placeholder's top, so the H20 is chosen on cost, no decode premium is said, and the memo says the choice rests
    on the H20's placeholder with the L20 setup's sourced price above which the L20 is the choice."""
    # s36-sourced: with a budget that holds no sourced setup (else the L20 is the plan: test_sourced38)
    r = planned({**advice_answers(name), **H20_KEPT})
    g = r.gpu_choice
    assert g is not None and g.chosen.gpu == "h20-96g" and g.decode_pick is None and not g.chosen.price_sourced
    pick = g.placeholder_pick
    assert pick is not None and pick["other"]["gpu"] == "l20-48g" and pick["other"]["price_sourced"]
    assert g.chosen.per_hour < pick["top"] < pick["other"]["per_hour"]
    assert "placeholder" in g.text_in("en") and "占位" in g.text_in("zh_CN")
    assert "more an hour than" not in g.text_in("en")


class _Gpu:
    def __init__(self, gid: str, bw: float):
        self.id, self.bandwidth_bytes_per_s = gid, bw


class _K:
    def __init__(self, gid: str, bw: float, price: float, gpus: int, carried: int):
        self.gpu, self.price_mid, self.total_gpus, self.carried, self.notes = _Gpu(gid, bw), price, gpus, carried, []
        self.tp, self.weights = 1, "fp8"


def _prefer(chosen: _K, other: _K, decode: int = 80, checked: list | None = None):
    def verify(k):
        if checked is not None:
            checked.append(k)
        return True

    return decode_pick.prefer(chosen, [], [chosen, other], decode_pct=decode, same_standing=lambda k: True,  # type: ignore[arg-type]
                              hourly=lambda k: k.price_mid * k.total_gpus, carried=lambda k: k.carried,
                              verify=verify)


def test_the_rule_takes_the_larger_card_only_within_its_conditions():
    l20 = _K("l20", 0.864e12, 1.1, 4, 48)  # 4.4 an hour, 48 within the target
    h20 = _K("h20", 4.0e12, 1.8, 3, 88)  # 5.4 an hour (+23 %), 88 within the target
    assert _prefer(l20, h20) is h20
    assert _prefer(l20, h20, decode=45) is None  # prompt-heavy: compute, not bandwidth, decides
    assert _prefer(l20, _K("h20", 4.0e12, 2.0, 3, 88)) is None  # 6.0 an hour: 36 % more, past the premium
    assert _prefer(l20, _K("h20", 4.0e12, 1.4, 4, 88)) is None  # as many cards: not fewer, larger ones
    assert _prefer(l20, _K("h20", 4.0e12, 1.8, 3, 50)) is None  # carries less per unit of price
    assert _prefer(l20, _K("h20", 0.5e12, 1.8, 3, 88)) is None  # less bandwidth per unit of price


def test_the_note_names_the_setup_passed_over_at_its_size_only():
    l20, h20 = _K("l20", 0.864e12, 1.1, 4, 48), _K("h20", 4.0e12, 1.8, 3, 88)
    decode_pick.mark(h20, l20)  # type: ignore[arg-type]
    assert decode_pick.passed_over(h20, [l20, h20]) == (l20, h20)  # type: ignore[arg-type]
    resized = _K("l20", 0.864e12, 1.1, 1, 16)  # the same GPU laid out anew (the setups to buy): not named
    assert decode_pick.passed_over(h20, [resized, h20]) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q04_names_the_pcie_all_reduce_as_the_l20s_limit(lang):
    r = planned(advice_answers("q04_securities_h20_l20_fleet"))
    assert r.hardware.gpu == "h20-96g"
    text = render_memo_markdown(r, lang)
    if lang == "en":
        assert "a replica spans 8 cards joined only by PCIe, and the all-reduces between them take about" in text
        assert "8 × 239 FP8 TFLOPS on paper" in text
    else:
        assert "仅靠 PCIe 互联" in text and "8 × 239 FP8 TFLOPS" in text


def test_the_all_reduce_is_named_only_over_pcie_and_from_its_share_on():
    from advisor.plan import pcie_prefill

    class _G:
        interconnect = "nvlink"

    class _One:
        tp, gpu = 8, _G()

    assert pcie_prefill.comm_share(object(), _One()) is None  # NVLink-joined cards: never the PCIe clause


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q17_says_the_l20_server_straddles_the_grant_with_both_purchase_ranges(lang):
    """Re-argued in session 26 (gpu26, blind review 15): the L20 server, whose stand-in price straddles the grant with
    its middle inside, is now the setup bought (a grade-U row never decides alone) and the A10 setup the fallback; the
    memo still gives both purchase ranges from the price book and the grant between the L20's ends."""
    from advisor.plan.data import PriceBook

    r = planned(advice_answers("q17_capex_only_university_lab"))
    g = r.gpu_choice
    assert g is not None and g.grant is not None
    grant, budget = g.grant, advice_answers("q17_capex_only_university_lab")["capex_budget"]["amount"]
    # the purchase the price book gives for the setup bought (CNY per card × its cards), and the grant between its ends
    rows = PriceBook.build(None).find("l20-48g", "capex")
    assert grant["chosen_gpu_name"] == "NVIDIA L20 48GB" and rows
    assert grant["chosen_low"] == round(min(r_.low for r_ in rows) * grant["chosen_gpus"])
    assert grant["chosen_high"] == round(max(r_.high for r_ in rows) * grant["chosen_gpus"])
    assert grant["chosen_low"] <= budget == grant["budget"] < grant["chosen_high"]
    assert grant["high"] <= budget  # the fallback fits the grant at its high end
    text = render_memo_markdown(r, lang)
    # the fallback A10's range no more (gl42, blind review 32 q17: 8 A10 on a placeholder purchase is not weighed)
    for v in ("chosen_low", "chosen_high"):
        assert f"{grant[v]:,}" in text
    # the quote decides, in a next step right after the purchase's start: at or under the grant the L20, else the A10
    budget_s = f"{grant['budget']:,}"
    assert (f"At or under {budget_s} CNY, order it" in text) if lang == "en" else \
        f"报价不超过 {budget_s} CNY 时下单" in text


def test_no_grant_clause_without_a_one_off_budget():
    r = planned(advice_answers("q42_china_market_gpus_mainland"))
    assert r.gpu_choice is not None and r.gpu_choice.grant is None
