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
