"""One rule for how many requests a predicted level measures for its P99s (#28), read by the Sizing page's
curve and ``advisor predict``: where lengths vary and other users share the steps, 200 requests (a short sample's
p99 is about its maximum and rarely holds the short answer that decodes beside a long prompt's chunks); one user
alone and fixed lengths keep the default sample (fixed lengths read the same p99 from 32 requests as from 800)."""

from __future__ import annotations

import json

from advisor.catalog import get_model
from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.domain.sizing import SizingRequest
from advisor.plan.data import gpus_by_id
from advisor.sim.costs import build_setup
from advisor.sim.predict import TAIL_SAMPLES, default_measure, p99_measure, predict_curve
from advisor.sizing_curve import request_curve

FIXED = SimWorkload(prompt=LengthDistribution.fixed(1024), output=LengthDistribution.fixed(256))
VARIED = SimWorkload(prompt=LengthDistribution(kind="lognormal", mean=1024, cv=1.0, min=1, max=6000),
                     output=LengthDistribution(kind="lognormal", mean=256, cv=1.0, min=1, max=2000))  # fmt: skip


def test_the_rule() -> None:
    assert p99_measure(VARIED, 1) is None  # nobody to collide with
    assert p99_measure(FIXED, 8) is None  # every answer alike: the default sample reads the same p99
    assert p99_measure(VARIED, 2) == p99_measure(VARIED, 8) == TAIL_SAMPLES == 200
    assert p99_measure(VARIED, 64) == default_measure(VARIED, 64) == 256  # the default is larger there


def test_predict_reads_varied_lengths_from_the_long_sample() -> None:
    setup = build_setup(get_model("qwen2.5-7b-instruct"), gpus_by_id()["l20-48g"], "bf16", gpus=1, context=8192)
    short = predict_curve(setup.costs, setup.limits, VARIED, [1, 4])
    long = predict_curve(setup.costs, setup.limits, VARIED, [1, 4], tail=True)
    assert [lv.requests for lv in short.levels] == [32, 32]
    assert long.levels[0].requests == 32 and long.levels[1].requests >= TAIL_SAMPLES


def test_the_cli_and_the_sizing_page_use_it(capsys) -> None:
    from tests.support.cli_run import printed  # in-process: the JSON is what is checked

    out = printed(capsys, "predict", "--model", "qwen2.5-7b-instruct", "--gpu", "l20-48g", "--spread", "lognormal",
                  "--concurrency", "1,4", "--json")  # fmt: skip
    assert [lv["requests"] for lv in json.loads(out)["levels"]][1] >= TAIL_SAMPLES
    req = SizingRequest(model=get_model("qwen2.5-7b-instruct"), gpu=gpus_by_id()["l20-48g"], weights="bf16",
                        context=4096, concurrency=4)  # fmt: skip
    # the page simulates fixed lengths: the default sample, as before (its p99 does not move with more)
    assert all(lv.requests <= max(32, 4 * (lv.concurrency or 1)) for lv in request_curve(req).levels)
