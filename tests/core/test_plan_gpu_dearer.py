"""Why not the GPU that looks better per price (ninth blind review, q42): the memo weighed the H20 at 4.6 × the L20's
bandwidth and 2.8 × per yuan, then picked 4 × L20 and named the H20 only as "3 × H20 bf16" although FP8 was
allowed. The H20 is named at the plan's precision and the size its check passed, with why it costs more: one
replica's requests within the target on each GPU's own curve, the cards the peak with the headroom needs, both
hourly costs, and the fewer cards that would carry the bare peak with the headroom they leave."""

from advisor.plan.gpu_dearer import better_per_price, mark_checked, missed
from advisor.plan.gpu_weigh import CardFigure
from tests.support.former_l20_rent import former_rents_plan


def test_the_h20_is_costed_at_fp8_and_its_reason_names_both_costs():
    # s21-gpu21 (tenth blind review): q42's decode-heavy chat now runs on the H20, chosen over the cheaper L20s within
    # the decode premium (``decode_pick``); what this test protects stays: the H20 is weighed at the plan's precision
    # (fp8 accepted), and the sentence that decides between the two GPUs names both setups, both hourly costs and
    # one replica's requests within the target on each GPU's own curve
    # s29-prices29b: with Alibaba's L20 quote wired in (s29-prices29), 4 × L20 costs more an hour than 3 × H20 even
    # at the H20 placeholder's top, so q42 takes the H20 on cost and no decode premium is weighed (its placeholder
    # sentence names the L20: test_gpu21_choice); the premium's sentence is tested on the rents it was written on,
    # given as quotes (tests/support/former_l20_rent.py), as test_gpuwhy27 does
    r = former_rents_plan("q42_china_market_gpus_mainland")
    g = r.gpu_choice
    assert g.chosen.gpu == "h20-96g"
    d = g.decode_pick
    assert d is not None and d["weights"] == "fp8"  # the decision rested on fp8, the accepted precision
    other = d["other"]
    assert other["gpu"] == "l20-48g" and other["per_hour"] < g.chosen.per_hour
    assert d["more_pct"] == round((g.chosen.per_hour / other["per_hour"] - 1) * 100) <= d["limit_pct"]
    # the H20 carries more a replica and a setup; per unit of price the decision rested on each replica's capacity
    # on its own curve (44 in fp8), while since s21-fp8pick21b (fp8 deployed) the clause shows the sizing table's
    # claim, which stops at what the sizing needs (28): 56 against 48 no longer reads as more per unit of price, and
    # the sentence does not claim it ("it costs more only because its cards are larger than this peak needs")
    assert d["per"] > d["other_per"] and d["carried"] > d["other_carried"]
    # the passed-over L20 is listed as the next setup at the size it was passed over at
    assert any((o.gpu, o.gpus, o.per_hour) == (other["gpu"], other["gpus"], other["per_hour"]) for o in g.alternatives)
    en, zh = g.text_in("en"), g.text_in("zh_CN")
    for text in (en, zh):
        assert f"{other['per_hour']:,.2f}" in text and f"{g.chosen.per_hour:,.2f}" in text
        assert f"{d['per']}" in text and f"{d['other_per']}" in text and other["gpu_name"] in text
    assert f"costs {d['more_pct']} % more" in en and f"贵 {d['more_pct']}%" in zh
    assert not g.dearer  # no GPU better per price left unchosen: nothing to explain as dearer


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
