"""TTFT and TPOT as the range a newcomer can plan with, for the regime the load is in (issue #28): the memo's
latency rows at the plan's own peak load per replica, and `advisor calc` beside its expected-error sentence (text and
--json), each the predicted P50 times the factors measured for that regime (resources/engines/accuracy.json)."""

from __future__ import annotations

import json

import pytest

from advisor import i18n
from advisor.catalog import get_gpu, resolve_model
from advisor.cli import main
from advisor.domain.sizing import LikelyLatency, SizingRequest
from advisor.i18n import translate
from advisor.plan.memo import memo_document
from advisor.plan.memo_likely import likely_clause
from advisor.plan.money_text import number_text
from advisor.sizing.accuracy import likely_sentence, predictor_accuracy, regime_at
from advisor.sizing_curve import likely_json
from tests.support.planned import advice_plan

SCENARIO = "q01_office_lan_capex_contracts"


def _factors(regime: str, metric: str, architecture: str = "dense") -> tuple[float, float]:
    # both models here (q01's and qwen2.5-7b-instruct) are dense: TPOT's range is the dense group's where it has one
    rng = predictor_accuracy().in_regime(regime).range_for(metric, architecture)
    return rng.low, rng.high


def test_the_plans_range_is_its_own_peak_loads_p50_times_the_regimes_factors():
    r = advice_plan(SCENARIO)
    cap, curve = r.capacity, r.latency_curve
    assert cap.likely is not None and cap.concurrency_per_replica > 0
    assert not resolve_model(r.hardware.model).is_moe
    # the regime is the plan's own load per replica against the plan's own knee
    assert cap.likely.regime == regime_at(curve.knee_concurrency, concurrency=cap.concurrency_per_replica)
    for metric, p50 in (("ttft", cap.ttft_p50_ms), ("tpot", cap.tpot_p50_ms)):
        span, (low, high) = getattr(cap.likely, f"{metric}_ms"), _factors(cap.likely.regime, metric)
        # the table's P50 is rounded to 0.1 ms; the range scales the same predicted level
        assert span.low == pytest.approx(p50 * low, abs=0.1 * low) and span.high == pytest.approx(p50 * high, abs=0.1 * high)
        assert span.low < p50 < span.high


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_memos_latency_rows_state_the_range_beside_the_p50_before_the_p99(lang):
    r = advice_plan(SCENARIO)
    cap = r.capacity
    text = memo_document(r, lang).markdown()
    for key, span in (("memo.cap.ttft", cap.likely.ttft_ms), ("memo.cap.tpot", cap.likely.tpot_ms)):
        row = next(line for line in text.splitlines() if line.startswith(f"| {translate(lang, key)} |"))
        clause = likely_clause(span, cap.likely.regime, lambda k, **p: translate(lang, k, **p), number_text)
        assert clause in row
        # past the knee the row says so; below it section 3 does (review 24: room for the P99's top in the row)
        assert (translate(lang, f"likely26_range28.regime.{cap.likely.regime}") in row) == (cap.likely.regime == "saturated")
        # the range is the P50's: right after the P50, and the P99 after it (issue #25: printed after the P99 it read
        # as the P99's range, which the P99 lay outside in q04, q10 and q34)
        p50 = translate(lang, "memo.cap.p50_only", ms=number_text(cap.ttft_p50_ms if key == "memo.cap.ttft" else cap.tpot_p50_ms, 1))
        assert p50 + clause in row and row.index(clause) < row.index("P99")


def _request(n: int) -> SizingRequest:
    model = resolve_model("qwen2.5-7b-instruct")
    return SizingRequest(model=model, gpu=get_gpu("h100-sxm"), weights=model.weights_or_native(None), concurrency=n)


def test_the_regime_switches_at_the_curves_knee_and_scales_the_curves_p50():
    below, past = likely_json(_request(20)), likely_json(_request(200))
    assert below["likely"]["regime"] == "below_knee" and past["likely"]["regime"] == "saturated"
    for got in (below, past):
        basis, likely = got["likely_basis"], got["likely"]
        assert likely["regime"] == regime_at(basis["knee_concurrency"], concurrency=basis["concurrency"])
        for metric in ("ttft", "tpot"):
            low, high = _factors(likely["regime"], metric)
            p50 = basis[f"{metric}_p50_ms"]
            assert likely[f"{metric}_ms"]["low"] == pytest.approx(p50 * low)
            assert likely[f"{metric}_ms"]["high"] == pytest.approx(p50 * high)


def test_calc_json_gives_the_range_in_the_shape_predict_gives_each_level(capsys):
    assert main(["calc", "--model", "qwen2.5-7b-instruct", "--gpu", "h100-sxm", "--concurrency", "200", "--json"]) == 0
    calc = json.loads(capsys.readouterr().out)
    assert main(["predict", "--model", "qwen2.5-7b-instruct", "--gpu", "h100-sxm", "--concurrency", "200", "--json"]) == 0
    level = json.loads(capsys.readouterr().out)["levels"][0]
    assert calc["likely"].keys() == level["likely"].keys() and calc["likely"]["ttft_ms"].keys() == level["likely"]["ttft_ms"].keys()
    assert calc["likely_basis"]["concurrency"] == 200 and calc["likely_basis"]["simulated"] is True
    assert calc["likely"]["regime"] == "saturated"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_calc_states_the_range_and_keeps_the_expected_error_beneath(lang, capsys):
    before = i18n.current_language()
    try:
        assert main(["calc", "--model", "qwen2.5-7b-instruct", "--gpu", "h100-sxm", "--concurrency", "200", "--lang", lang]) == 0
        out = capsys.readouterr().out
        i18n.set_language(lang)
        got = likely_json(_request(200))
        sentence = likely_sentence(LikelyLatency.model_validate(got["likely"]), concurrency=200)
    finally:
        i18n.set_language(before)
    lines = out.splitlines()
    assert sentence and ("past the predicted knee" in sentence if lang == "en" else "已过预测拐点" in sentence)
    error_lead = translate(lang, "sizing.accuracy_load", n=0, sources=0, ttft="", ttft_p90="", tpot="", tpot_p90="",
                           load="", n_all=0, ttft_all="", tpot_all="")[:3]  # fmt: skip
    error = next(i for i, line in enumerate(lines) if line.startswith(error_lead))
    assert lines.index(sentence) == error - 1  # the range first, the expected error beneath it, not instead
