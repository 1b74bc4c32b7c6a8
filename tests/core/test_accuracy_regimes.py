"""Below the predicted knee or past it: the regime rule and the likely ranges a prediction is stated with."""

import pytest

from advisor import i18n
from advisor.domain.sizing import ErrorFigures, LikelyRange, PredictorAccuracy, RegimeAccuracy
from advisor.sizing.accuracy import likely_latency, likely_sentence, predictor_accuracy, regime_at


def test_the_regime_follows_the_knee():
    assert regime_at(16, concurrency=16) == "below_knee"  # the knee itself is the last level that still paid
    assert regime_at(16, concurrency=17) == "saturated"
    assert regime_at(None, concurrency=10_000) == "below_knee"  # no knee on the curve: nothing says saturated
    assert regime_at(None, request_rate=9.0, knee_request_rate=4.0) == "saturated"
    assert regime_at(8, request_rate=3.0, knee_request_rate=4.0) == "below_knee"


def _accuracy(**ranges) -> PredictorAccuracy:
    e = ErrorFigures(n=10, median=0.2, p90=0.5)
    return PredictorAccuracy(
        measurements=20, sources=3, ttft=e, tpot=e, doc="docs/predictor-accuracy.md",
        by_regime=(RegimeAccuracy(regime="saturated", measurements=20, ttft=e, tpot=e, **ranges),),
    )


def test_the_likely_range_is_the_prediction_times_the_measured_factors():
    acc = _accuracy(ttft_range=LikelyRange(low=0.8, high=4.0, quantiles=(0.1, 0.9), n=20, coverage=0.85))
    likely = likely_latency(acc, "saturated", ttft_ms=500.0, tpot_ms=40.0)
    assert likely.ttft_ms.low == pytest.approx(400.0) and likely.ttft_ms.high == pytest.approx(2000.0)
    assert likely.tpot_ms is None  # no TPOT range on record: none is made up
    assert likely_latency(acc, "below_knee", ttft_ms=500.0, tpot_ms=40.0) is None
    assert likely_latency(None, "saturated", ttft_ms=500.0, tpot_ms=40.0) is None


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_sentence_names_the_regime_the_range_and_how_often_it_held(lang):
    acc = _accuracy(ttft_range=LikelyRange(low=0.8, high=4.0, quantiles=(0.1, 0.9), n=20, coverage=0.85),
                    tpot_range=LikelyRange(low=0.9, high=2.0, quantiles=(0.1, 0.9), n=20, coverage=0.82))
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        text = likely_sentence(likely_latency(acc, "saturated", ttft_ms=500.0, tpot_ms=40.0), concurrency=64)
    finally:
        i18n.set_language(before)
    assert "400 ms" in text and "2,000 ms" in text and "36 ms" in text and "80 ms" in text
    assert "82%" in text and "64" in text
    assert ("past the predicted knee" in text) if lang == "en" else ("已过预测拐点" in text)


def test_the_stated_ranges_held_for_four_in_five_measurements_from_other_sources():
    acc = predictor_accuracy()
    assert acc is not None and {a.regime for a in acc.by_regime} == {"below_knee", "saturated"}
    for at in acc.by_regime:
        for metric in ("ttft", "tpot"):
            rng = at.range_for(metric)
            assert rng is not None and rng.coverage >= 0.8 and rng.low < 1.0 < rng.high * 1.0001


def test_tpot_is_stated_with_the_models_architecture_groups_range_or_the_regimes():
    """Decode differs physically between dense and MoE models (bench/predictor_accuracy.py's TPOT_GROUP_REASON): a
    group's own range is used where the bench could judge one, else the regime's; TTFT keeps the regime's."""
    from advisor.domain.sizing import ArchitectureRange

    regime = LikelyRange(low=0.9, high=2.7, quantiles=(0.05, 0.975), n=60, coverage=0.83)
    dense = LikelyRange(low=0.88, high=1.34, quantiles=(0.0, 0.925), n=40, coverage=0.83)
    acc = _accuracy(ttft_range=regime, tpot_range=regime, tpot_by_architecture=(
        ArchitectureRange(architecture="dense", measurements=40, sources=9, tpot_range=dense, held=0.83),
        ArchitectureRange(architecture="moe", measurements=20, sources=2, tpot_range=None, held=0.9),
    ))  # fmt: skip
    on_dense = likely_latency(acc, "saturated", ttft_ms=100.0, tpot_ms=20.0, architecture="dense")
    on_moe = likely_latency(acc, "saturated", ttft_ms=100.0, tpot_ms=20.0, architecture="moe")
    assert on_dense.tpot_ms.high == pytest.approx(20.0 * 1.34) and on_dense.tpot_ms.held == 0.83
    assert on_moe.tpot_ms.high == pytest.approx(20.0 * 2.7)  # too few sources for its own: the regime's range
    assert on_dense.ttft_ms == on_moe.ttft_ms  # prefill is not grouped


def test_a_dense_and_a_moe_plan_quote_their_own_groups_range():
    from advisor.catalog import resolve_model
    from advisor.sizing.accuracy import architecture_group

    assert architecture_group(resolve_model("qwen2.5-7b-instruct")) == "dense"
    assert architecture_group(resolve_model("deepseek-r1")) == "moe"


def test_each_architecture_groups_range_held_for_four_in_five_of_its_points_and_overall():
    acc = predictor_accuracy()
    inside = total = 0
    for at in acc.by_regime:
        assert at.tpot_by_architecture, "every regime states its TPOT range per architecture group"
        for g in at.tpot_by_architecture:
            assert g.held is not None and g.held >= 0.8, (at.regime, g.architecture)
            if g.tpot_range is not None:  # a group's own range: judged on enough sources, each left out in turn
                assert g.sources >= 3 and g.tpot_range.coverage == g.held
            inside += g.held * g.measurements
            total += g.measurements
    assert inside / total >= 0.8
