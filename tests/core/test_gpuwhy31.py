"""s31-gpuwhy31 (issue #25, blind review 20): "Why this GPU" as an engineer says it.

- q42 (m2 partial in both languages): the H20 is chosen because per card it serves the most decode tokens of the GPUs
  allowed; the limit that binds it at this load is its prefill, the one "What decides the size" names: the lead says
  both, together. The 4090 D is set aside for what is real: one 24 GB card cannot hold the weights.
- q17/q03: FP8 32B fits one 48 GB L20, yet the plan splits TP2 over PCIe: "Layouts tried" says what stops one card.
- q17: a one-off purchase is weighed on purchases, not on rent by the hour.
"""

from __future__ import annotations

import pytest

from advisor.plan import per_card_tokens
from advisor.plan.gpu_choice import split_weights
from advisor.plan.memo import memo_document
from tests.support.planned import advice_plan, h20_kept

Q42 = "q42_china_market_gpus_mainland"
Q17 = "q17_capex_only_university_lab"
Q07 = "q07_minors_education_app"
LANGS = ("en", "zh_CN")


def _why_gpu(r, lang: str) -> str:
    memo = memo_document(r, lang).markdown()
    return next(line for line in memo.splitlines() if line.startswith(("**Why this GPU", "**为什么选这款 GPU")))


def _layouts(r, lang: str) -> str:
    memo = memo_document(r, lang).markdown()
    return next(line for line in memo.splitlines() if line.startswith(("**Layouts tried", "**试过的布局")))


def test_q42_leads_with_the_most_tokens_a_card_and_names_the_binding_limit():
    r = h20_kept(Q42)
    p, bc = r.gpu_choice.placeholder_pick, r.binding_constraint
    # the limit the lead names is "What decides the size"'s: prefill, at the share and the cap that section quotes
    assert p["bound"] == "prefill" and p["pct"] == bc.figures["pct"] and p["per"] == bc.figures["c_max"]
    for lang in LANGS:
        why = _why_gpu(r, lang)
        first = why.split("NVIDIA L20 48GB")[0]  # the general reason comes before any other GPU is named
        # re-argued in s31-q42fix32 (blind review 20b, q42 in both languages): "524 decode tokens/s a card on its
        # 4.0 TB/s" beside "prefill 52 %, 296 fp8 TFLOPS caps a replica at 28" undercut the bandwidth story. The
        # binding limit now comes in the opening with the tokens, and the chosen card's bandwidth is not its reason
        assert f"{p['tok']:,.0f}" in first and f"{p['pct']} %" in first and f"{p['tflops']:,}" in first, why
        # s34-gpuwhy36 (blind review 25, q42 in both languages: "it says prefill takes 52 % and decides the cap, yet
        # credits H20's win to decoding on its 4.0 TB/s: say clearly which limit binds"): the bandwidth decodes the
        # tokens, then prefill is named as the one limit that caps the replica, before any other GPU is named
        assert "4.0 TB/s" in first and first.index("4.0 TB/s") < first.index(f"{p['tok']:,.0f}") \
            < first.index(f"{p['pct']} %"), why
        assert f"{p['other_tok']:,.0f}" in why and "0.86" in why, why
        # the 4090 D: its card cannot hold the weights, said with the grade (not the grade's detail again)
        assert why.count("RTX 4090 D") == 1 and "TP4" in why and "24 GB" in why, why
        # the switch rule follows the opening sentence, before the placeholder's caveat (zh: "the boss needs a
        # one-line reason plus the switch rule ('若高于每卡每月约 14,240 CNY…改选 NVIDIA L20')")
        # s36-sourced: here (a budget under the L20's month) the sourced setup breaks the budget: its month and
        # the budget follow the opening sentence, before the placeholder's top
        rest = why.split("TP4", 1)[1]
        month = f"{p['other_month']:,}"
        assert month in rest and rest.index(month) < rest.index(f"{p['top_month']:,}"), why
    en = _why_gpu(r, "en")
    assert f"prefill, {p['pct']} % of its GPU time" in en and "the one limit that binds" in en, en
    # one limit only: the bandwidth is not said to bind the chosen card beside prefill
    assert "bound by 4.0" not in en and "Bandwidth also binds" not in en
    assert "预填充" in _why_gpu(r, "zh_CN")


@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_no_binding_limit_said_where_the_size_rests_on_something_else():
    """q07: the replicas are sized on the highest level predicted, not on a target: the lead names no limit."""
    r = h20_kept(Q07)
    p = r.gpu_choice.placeholder_pick
    assert p is not None and "tok" in p and "bound" not in p
    assert r.binding_constraint.variant not in ("", "above", "prefill", "above_prefill")
    assert "What binds" not in _why_gpu(r, "en") and "限制它的" not in _why_gpu(r, "zh_CN")


def test_bound_follows_the_binding_constraint():
    assert per_card_tokens.bound("decode_bandwidth", "above_prefill", {"pct": 52}, 48) == \
        {"bound": "prefill", "pct": 52}
    assert per_card_tokens.bound("decode_bandwidth", "", {}, 70) == {"bound": "decode", "pct": 70}
    assert per_card_tokens.bound("decode_bandwidth", "unprobed", {}, 70) == {}
    assert per_card_tokens.bound("engine_cap", "", {}, 70) == {}


def test_split_weights_only_where_one_card_cannot_hold_them():
    r = advice_plan(Q42)
    other = r.gpu_choice.reason_params
    assert other["split_tp"] > 1 and other["weights_gb"] > other["card_gb"]

    class _Gpu:
        memory_bytes = 48 * 1024**3

    class _Mem:
        weights_bytes_all_gpus = 34 * 10**9

    class _K:
        gpu, memory, tp = _Gpu(), _Mem(), 2

    assert split_weights(_K()) == {}  # 34 GB on a 48 GB card: TP2 is not for the weights


def test_q17_purchase_weighed_on_purchases_not_rent():
    r = advice_plan(Q17)
    ch = r.gpu_choice.chosen
    assert ch.purchase is not None
    for lang in LANGS:
        why = _why_gpu(r, lang)
        assert "CNY/h" not in why and "card-hour" not in why and "每小时" not in why, why
        # each card at its purchase rows' range with its server share (price36, review 25: never a bare middle)
        lo, hi = ch.per_card_buy
        assert f"{lo:,.0f}–{hi:,.0f}" in why, why
    # a ratio per unit of purchase price only between sourced prices: the 4090 D's and the L20's are not (review 25)
    assert "per unit of purchase price" not in _why_gpu(r, "en") and "its price is a placeholder" in _why_gpu(r, "en")


def test_q17_says_why_one_card_a_replica_is_not_used():
    r = advice_plan(Q17)
    chosen = r.layouts_tried.chosen
    one = next(t for t in r.layouts_tried.tries if t.tp < chosen.tp and t.weights == chosen.weights)
    # the weights fit one card (sized on the predictor), but its first token misses the target past ``within``
    assert one.outcome == "more" and one.missed == "ttft" and one.value > one.target and one.within >= 1
    for lang in LANGS:
        text = _layouts(r, lang)
        assert f"TP{one.tp}" in text and f"{one.value:,.0f}" in text and f"{one.target:,.0f}" in text, text
