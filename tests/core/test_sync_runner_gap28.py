"""Session 28, helper predict29 (issue #28): two things a prediction states about vLLM's loop and about speculation.

1. A vLLM version whose loop does not overlap the GPU step (V1 before async scheduling became the default in 0.14,
   unless started with --async-scheduling) waits between two steps for its model runner's CPU work too: preparing the
   next step's inputs, the sampler's launches and copying the sampled tokens back (vllm#23569: moving that work beside
   the GPU took a Llama-3.2-1B on one H100 at one request from 549.85 to 685.11 tokens/s, 359 us a step). The
   predictor used to count only the scheduler's part of that gap. The current version (async) is unchanged; V0 (another
   loop) takes its own traced gap instead (session 31, test_v0_schedule_gap32.py).
2. With speculative decoding, the likely ranges and the expected error are still the ones scored on measurements
   without it: `advisor predict` and `advisor calc` say so (and `--json` carries the sentence).
"""

from __future__ import annotations

import json

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.cli import main
from advisor.domain.engine_profiles import factors_for, get_profile
from advisor.domain.sizing import SpeedFactors
from advisor.i18n import current_language, set_language
from advisor.sizing.roofline import StepCostModel

SPEC = ["--speculative", "eagle3", "--draft-model", "eagle3-llama-3.1-8b-instruct-specforge", "--num-speculative-tokens", "3"]


def _decode_step(version: str | None, **extra) -> float:
    base = SpeedFactors(kernel_engine="vllm", engine_version=version, **extra) if version else SpeedFactors()
    costs = StepCostModel.build(get_model("qwen3-8b"), "bf16", "bf16", get_gpu("h100-sxm-80g"), 1,
                                factors_for(get_profile("vllm"), base))  # fmt: skip
    return costs.step_seconds(0, 0, 4, 4 * 1000)


def test_the_cited_figure_is_the_prs_own_arithmetic():
    vllm = get_profile("vllm")
    assert vllm.sync_runner_us_per_step == pytest.approx(1e6 / 549.85 - 1e6 / 685.11, abs=1.0)
    assert any("vllm/pull/23569" in s and "549.85" in s and "685.11" in s for s in vllm.sources)


def test_a_synchronous_v1_loop_waits_for_the_model_runner_between_steps():
    runner = get_profile("vllm").sync_runner_us_per_step / 1e6
    sync = _decode_step("0.11.0")  # async scheduling opt-in only: the loop waits for the CPU between steps
    overlapped = _decode_step("0.11.0", scheduler_overlaps=True)  # the same version started with --async-scheduling
    per_seq = 4 * get_profile("vllm").scheduler_us_per_seq / 1e6
    assert sync - overlapped == pytest.approx(per_seq + runner, rel=1e-6)


def test_the_simulators_fast_decode_paths_count_it_bit_for_bit():
    import numpy as np

    costs = StepCostModel.build(get_model("qwen3-8b"), "bf16", "bf16", get_gpu("h100-sxm-80g"), 1,
                                factors_for(get_profile("vllm"), SpeedFactors(kernel_engine="vllm", engine_version="0.11.0")))  # fmt: skip
    assert costs.runner_s_per_step > 0
    for n, kv in ((1, 233), (4, 4000), (64, 150_000)):
        exact = costs.step_seconds(0, 0, n, kv)
        assert costs.decode_seconds_fn(n)(kv) == exact
        array = costs.decode_seconds_array(n)
        assert array is not None and float(array(np.array([kv], dtype=np.int64))[0]) == exact


def test_the_current_version_keeps_its_steps_and_v0_gets_its_own_gap_not_v1s():
    # the app models the current vLLM (async: the runner's work is beside the GPU)
    assert "runner_us_per_step" not in factors_for(get_profile("vllm"), SpeedFactors()).model_fields_set
    # Re-argued in session 31 (predict32): V0's loop is another runner, so it still never takes V1's 359 us; it used
    # to take nothing ("not measured"), but vllm#6854 (the multi-step RFC) traced V0's own GPU bubble at each scheduler
    # call (~4 ms), which the profile now states (v0_gap_us_per_schedule, test_v0_schedule_gap32.py)
    vllm = get_profile("vllm")
    v0 = factors_for(vllm, SpeedFactors(engine_version="0.6.0"))
    assert not v0.scheduler_overlaps and v0.runner_us_per_step == vllm.v0_gap_us_per_schedule
    assert v0.runner_us_per_step != vllm.sync_runner_us_per_step
    assert _decode_step(None) == pytest.approx(_decode_step("0.14.0"), rel=1e-9)


def test_only_vllm_states_the_runner_gap_it_was_measured_for():
    for engine in ("sglang", "trtllm", "llama.cpp"):
        assert get_profile(engine).sync_runner_us_per_step == 0.0


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_predict_with_speculation_says_its_ranges_were_measured_without_it(lang, capsys):
    before = current_language()
    try:
        set_language(lang)
        args = ["predict", "--model", "llama-3.1-8b-instruct", "--gpu", "h100-sxm-80g", "--concurrency", "1,8", *SPEC]
        assert main([*args, "--lang", lang]) == 0
        with_spec = capsys.readouterr().out
        assert main(["predict", "--model", "llama-3.1-8b-instruct", "--gpu", "h100-sxm-80g", "--concurrency", "1,8",
                     "--lang", lang]) == 0  # fmt: skip
        without = capsys.readouterr().out
    finally:
        set_language(before)
    note = {"en": "measured without it", "zh_CN": "不使用投机解码的实测"}[lang]
    assert note in with_spec and note not in without
    # beneath the likely ranges it qualifies, before the expected error
    lines = with_spec.splitlines()
    at = next(i for i, line in enumerate(lines) if note in line)
    assert any(("likely" in line or "大概" in line or "可能" in line) for line in lines[:at])


def test_calc_and_predict_json_carry_the_basis_under_speculation(capsys):
    assert main(["calc", "--model", "llama-3.1-8b-instruct", "--gpu", "h100-sxm-80g", "--concurrency", "8", *SPEC, "--json"]) == 0
    spec = json.loads(capsys.readouterr().out)
    assert spec["likely"] and "without speculative decoding" in spec["likely_speculative_note"]
    assert main(["calc", "--model", "llama-3.1-8b-instruct", "--gpu", "h100-sxm-80g", "--concurrency", "8", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["likely_speculative_note"] is None
    assert main(["predict", "--model", "llama-3.1-8b-instruct", "--gpu", "h100-sxm-80g", "--concurrency", "1", *SPEC, "--json"]) == 0
    assert "measured without it" in json.loads(capsys.readouterr().out)["likely_speculative_note"]
