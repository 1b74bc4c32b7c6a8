"""The serve step never points at "the command below" when there is no command (q41, fifth blind review); since
s19-engine19 a fine-tune whose checkpoint is not given gets its command, so its serve, ramp and soak steps carry
their commands; since s23-duties23 the command reads the checkpoint from a shell variable a step before it sets."""

from __future__ import annotations

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned


def test_a_fine_tune_without_its_checkpoint_gets_a_serve_step_with_the_variable_command():
    r = planned(advice_answers("q41_finetune_internal_callcentre"))
    serve = next(s for s in r.next_steps if s.id == "serve")
    assert serve.key == "plan.next.serve" and serve.command == r.hardware.command
    assert '"${FINETUNE_DIR:?' in serve.command and "Qwen/" not in serve.command and "<" not in serve.command
    name = '"${SERVED_NAME:-$(basename "$FINETUNE_DIR")}"'  # round 13 (q41): no made-up name (test_models24.py)
    assert f"--served-model-name {name} " in serve.command
    assert all(f"--model {name} " in s.command for s in r.next_steps if s.id in ("ramp", "soak"))
    en, zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    assert "stops with a message until it is set" in en and "未设置时会报错停止" in zh
    given = planned({**advice_answers("q41_finetune_internal_callcentre"), "checkpoint": "/data/ckpt/callcentre-v3",
                     "model_name": "callcentre-v3"})  # fmt: skip
    serve = next(s for s in given.next_steps if s.id == "serve")
    assert serve.key == "plan.next.serve" and serve.command and "/data/ckpt/callcentre-v3" in serve.command
    assert "FINETUNE_DIR" not in serve.command and "FINETUNE_DIR" not in render_memo_markdown(given, "en")
    assert "finetune_checkpoint" not in {s.id for s in given.next_steps}  # nothing to set: no step says to


def test_an_ascend_command_says_to_run_it_under_vllm_ascend():
    """q08 (fifth blind review): "a standard NVIDIA (CUDA) vLLM command for an Ascend fleet"."""
    r = planned(advice_answers("q08_ascend_fleet_internal"))
    assert r.finding("gpu.domestic") is not None and r.hardware.command
    assert "vLLM-Ascend" in render_memo_markdown(r, "en") and "vLLM-Ascend" in render_memo_markdown(r, "zh_CN")
    nvidia = planned(advice_answers("q41_finetune_internal_callcentre"))
    assert "vLLM-Ascend (the" not in render_memo_markdown(nvidia, "en")


def test_the_whole_servers_finding_counts_the_gpus_the_layouts_count():
    """q26/q40 (fifth blind review): "the peak needs 10 (or 12) H20" beside "16 GPUs carry the peak" in the layouts."""
    # q40 rents H20 by the card since s18-h20rows: its answers on H800 (rented only as whole servers) stand for it
    for name, change in (("q26_steady_3y_strong_ops_buy", {}),
                         ("q40_tiny_budget_72b", {"gpu_constraint": ["h800-sxm-80g"]})):  # fmt: skip
        r = planned({**advice_answers(name), **change})
        whole = r.finding("gpu.whole_servers")
        assert whole is not None, name
        chosen = r.layouts_tried.chosen if r.layouts_tried else None
        assert chosen is not None and whole.params["need"] == chosen.gpus, (name, whole.params["need"], chosen.gpus)
