"""The EvalScope path of the scored A/B (the optional [eval] extra): a local general_qa dataset of built-in
sample prompts, two simulated servers on loopback, B answering a known share wrong; EvalScope scores each side and
the A/B pairs its per-sample scores. Skipped when the extra is not installed, except where
ADVISOR_REQUIRE_EVAL=1 (`make test-eval`, which CI runs in a second virtual environment with the extra): there a
missing EvalScope fails the test instead of skipping it."""

import json
import os
import re
import threading
import time

import pytest

from advisor.bench.ab import AbConfig, run_ab
from advisor.bench.quality.evalscope_task import available, compare_task
from advisor.bench.quality.history import load_quality
from advisor.bench.quality.samples import builtin_samples
from advisor.cancel import CancelToken
from advisor.cli import main as cli_main
from advisor.sim.answers import BuiltinAnswers
from advisor.sim.launcher import SimLauncher, SimLaunchSpec
from tests.support.sims import ab_specs, running_sims

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


def _numeric_dataset(folder):
    """The built-in English samples with whole-number answers, as an EvalScope general_qa dataset; the right
    answer of each is the reference (Rouge-L recall is then 1 for the right answer, 0 for the wrong one)."""
    right = BuiltinAnswers(0.0)
    numeric = [s for s in builtin_samples("en") if s.scorer == "numeric" and s.reference.isdigit()
               and right.answer(s.prompt) == s.reference]
    folder.mkdir()
    (folder / "default_test.jsonl").write_text(
        "\n".join(json.dumps({"query": s.prompt, "response": s.reference}) for s in numeric), encoding="utf-8")
    return numeric


def test_evalscope_task_on_both_sides_detects_the_known_drop(tmp_path, capsys):
    """`advisor ab --task NAME --limit N` as a user runs it: progress per side on stderr, the paired result in
    --json, and both sides' per-sample scores stored with the two load runs."""
    _needs_evalscope()
    right = BuiltinAnswers(0.0)
    data = tmp_path / "qa"
    numeric = _numeric_dataset(data)
    wrong_b = BuiltinAnswers(0.5)  # which of these the B server answers wrong (same seed 0)
    expected_wrong = sum(1 for s in numeric if wrong_b.answer(s.prompt) != right.answer(s.prompt))
    specs = [SimLaunchSpec(model=MODEL, gpu="l4", weights="bf16", time_scale=0.05, answer_error_rate=0.0),
             SimLaunchSpec(model=MODEL, gpu="l4", weights="awq-int4", time_scale=0.05, answer_error_rate=0.5)]
    db = tmp_path / "bench.sqlite3"
    with running_sims(*specs) as (a, b):
        code = cli_main(["ab", "--a-url", a, "--a-model", MODEL, "--b-url", b, "--b-model", MODEL, "--a-label",
                         "bf16", "--b-label", "awq-int4", "--answers", "1", "--requests", "2", "--concurrency", "1",
                         "--max-tokens", "32", "--task", "general_qa", "--limit", str(len(numeric)),
                         "--task-dataset", str(data), "--task-subset", "default", "--task-template", "{question}",
                         "--db", str(db), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err[-2000:]
    result = json.loads(out)
    q = result["quality"]
    assert result["status"] == "completed"
    assert q["source"] == "evalscope:general_qa" and q["metric"] == "Rouge-L-R"
    assert q["compared"] == len(numeric) and expected_wrong >= 4
    assert q["a_accuracy"] == pytest.approx(1.0) and q["only_a"] == expected_wrong and q["only_b"] == 0
    assert q["excludes_zero"] and q["significant"] and "B answers worse than A" in result["verdict"]
    assert "EvalScope task \"general_qa\"" in result["verdict"]
    # progress while it ran: answered samples per side, A's first, each side ending at the whole subset
    answered = re.findall(r"EvalScope task general_qa, side ([AB]): (\d+) samples? answered", err)
    assert [side for side, _ in answered] == sorted(side for side, _ in answered)
    for side in "AB":
        counts = [int(done) for s, done in answered if s == side]
        assert counts and counts == sorted(counts) and counts[-1] == len(numeric)
    # stored with the two load runs: every sample's score on both sides
    stored = load_quality(db, result["quality_id"])
    assert (stored["a_run_id"], stored["b_run_id"]) == (result["a"]["run_id"], result["b"]["run_id"])
    items = stored["result"]["items"]
    assert len(items) == len(numeric) and all(it["a_score"] == 1.0 for it in items)
    assert sum(it["b_score"] == 0.0 for it in items) == expected_wrong


def _evalscope_children() -> list[int]:
    """Our own child processes running one EvalScope side."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == os.getpid() and b"evalscope_child" in cmdline:
            found.append(int(pid))
    return found


def test_a_stop_ends_the_evalscope_side_at_once(tmp_path):
    """A Stop while EvalScope answers: its process is ended within a poll, not after the side's whole run, and
    there is no half comparison."""
    _needs_evalscope()
    numeric = _numeric_dataset(tmp_path / "qa")
    # 40× slower than an L4: each answer takes seconds, the whole side far longer than the test waits
    launcher = SimLauncher(SimLaunchSpec(model=MODEL, gpu="l4", weights="bf16", time_scale=40, answer_error_rate=0))
    answered, stop = [], threading.Event()
    try:
        url = launcher.start()
        out = {}

        def side():
            out["result"] = compare_task(
                (url, MODEL), (url, MODEL), "general_qa", limit=len(numeric), dataset_path=str(tmp_path / "qa"),
                subset="default", prompt_template="{question}", max_tokens=32, cancelled=stop.is_set,
                on_progress=lambda s, n: answered.append((s, n)))

        worker = threading.Thread(target=side)
        worker.start()
        deadline = time.monotonic() + 120
        while not answered and time.monotonic() < deadline:  # the first answer is in: EvalScope is running
            time.sleep(0.05)
        assert answered and _evalscope_children()
        stop.set()
        stopped_at = time.monotonic()
        worker.join(30)
        assert not worker.is_alive() and time.monotonic() - stopped_at < 8
    finally:
        stop.set()
        launcher.stop()
    assert out["result"] is None and _evalscope_children() == []
    assert {s for s, _ in answered} == {"A"} and answered[-1][1] < len(numeric)


def test_a_stop_before_the_task_keeps_the_load_runs_and_no_half_comparison(tmp_path):
    """Stopped as the task starts (no EvalScope needed): the A/B says stopped, its load figures stand, and no
    quality result is made from one side."""
    cancel = CancelToken()

    def on_event(event):
        if event.kind == "phase" and event.data.get("phase") == "task":
            cancel.cancel()

    with running_sims(*ab_specs(model=MODEL)) as (a, b):
        config = AbConfig.model_validate({
            "a": {"url": a, "model": MODEL}, "b": {"url": b, "model": MODEL}, "answers": 1, "requests": 2,
            "concurrency": [1], "max_tokens": 16, "task": "gsm8k", "task_limit": 5})
        result = run_ab(config, store_path=str(tmp_path / "bench.sqlite3"), cancel=cancel, on_event=on_event)
    assert result.status == "stopped" and result.quality is None and result.quality_id is None
    assert result.levels and result.levels[0].a_output_tokens_per_s
