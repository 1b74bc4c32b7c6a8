"""Why not the GPU that looks better per price (ninth blind review, q42): the memo weighed the H20 at 4.6 × the L20's
bandwidth and 2.8 × per yuan, then picked 4 × L20 and named the H20 only as "3 × H20 bf16" although FP8 was
allowed. The H20 is named at the plan's precision and the size its check passed, with why it costs more: one
replica's requests within the target on each GPU's own curve, the cards the peak with the headroom needs, both
hourly costs, and the fewer cards that would carry the bare peak with the headroom they leave."""

import json
import math
from pathlib import Path

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.gpu_dearer import better_per_price, mark_checked, missed
from advisor.plan.gpu_weigh import CardFigure
from advisor.plan.sizing import HEADROOM

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
Q42 = json.loads((SCEN / "q42_china_market_gpus_mainland.json").read_text(encoding="utf-8"))["answers"]


def test_the_h20_is_costed_at_fp8_and_its_reason_names_both_costs():
    r = make_plan(answers_from_dict(Q42))
    g = r.gpu_choice
    h20 = next(o for o in g.alternatives if o.gpu == "h20-96g")
    assert h20.weights == "fp8"  # FP8 is accepted: the H20 is compared at the plan's own precision, not bf16
    d = next(d for d in g.dearer if d.gpu_name == h20.gpu_name)
    # the reason is about the same setup the sentence names, and it is dearer than the chosen one
    assert (d.gpus, d.per_hour, d.weights) == (h20.gpus, h20.per_hour, h20.weights)
    assert d.per_hour > g.chosen.per_hour == d.chosen_per_hour
    # the cards the peak with the headroom needs follow from one replica's claim on the curve
    assert d.peak == 40 and d.target == math.ceil(d.peak * (1 + HEADROOM) - 1e-9)
    serving = d.serving_gpus // d.tp
    assert serving * d.per_replica >= d.target > (serving - 1) * d.per_replica  # one replica fewer falls short
    if d.leaner_gpus is not None:  # cheaper than the chosen setup, but short of the plan's headroom
        assert d.leaner_per_hour < g.chosen.per_hour and d.leaner_headroom_pct < round(HEADROOM * 100)
    en, zh = g.text_in("en"), g.text_in("zh_CN")
    for text in (en, zh):
        assert f"{d.per_hour:,.2f}" in text and f"{g.chosen.per_hour:,.2f}" in text
        assert f"{d.per_replica}" in text and h20.gpu_name in text
    assert "costs more at the size that meets the target" in en and "更贵" in zh
    assert "(bf16" not in en.split("Weighed per card")[0]  # no bf16 H20 named while fp8 is accepted


def test_a_gpu_dearer_per_price_gets_no_reason_of_its_own():
    mine = CardFigure(gpu="a", gpu_name="A", value=1.0, per_card_hour=2.0, chosen=True)
    dear = CardFigure(gpu="b", gpu_name="B", value=1.0, per_card_hour=4.0)
    cheap = CardFigure(gpu="c", gpu_name="C", value=4.0, per_card_hour=4.0)
    unpriced = CardFigure(gpu="d", gpu_name="D", value=9.0)
    cards = [mine, dear, cheap, unpriced]
    assert [better_per_price(f, cards) for f in cards] == [False, False, True, False]


def test_a_setup_the_predictor_failed_is_marked_and_unmarked_when_it_passes():
    class K:
        notes: list[str]

    k = K()
    k.notes = ["replaced:x"]
    mark_checked(k, False)  # type: ignore[arg-type]
    mark_checked(k, False)  # type: ignore[arg-type]
    assert missed(k) and k.notes.count("predictor_missed") == 1  # type: ignore[arg-type]
    mark_checked(k, True)  # type: ignore[arg-type]
    assert not missed(k) and k.notes == ["replaced:x"]  # type: ignore[arg-type]
