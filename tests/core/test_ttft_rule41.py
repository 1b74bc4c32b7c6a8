"""The usual first-token target is said with the rule that gave it (s39-ttft, blind review 31, q04: "the 10 s TTFT
target is not explained … the rule gives about 7 s for a 12,000-token P95"): the words follow
``context.assumed_ttft_ms`` for short, long and capped prompts, and say nothing for a target the rule did not give."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from advisor.plan.context import assumed_ttft_ms
from advisor.plan.result import CurvePoint, LatencyCurve
from advisor.plan.ttft_rule41 import rule, solo


def _result(use_case: str = "interactive", one_ms: float | None = None, tp: int = 2) -> SimpleNamespace:
    points = [] if one_ms is None else [CurvePoint(concurrency=1, ttft_p50_ms=one_ms / 2, ttft_p99_ms=one_ms,
                                                   tpot_p50_ms=20.0, tpot_p99_ms=30.0, output_tokens_per_s=50.0)]
    return SimpleNamespace(answers={"use_case": use_case}, latency_curve=LatencyCurve(points=points),
                           hardware=SimpleNamespace(gpus_per_replica=tp))


@pytest.mark.parametrize(("p95", "en"), [
    (1_500, " (the usual 2 s for a chat turn)"),
    (8_000, " (2 s for a chat turn plus 0.5 s per 1,000 prompt tokens beyond 2,000)"),
    (12_000, " (2 s for a chat turn plus 0.5 s per 1,000 prompt tokens beyond 2,000, at most 6 s)"),
])
def test_the_rule_is_said_as_the_engine_applies_it(p95, en):
    default = assumed_ttft_ms("interactive", p95)
    assert rule(_result(), default, p95, "en") == en
    assert rule(_result(), default, p95, "zh_CN").startswith("（")


def test_an_api_short_prompt_says_the_api_target_and_a_target_the_rule_did_not_give_says_nothing():
    assert rule(_result("api"), assumed_ttft_ms("api", 1_000), 1_000, "en") == " (the usual 5 s for an API call)"
    assert rule(_result(), 9_000.0, 12_000, "en") == ""


def test_one_request_missing_the_usual_target_is_said_from_the_curve():
    assert solo(_result(one_ms=7_876.0), 6_000.0, "en") == (
        ", which this plan's TP2 misses even for one request (7.9 s: long prompts' prefill is slow)")
    assert solo(_result(one_ms=5_000.0), 6_000.0, "en") == ""
    assert solo(_result(), 6_000.0, "en") == ""
