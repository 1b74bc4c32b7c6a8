"""Session 31, helper predict32 (issue #28): vLLM V0's GPU bubble at every scheduler call.

V0's loop (the default engine before 0.8.0) left the GPU idle at each scheduler call while the CPU copied the sampled
tokens back, turned them into Python outputs, scheduled and prepared the next inputs: "5-13ms of GPU bubble", about
4 ms in the multi-step RFC's traces, "incurred on every decode" without multi-step and "once for every 8 decode steps"
with multi-step-8 (vllm-project/vllm#6854). The profile states it (v0_gap_us_per_schedule) with its source; V1 keeps
its own runner figure, the current (async) version none; a multi-step window pays it once (the accuracy bench spreads
it over the window's steps, as the source ran it: test_predictor_accuracy_bench.py).
"""

from __future__ import annotations

import pytest

from advisor.domain.engine_profiles import factors_for, get_profile
from advisor.domain.sizing import SpeedFactors


def test_the_gap_is_the_rfcs_traced_figure_with_its_source():
    vllm = get_profile("vllm")
    # "about 4ms of GPU bubble" in the RFC's traces, the low side of the "5-13ms" it states
    assert vllm.v0_gap_us_per_schedule == pytest.approx(4000.0)
    assert any("vllm/issues/6854" in s and "v0_gap_us_per_schedule" in s for s in vllm.sources)


@pytest.mark.parametrize(("version", "gap"), [("0.4.1", "v0"), ("0.6.0", "v0"), ("0.7.3", "v0"), ("0.8.0", "v1"),
                                              ("0.11.0", "v1"), ("0.14.0", None)])  # fmt: skip
def test_which_loop_pays_which_gap(version, gap):
    vllm = get_profile("vllm")
    factors = factors_for(vllm, SpeedFactors(kernel_engine="vllm", engine_version=version))
    expected = {"v0": vllm.v0_gap_us_per_schedule, "v1": vllm.sync_runner_us_per_step, None: 0.0}[gap]
    assert factors.runner_us_per_step == expected


def test_an_engine_started_to_overlap_pays_no_gap():
    factors = factors_for(get_profile("vllm"), SpeedFactors(engine_version="0.6.0", scheduler_overlaps=True))
    assert factors.runner_us_per_step == 0.0


def test_only_vllm_states_a_v0_gap():
    for engine in ("sglang", "trtllm", "llama.cpp"):
        assert get_profile(engine).v0_gap_us_per_schedule == 0.0
