"""The serve command in the team's engine (``serving_engine``, s19-engine19, issues #25/#28): SGLang's own launch
line with the plan's cap, context, TP size and SGLang's memory share, on a plan simulated as SGLang; llama.cpp,
Ollama, TGI and LMDeploy get the settings to set by hand instead of a flag that would be wrong."""

from __future__ import annotations

import re

import pytest

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import render
from advisor.plan.serve_engine import BY_HAND, ENGINE_NAMES
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


def _flag(cmd: str, name: str) -> str | None:
    found = re.search(rf"{name} (\S+)", cmd)
    return found.group(1) if found else None


def _serve_step(r):
    """The step that starts the replica: its own "serve" step, or, where page 1 leads with a hosted API (q12,
    s28-lead28), the later pressure-test step it is folded into (its params carry the serve step as a clause;
    a vLLM/SGLang command is then printed once, in section 2). Returns (step, the serve key, the serve params)."""
    own = next((s for s in r.next_steps if s.id == "serve"), None)
    if own is not None:
        return own, own.key, own.params
    assert r.next_steps[0].id == "api_first" or "api_first" in [s.id for s in r.next_steps]
    # the API step itself wraps its own step in the rate-limit sentence since api43 (review 34): not the serve step
    later = next(s for s in r.next_steps if isinstance(s.params.get("step"), dict) and s.id != "api_first")
    inner = later.params["step"]
    return later, inner["tr"], inner


@pytest.mark.parametrize("name", ["q12_hk_saas_pi_contract", "q04_securities_h20_l20_fleet"])
def test_sglang_gets_its_own_launch_line_with_the_plans_settings(name):
    r = planned({**advice_answers(name), "serving_engine": "sglang"})
    hw = r.hardware
    cmd = hw.command
    assert "vllm serve" not in cmd and "python -m sglang.launch_server --model-path " in cmd
    assert _flag(cmd, "--max-running-requests") == str(hw.max_num_seqs)
    assert hw.max_num_seqs >= r.capacity.max_concurrency_per_replica  # the claim within the cap
    assert _flag(cmd, "--context-length") == str(hw.max_model_len)
    assert _flag(cmd, "--tp") == (str(hw.tp) if hw.tp > 1 else None)
    assert 0.5 < float(_flag(cmd, "--mem-fraction-static")) < 0.95  # SGLang's own share, never vLLM's 0.9 flag
    assert "--gpu-memory-utilization" not in cmd and "--max-num-seqs" not in cmd
    assert not [f for f in hw.engine_flags if f.startswith(("--max-num-seqs", "--max-model-len"))]
    serve, key, _ = _serve_step(r)
    # its own step carries the command; folded into the later step (API lead), section 2's command is named there
    assert serve.command == cmd if serve.id == "serve" else key == "consistent28.next.serve_in_sizing"


def test_sglang_plans_are_simulated_as_sglang():
    """The curve that backs the claim is SGLang's (its KV pool, its scheduling), not vLLM's under SGLang's flags."""
    base = advice_answers("q12_hk_saas_pi_contract")
    vllm, sgl = planned({**base, "serving_engine": "vllm"}), planned({**base, "serving_engine": "sglang"})
    same = {"generated_at", "answers"}
    assert vllm.model_dump(exclude=same) == planned(base).model_dump(exclude=same)  # vLLM answered = not answered
    assert sgl.capacity.memory_max_concurrency != vllm.capacity.memory_max_concurrency
    assert [p.ttft_p99_ms for p in sgl.latency_curve.points] != [p.ttft_p99_ms for p in vllm.latency_curve.points]


def test_a_mainland_sglang_node_downloads_from_modelscope_with_sglangs_setting():
    r = planned({**advice_answers("q14_medical_followup_mainland"), "serving_engine": "sglang"})
    cmd = r.hardware.command
    assert cmd.startswith("SGLANG_USE_MODELSCOPE=true python -m sglang.launch_server --model-path ")
    assert "VLLM_USE_MODELSCOPE" not in cmd


def test_a_fine_tune_on_sglang_loads_its_checkpoint_under_its_name():
    answers = {**advice_answers("q41_finetune_internal_callcentre"), "serving_engine": "sglang",
               "checkpoint": "/data/ckpt/callcentre-v3", "model_name": "callcentre-v3"}  # fmt: skip
    cmd = planned(answers).hardware.command
    assert cmd.startswith("python -m sglang.launch_server --model-path /data/ckpt/callcentre-v3 "
                          "--served-model-name callcentre-v3 ")
    assert "Qwen/" not in cmd


@pytest.mark.parametrize("engine", BY_HAND)
def test_engines_set_by_hand_get_settings_in_words_never_a_wrong_flag(engine):
    r = make_plan(answers_from_dict({**advice_answers("q12_hk_saas_pi_contract"), "serving_engine": engine}))
    hw = r.hardware
    assert hw.command is None and hw.engine_flags == [] and hw.by_hand is not None
    serve, key, params = _serve_step(r)
    assert key == "engine19.next.serve_by_hand" and params["engine"] == ENGINE_NAMES[engine]
    assert any(s.command for s in r.next_steps if s.id == "ramp")  # the ramp measures the engine as it runs
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert "vllm serve" not in memo and "sglang.launch_server" not in memo
        said = render(lang, "engine19.by_hand", hw.by_hand)
        assert said in memo and f"{hw.max_num_seqs}" in said and f"{hw.max_model_len:,}" in said
        step = serve.text_in(lang)
        assert render(lang, "engine19.by_hand.settings", hw.by_hand["settings"]) in step  # the wizard shows the step
