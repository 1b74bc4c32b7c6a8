"""The 'sharegpt' length distribution: vLLM's ShareGPT benchmark sample, in pairs, scaled to the workload's means."""

from __future__ import annotations

import json

import numpy as np
import pytest

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.resources import load_json
from advisor.sim.datasets import sharegpt_pairs
from advisor.sim.predict import RequestSource, sample_lengths


def test_the_sample_is_the_published_one() -> None:
    # vllm-sharegpt.json of simon-mo/R1-Benchmark: 500 requests, total_output_tokens = 107666 (see the file's source)
    data = load_json("workloads", "sharegpt.json")
    assert data["source"].startswith("https://github.com/simon-mo/R1-Benchmark/blob/")
    prompts, outputs = sharegpt_pairs()
    assert prompts.size == outputs.size == 500
    assert int(outputs.sum()) == 107666
    # vLLM's filter: both sides >= 4 tokens, prompt <= 1024, prompt + answer <= 2048
    assert prompts.min() >= 4 and outputs.min() >= 4 and prompts.max() <= 1024 and (prompts + outputs).max() <= 2048


def test_scaled_draws_keep_the_mean_and_the_short_answers() -> None:
    rng = np.random.default_rng(0)
    dist = LengthDistribution(kind="sharegpt", mean=202)
    drawn = sample_lengths(dist, 20_000, rng)
    assert drawn.mean() == pytest.approx(202, rel=0.03)
    # one answer in six is under 20 tokens; a lognormal of the same mean and cv 1 gives about one in a hundred
    assert 0.15 < (drawn < 20).mean() < 0.23
    lognormal = sample_lengths(LengthDistribution(kind="lognormal", mean=202, cv=1.0), 20_000, rng)
    assert (lognormal < 20).mean() < 0.03
    assert drawn.max() <= dist.upper == 5 * 202


def test_a_dataset_on_both_sides_keeps_its_pairs() -> None:
    def corr(wl: SimWorkload) -> float:
        src = RequestSource(wl, 5000)
        return float(np.corrcoef(src.prompts, src.outputs)[0, 1])

    paired = SimWorkload(prompt=LengthDistribution(kind="sharegpt", mean=217), output=LengthDistribution(kind="sharegpt", mean=202))
    assert corr(paired) < -0.2  # ShareGPT's long prompts get shorter answers (−0.26 in the sample)
    one_side = SimWorkload(prompt=LengthDistribution.fixed(217), output=LengthDistribution(kind="sharegpt", mean=202))
    assert RequestSource(one_side, 100).prompts == [217] * 100


def test_predict_accepts_the_sharegpt_spread(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.support.cli_run import printed  # in-process: the JSON is what is checked

    predict = ["predict", "--model", "qwen2.5-7b-instruct", "--gpu", "h100-sxm-80g", "--prompt-tokens", "217",
               "--max-tokens", "202"]  # fmt: skip
    spread_out = printed(capsys, *predict, "--spread", "sharegpt", "--concurrency", "1,32", "--json")
    fixed_out = printed(capsys, *predict, "--concurrency", "1", "--json")
    levels = json.loads(spread_out)["levels"]
    assert [lv["concurrency"] for lv in levels] == [1, 32]
    # mixed lengths: the median answer is shorter than the mean, so the median E2E is below a fixed-length one's
    assert levels[0]["e2e_ms"]["p50"] < json.loads(fixed_out)["levels"][0]["e2e_ms"]["p50"]
