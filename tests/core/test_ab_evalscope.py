"""The EvalScope path of the scored A/B (the optional [eval] extra): a local general_qa dataset of built-in
sample prompts, two simulated servers on loopback, B answering a known share wrong; EvalScope scores each side and
the A/B pairs its per-sample scores. Skipped when the extra is not installed, except where
ADVISOR_REQUIRE_EVAL=1 (`make test-eval`, which CI runs in a second virtual environment with the extra): there a
missing EvalScope fails the test instead of skipping it."""

import json
import os

import pytest

from advisor.bench.ab import AbConfig, run_ab
from advisor.bench.quality.evalscope_task import available
from advisor.bench.quality.samples import builtin_samples
from advisor.cli import main as cli_main
from advisor.sim.answers import BuiltinAnswers
from advisor.sim.launcher import SimLauncher, SimLaunchSpec

MODEL = "qwen2.5-7b-instruct"


def test_without_the_extra_the_cli_says_what_installing_it_adds(monkeypatch, capsys):
    import advisor.bench.quality.evalscope_task as task

    monkeypatch.setattr(task, "available", lambda: False)
    assert cli_main(["ab", "--a-url", "http://127.0.0.1:9", "--a-model", "m", "--b-model", "n", "--task",
                     "gsm8k"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'inference-advisor[eval]'" in err and "GSM8K" in err


def _needs_evalscope() -> None:
    if available():
        return
    if os.environ.get("ADVISOR_REQUIRE_EVAL") == "1":
        pytest.fail("ADVISOR_REQUIRE_EVAL=1 but EvalScope is not installed: pip install -e '.[test,eval]'")
    pytest.skip("the [eval] extra (evalscope) is not installed")


def test_evalscope_task_on_both_sides_detects_the_known_drop(tmp_path):
    _needs_evalscope()
    right = BuiltinAnswers(0.0)
    # whole-number answers given exactly (Rouge-L recall is then 1 for the right answer, 0 for the wrong one)
    numeric = [s for s in builtin_samples("en") if s.scorer == "numeric" and s.reference.isdigit()
               and right.answer(s.prompt) == s.reference]
    data = tmp_path / "qa"
    data.mkdir()
    (data / "default_test.jsonl").write_text(
        "\n".join(json.dumps({"query": s.prompt, "response": s.reference}) for s in numeric), encoding="utf-8")
    wrong_b = BuiltinAnswers(0.5)  # which of these the B server answers wrong (same seed 0)
    expected_wrong = sum(1 for s in numeric if wrong_b.answer(s.prompt) != right.answer(s.prompt))
    specs = [SimLaunchSpec(model=MODEL, gpu="l4", weights="bf16", time_scale=0.05, answer_error_rate=0.0),
             SimLaunchSpec(model=MODEL, gpu="l4", weights="awq-int4", time_scale=0.05, answer_error_rate=0.5)]
    launchers = [SimLauncher(s) for s in specs]
    try:
        a, b = [launcher.start() for launcher in launchers]
        config = AbConfig.model_validate({
            "a": {"url": a, "model": MODEL}, "b": {"url": b, "model": MODEL}, "answers": 1, "requests": 2,
            "concurrency": [1], "max_tokens": 32, "task": "general_qa", "task_limit": len(numeric),
            "task_dataset": str(data), "task_subset": "default", "task_prompt_template": "{question}"})
        result = run_ab(config, store=False)
    finally:
        for launcher in launchers:
            launcher.stop()
    q = result.quality
    assert q.source == "evalscope:general_qa" and q.metric == "Rouge-L-R"
    assert q.compared == len(numeric) and expected_wrong >= 4
    assert q.a_accuracy == pytest.approx(1.0) and q.only_a == expected_wrong and q.only_b == 0
    assert q.excludes_zero and "B answers worse than A" in result.verdict
    assert "EvalScope task \"general_qa\"" in result.verdict
