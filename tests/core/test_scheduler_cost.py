"""vLLM's scheduler costs CPU time per running request each step (bench/scheduler_costs.py): between GPU steps in
versions before async scheduling became the default (0.14), beside them since."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.engine_profiles import factors_for, get_profile
from advisor.domain.sizing import SpeedFactors
from advisor.sizing.roofline import StepCostModel

VLLM = get_profile("vllm")
MODEL, GPU = get_model("qwen2.5-7b-instruct"), get_gpu("a100-sxm-80g")


def _costs(version: str | None) -> StepCostModel:
    factors = factors_for(VLLM, SpeedFactors(engine_version=version) if version else None)
    return StepCostModel.build(MODEL, "bf16", "bf16", GPU, 1, factors)


@pytest.mark.parametrize(("version", "overlaps"), [(None, True), ("0.11.0", False), ("0.9.2", False), ("0.13.0", False), ("0.14.0", True), ("0.22.1", True)])
def test_which_versions_schedule_beside_the_gpu(version, overlaps):
    costs = _costs(version)
    assert costs.scheduler_overlaps is overlaps
    assert costs.scheduler_s_per_seq == pytest.approx(VLLM.scheduler_us_per_seq / 1e6) and VLLM.scheduler_us_per_seq > 0


def test_before_async_scheduling_every_decode_step_waits_for_the_scheduler():
    # 200 requests decoding 1,500-token contexts on an A100: the GPU step is ~20 ms; vLLM 0.11 then books and
    # schedules 200 requests (200 x 18 us = 3.6 ms) before the next step starts, the current vLLM while it runs
    old, now = _costs("0.11.0"), _costs(None)
    gpu = StepCostModel.build(MODEL, "bf16", "bf16", GPU, 1, factors_for(VLLM).model_copy(update={"scheduler_us_per_seq": 0}))
    step = {name: c.decode_step_seconds(200, 1500) for name, c in (("old", old), ("now", now), ("gpu", gpu))}
    # re-argued in session 28 (predict29): the synchronous loop also waits for the model runner's own CPU work each
    # step (input preparation, sampling, the tokens' copy back: VLLM.sync_runner_us_per_step, vllm#23569), which the
    # scheduler's per-request time never contained; the scheduler's part is unchanged
    runner = VLLM.sync_runner_us_per_step / 1e6
    assert runner > 0
    assert step["old"] == pytest.approx(step["gpu"] + 200 * VLLM.scheduler_us_per_seq / 1e6 + runner, rel=1e-6)
    assert step["now"] == pytest.approx(step["gpu"], rel=1e-9)  # hidden behind a longer GPU step


def test_other_engines_pay_nothing_per_request():
    # SGLang's overlap scheduler and TensorRT-LLM's C++ executor: not measured, so no term
    assert get_profile("sglang").scheduler_us_per_seq == 0 and get_profile("trtllm").scheduler_us_per_seq == 0


def test_the_cli_models_an_older_engine_version_when_asked(capsys):
    import json
    import subprocess
    import sys

    from advisor.cli import main

    calc = ["calc", "--model", "qwen3-235b-a22b", "--gpu", "h100-sxm-80g", "--gpus", "8", "--context", "4096",
            "--concurrency", "300", "--json"]  # fmt: skip

    def run(args: list[str]) -> str:
        # in-process: what the command prints is checked (an interpreter start was ~0.7 s of CPU a run); the process
        # itself (exit status 2, stderr, no traceback) is checked on the bad version below
        code = main(args)
        out = capsys.readouterr()
        assert code == 0, out.err
        return out.out

    def perf(*extra: str) -> dict:
        return json.loads(run(calc + list(extra)))["perf"]

    now, old = perf(), perf("--engine-version", "0.11.0")
    assert old["expert_share_of_peak"] < now["expert_share_of_peak"]  # vLLM 0.14's fused MoE, the nearest measured
    assert old["decode_step_ms"]["value"] > now["decode_step_ms"]["value"]  # and its scheduler between steps
    text = run(calc[:-1] + ["--engine-version", "0.11.0"])
    assert "Modelled as vLLM 0.11.0, not the current release." in text
    bad = subprocess.run([sys.executable, "-m", "advisor", *calc, "--engine-version", "latest"], capture_output=True, text=True)
    assert bad.returncode == 2 and "expected an engine version such as 0.11.0" in bad.stderr and "Traceback" not in bad.stderr
    predict = ["predict", "--model", "qwen2.5-7b-instruct", "--gpu", "a100-sxm-80g", "--concurrency", "64", "--json"]
    tpot = [json.loads(run(predict + extra))["levels"][0]["tpot_ms"]["p50"] for extra in ([], ["--engine-version", "0.9.2"])]
    assert tpot[1] > tpot[0]


def test_an_old_version_started_with_async_scheduling_overlaps():
    """vLLM 0.11 had --async-scheduling as an opt-in flag: a benchmark that names the version and the flag
    (the accuracy bench reads it from the row's command) schedules beside the GPU."""
    factors = factors_for(VLLM, SpeedFactors(engine_version="0.11.0", scheduler_overlaps=True))
    assert StepCostModel.build(MODEL, "bf16", "bf16", GPU, 1, factors).scheduler_overlaps is True
    assert _costs("0.11.0").scheduler_overlaps is False  # the flag is what changes it, not the version
