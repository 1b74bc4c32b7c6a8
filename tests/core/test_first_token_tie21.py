"""The precision tie on as many GPUs under a tight first-token target (s21-tie21, issue 25, blind review round 10).

q43 (mainland users on a Hong Kong node, 150 ms to the first token) kept BF16 at a predicted P99 TTFT of 127 ms,
172 ms with the 45 ms round trip and 185 ms with one replica down, where FP8 on the same L40S gives 94 ms; q09 (an
EU voice agent, 300 ms) kept BF16 at 209 ms, within the predictor's median error at that load of the target, where
FP8 gives 166 ms. Both reviewers: take FP8, which the answers accept. Where both precisions keep to the target with
that room, the better precision keeps the tie (the other direction)."""

from __future__ import annotations

import pytest

from advisor.plan.first_token_tie import round_trip_ms
from advisor.plan.memo import render_memo_markdown
from advisor.sizing.accuracy import load_of, predictor_accuracy
from tests.support.planned import advice_answers, planned

HK = "q43_us_team_mainland_low_latency"
VOICE = "q09_eu_voice_agent"
LANGS = ("en", "zh_CN")


def _tie(name: str, **change):
    r = planned({**advice_answers(name), **change})
    return r, (r.layouts_tried.first_token if r.layouts_tried is not None else None)


def test_q43_takes_fp8_where_bf16_with_the_round_trip_breaks_the_target():
    r, tie = _tie(HK)
    assert r.hardware.weights == "fp8" and tie is not None
    assert (tie.verdict, tie.higher, tie.lower) == ("breaks", "bf16", "fp8")
    assert tie.rtt_ms == 45 and tie.slo_ms == 150  # Hong Kong's slowest premium-line round trip on file
    assert tie.higher_ttft_ms + tie.rtt_ms > tie.slo_ms  # bf16 over the target with the round trip
    worst = max(tie.lower_ttft_ms, tie.lower_down_ms or 0.0)
    assert worst + tie.rtt_ms <= tie.slo_ms  # fp8 within it, with one replica down too
    assert tie.lower_ttft_ms == r.capacity.ttft_p99_ms  # the figure the memo's capacity card shows
    f = r.finding("region.latency_budget")
    base = f.params["predicted"].get("base", f.params["predicted"])
    assert base["tr"].endswith("fits")  # the first token now fits what the round trip leaves


def test_q09_takes_fp8_where_the_predictors_error_would_take_bf16_past_the_target():
    r, tie = _tie(VOICE)
    assert r.hardware.weights == "fp8" and tie is not None
    assert (tie.verdict, tie.rtt_ms) == ("near", 0)  # no round trip on file for callers on the node's continent
    worst = max(tie.higher_ttft_ms, tie.higher_down_ms or 0.0)
    assert worst <= tie.slo_ms < worst * (1 + (tie.error or 0.0))  # meets it on the prediction, not with its error
    acc = predictor_accuracy()
    assert acc is not None and tie.error == pytest.approx(acc.at_load(load_of(20)).ttft.median, abs=1e-4)
    assert max(tie.lower_ttft_ms, tie.lower_down_ms or 0.0) < worst


def test_with_room_for_both_the_better_precision_keeps_the_tie():
    for name in (HK, VOICE):
        a = advice_answers(name)
        loose = {**a, "latency_slo": {**a["latency_slo"], "ttft_p99_ms": 900}}
        r, tie = _tie(name, latency_slo=loose["latency_slo"])
        assert r.hardware.weights == "bf16" and tie is None, name


def test_no_round_trip_is_counted_where_none_is_on_file():
    from tests.core.test_plan_rules import facts_for

    assert round_trip_ms(facts_for(advice_answers(HK)).ctx, "hong_kong") == 45
    assert round_trip_ms(facts_for(advice_answers(VOICE)).ctx, "europe") == 0  # the mainland's row, not the callers'


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [HK, VOICE])
def test_the_memo_says_why_with_both_figures_and_keeps_the_quality_check(name, lang):
    r, tie = _tie(name)
    assert tie is not None
    text = render_memo_markdown(r, lang)
    layouts = next(line for line in text.splitlines() if "TP1 bf16" in line or "TP1（bf16）" in line)
    shown = [tie.higher_ttft_ms, tie.lower_ttft_ms]
    if tie.rtt_ms:
        shown = [x + tie.rtt_ms for x in shown]
    for ms in shown:
        assert f"{round(ms)} ms" in layouts, (ms, layouts)
    f = r.finding("sizing.quantized")
    assert f.title_key.endswith(".first_token.title")
    assert f"{round(shown[0])} ms" in f.detail_in(lang) and f"{round(shown[0])} ms" in text
    assert any(s.id == "quant_ab" for s in r.next_steps)  # the A/B against the bf16 baseline before launch
