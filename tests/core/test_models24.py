"""Session 24, helper models24 (issues #25 and #28).

- q41 (round 13): a fine-tune nobody named is served under no made-up name: the team's SERVED_NAME, else the name of
  its checkpoint folder, one shell word the serve command and every test command share (run by a real shell here).
- q30 (round 13): a team's own checkpoint given as a repository id, on a mainland node, is loaded from a local copy
  (a variable set to that folder), never downloaded from Hugging Face, agreeing with "nothing comes from abroad".
- #28: speculative decoding with a draft model (vLLM's draft_model method): the draft's weights, its KV in the
  target's blocks and each request's lookahead slots, pinned to what vLLM's code allocates; what is not covered
  (SGLang, sliding-window/MLA/linear-attention or vision models, a draft whose heads do not split) is refused by name.
- Code Llama is released under the Llama 2 Community License (meta-llama/codellama's LICENSE points to it): matched by
  its own name, Llama 2's terms said under Code Llama's name, never another version's and never none.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pydantic import ValidationError

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SizingRequest
from advisor.i18n import translate
from advisor.plan import answers_from_dict, make_plan
from advisor.plan.fine_tune_placeholder import SERVED_NAME_WORD
from advisor.plan.llama_licences import llama_licence_of
from advisor.plan.memo import render_memo_markdown
from advisor.sizing import size
from advisor.sizing.memory import weight_bytes
from advisor.sizing.quant import get_format
from tests.support.planned import advice_answers, planned

MODELS = Path(__file__).resolve().parents[1] / "fixtures" / "models"
LANGS = ("en", "zh_CN")
PUBLIC = {"user_location": "overseas", "overseas_markets": ["US"], "mainland_entity": False, "audience": "public",
          "reach": "internet", "use_case": "interactive", "peak_concurrency": 20}  # fmt: skip


def _as(model_id: str, repo: str | None = None):
    return get_model("llama-3.1-8b-instruct").model_copy(update={"id": model_id, "hf_repo": repo})


# ---- Code Llama: Llama 2's licence, by its own name (#28) -----------------------------------------------------------
@pytest.mark.parametrize("model_id, repo", [
    ("codellama-7b-instruct-hf", None), ("my-coder", "codellama/CodeLlama-34b-Instruct-hf"),
    ("code-llama-13b", None), ("tune", "meta-llama/CodeLlama-70b-hf"),
])  # fmt: skip
def test_code_llama_by_id_or_repository_is_under_llama_2s_terms(model_id, repo):
    licence = llama_licence_of(_as(model_id, repo))
    llama2 = llama_licence_of(_as("llama-2-7b-chat-hf"))
    assert licence is not None and licence.key == "codellama" and licence.version == "Code Llama" and licence.known
    # the same terms as Llama 2's row: no display, no naming clause, the ban on improving other models
    assert (licence.built_with, licence.name_prefix, licence.no_other_llm, licence.multimodal) == (
        llama2.built_with, llama2.name_prefix, llama2.no_other_llm, llama2.multimodal)


@pytest.mark.parametrize("model_id", ["deepseek-coder-6.7b", "qwen2.5-coder-7b-instruct", "starcoder2-15b"])
def test_other_code_models_are_no_llama_licence(model_id):
    assert llama_licence_of(_as(model_id)) is None


def test_a_code_llama_service_says_llama_2s_terms_under_code_llamas_name_in_both_languages():
    r = make_plan(answers_from_dict({**PUBLIC, "model": str(MODELS / "CodeLlama-7b-Instruct-hf")}))
    f = r.finding("model.llama_licence")
    assert f is not None and f.title_key.endswith(".codellama.title") and f.severity == "info"
    # Code Llama's own licence file (which points to Llama 2's), then Llama 2's licence
    assert [s.url for s in f.sources] == ["https://github.com/meta-llama/codellama/blob/main/LICENSE",
                                          "https://ai.meta.com/llama/license/"]  # fmt: skip
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert translate(lang, "plan.rule.model.llama_licence.codellama.title") in memo
        assert "Code Llama" in memo and "Llama 2" in memo and "1.b.v" in memo and "Built with" not in memo
    staff = make_plan(answers_from_dict({**PUBLIC, "audience": "internal", "reach": "lan",
                                         "model": str(MODELS / "CodeLlama-7b-Instruct-hf")}))  # fmt: skip
    assert staff.finding("model.llama_licence") is None  # a staff tool on a LAN makes nothing available to others


# ---- q41: no made-up served name (#25, round 13) ---------------------------------------------------------------------
Q41 = "q41_finetune_internal_callcentre"
Q30 = "q30_unfiled_finetune_public_30d"


def _model_words(command: str) -> list[str]:
    """Every word a command passes as the model's name (``--served-model-name``, ``--model``)."""
    return re.findall(r'--(?:served-model-name|model) ("[^"]*(?:"[^"]*"[^"]*)*"\)?"?|\S+)', command)


def test_q41_serves_and_asks_for_one_name_that_is_the_teams_never_a_made_up_one():
    r = planned(advice_answers(Q41))
    commands = [c for c in (r.hardware.command, *(s.command for s in r.next_steps)) if c]
    names = {w for c in commands for w in _model_words(c)}
    assert names == {SERVED_NAME_WORD} and len(commands) >= 3  # the serve command and the ramp and soak tests
    assert all("finetune " not in c and "-finetune" not in c for c in commands)  # "qwen2.5-7b-instruct-finetune"
    asked = next(q for q in r.open_questions if q.field == "model_name")
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert "-finetune" not in memo and "SERVED_NAME" in asked.text_in(lang) and asked.text_in(lang) in memo


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
@pytest.mark.parametrize("env, name", [({"FINETUNE_DIR": "/data/ckpt/call centre v3"}, "call centre v3"),
                                       ({"FINETUNE_DIR": "acme/cc-7b"}, "cc-7b"),
                                       ({"FINETUNE_DIR": "/data/x", "SERVED_NAME": "cc-bot"}, "cc-bot")])  # fmt: skip
def test_the_served_name_is_the_folders_name_or_served_name_as_one_word(env, name):
    # what the server is told and what a client asks for: one argument, the same on both sides
    out = subprocess.run(["bash", "-c", f"printf '[%s]' {SERVED_NAME_WORD}"], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", **env})  # fmt: skip
    assert out.returncode == 0 and out.stdout == f"[{name}]"


def test_a_named_fine_tune_keeps_its_name():
    r = planned({**advice_answers(Q41), "model_name": "cc-assist"})
    assert "--served-model-name cc-assist " in r.hardware.command and SERVED_NAME_WORD not in r.hardware.command
    assert all("--model cc-assist " in s.command for s in r.next_steps if s.id in ("ramp", "soak"))


# ---- q30: the team's own checkpoint from a local copy on a mainland node (#25, round 13) ---------------------------
def test_q30_loads_its_own_checkpoint_from_a_local_folder_not_hugging_face():
    r = planned(advice_answers(Q30))
    cmd = r.hardware.command
    assert cmd.startswith('vllm serve "${FINETUNE_DIR:?set FINETUNE_DIR to the local folder holding '
                          'lexhelper/lexhelper-7b-sft}" --served-model-name LexHelper-7B ')  # fmt: skip
    assert "VLLM_USE_MODELSCOPE" not in cmd
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        # no "this command downloads … from Hugging Face" beside "nothing comes from abroad"
        assert translate(lang, "memo.hw.hugging_face_unreachable", repo="lexhelper/lexhelper-7b-sft") not in memo
        assert translate(lang, "models24.memo.local_copy", repo="`lexhelper/lexhelper-7b-sft`",
                         var="`FINETUNE_DIR`") in memo  # fmt: skip


def test_a_feasible_mainland_plan_copies_the_checkpoint_in_a_step_before_the_serve_step():
    r = planned({**advice_answers(Q41), "checkpoint": "acme-insure/callcentre-7b-v3", "model_name": "cc-assist"})
    assert "to the local folder holding acme-insure/callcentre-7b-v3}" in r.hardware.command
    ids = [s.id for s in r.next_steps]
    step = r.next_steps[ids.index("finetune_checkpoint")]
    assert step.key == "models24.next.copy_checkpoint" and ids.index("finetune_checkpoint") == ids.index("serve") - 1
    assert step.params == {"var": "FINETUNE_DIR", "repo": "acme-insure/callcentre-7b-v3"}
    # a local path is served as given; outside the mainland a repository id is downloaded as given
    path = planned({**advice_answers(Q41), "checkpoint": "/data/ckpt/v3", "model_name": "cc-assist"})
    assert path.hardware.command.startswith("vllm serve /data/ckpt/v3 ")
    abroad = planned({**advice_answers(Q41), "checkpoint": "acme/cc-7b", "model_name": "cc-assist",
                      "user_location": "overseas", "overseas_markets": ["SG"], "mainland_entity": False})  # fmt: skip
    assert abroad.region == "singapore" and abroad.hardware.command.startswith("vllm serve acme/cc-7b ")


# ---- q29: the tests after "re-plan on the 7B" are for the 7B (#25, round 13) ------------------------------------------
Q29 = "q29_batch_impossible_budget"


def test_q29_tests_after_the_decision_ask_for_the_model_it_names_not_the_one_ruled_out():
    r = planned(advice_answers(Q29))
    # s33-numbers1 (review 23, q29): the choice is left to the team, every change priced; the tests below stay on the
    # one within the budget as given, as the step says; s38-fixlead (review 29, q29): on the change page 1 sets out
    # first where an MoE near the budget leads, the step naming it; review 34 (fo43): closest in quality first, the
    # tests on the self-hosted change closest in quality
    step = r.next_steps[0]
    assert not r.feasible and step.key in ("steps18.next.decide_one", "numbers1_34.next.decide_choice",
                                           "fixlead40.next.decide_choice", "fo43_next.decide_choice")
    named = next(get_model(f.change["model"]) for f in r.fixes
                 if f.id == "smaller_model" and get_model(f.change["model"]).name == step.params["fix"]["model"])
    ruled_out = get_model(r.answers["model"]).hf_repo  # meta-llama/Llama-3.3-70B-Instruct
    assert ruled_out and ruled_out != named.hf_repo
    tests = [s for s in r.next_steps if s.command and "advisor bench" in s.command]
    assert tests and all(f"--model {named.hf_repo} " in s.command and ruled_out not in s.command for s in tests)
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        blocks = re.findall(r"^ *```[^\n]*\n(.*?)^ *```", memo, flags=re.M | re.S)
        assert blocks and not any(ruled_out in b for b in blocks)


def test_a_choice_among_changes_or_a_fine_tune_keeps_the_test_commands_model():
    # several changes: the re-plan names the model; a fine-tune is served under its own name whatever the base
    r = planned({**advice_answers(Q29), "model_customisation": "fine_tuned", "model_name": "acme-70b-batch",
                 "checkpoint": "/data/ckpt/acme-70b"})  # fmt: skip
    tests = [s for s in r.next_steps if s.command and "advisor bench" in s.command]
    assert not r.feasible and tests and all("--model acme-70b-batch " in s.command for s in tests)


# ---- speculative decoding with a draft model: vLLM's memory for it (#28) ---------------------------------------------
# vLLM's draft_model method (advisor/sizing/speculative.py): the draft's weights on each GPU, split at the target's TP;
# its KV layers in the target's blocks (UniformTypeKVCacheSpecs.page_size_bytes sums every layer's page, the blocks are
# the available memory // that page); num_speculative_tokens lookahead slots per running request (Scheduler).
def _spec_request(gpus: int = 1, k: int = 4, kv_dtype: str = "bf16", draft: str = "qwen2.5-3b-instruct", **kw):
    from advisor.domain.sizing import SpeculativeSettings

    base = SizingRequest(model=get_model("qwen2.5-14b-instruct"), gpu=get_gpu("h100-sxm-80g"), context=8192,
                         concurrency=16, gpus=gpus, kv_dtype=kv_dtype, **kw)  # fmt: skip
    spec = SpeculativeSettings(draft_model=get_model(draft), num_speculative_tokens=k)
    return base, base.model_copy(update={"speculative": spec})


@pytest.mark.parametrize("gpus, kv_dtype", [(1, "bf16"), (2, "bf16"), (2, "fp8")])
def test_a_draft_models_weights_and_kv_are_sized_as_vllm_allocates_them(gpus, kv_dtype):
    base, spec = _spec_request(gpus=gpus, kv_dtype=kv_dtype)
    plain, with_draft = size(base).memory, size(spec).memory
    draft = get_model("qwen2.5-3b-instruct")
    # its weights, split over the target's GPUs, in its own format, come off the KV cache's share byte for byte
    assert with_draft.draft_weights_bytes == weight_bytes(draft, get_format("bf16"), gpus).per_gpu > 0
    if gpus == 2:
        assert with_draft.draft_weights_bytes < weight_bytes(draft, get_format("bf16"), 1).per_gpu
    assert plain.kv_budget_bytes - with_draft.kv_budget_bytes == with_draft.draft_weights_bytes
    # its KV: 2 (K, V) × its layers × its KV heads on this GPU × head_dim × the target's KV dtype, in the same blocks
    kv_bytes = {"bf16": 2, "fp8": 1}[kv_dtype]
    own = 2 * draft.num_layers * max(1, draft.num_kv_heads // gpus) * draft.head_dim * kv_bytes
    assert with_draft.draft_kv_bytes_per_token == own
    assert with_draft.kv_bytes_per_token == plain.kv_bytes_per_token + own
    page = with_draft.kv_bytes_per_token * with_draft.block_size  # one block across every layer, target's and draft's
    assert with_draft.kv_blocks == with_draft.kv_budget_bytes // page
    # each request's blocks hold its tokens and the k lookahead slots: 8,192 + 4 tokens = 513 blocks of 16, not 512
    assert with_draft.speculative_lookahead_tokens == 4
    assert with_draft.max_concurrency_kv == with_draft.kv_blocks // 513
    assert with_draft.kv_bytes_per_request == 513 * page
    # the longest context 16 requests reach: their blocks less the lookahead slots (at most the model's own limit)
    assert with_draft.max_context == min((with_draft.kv_blocks // 16) * 16 - 4, get_model("qwen2.5-14b-instruct").max_context)


def test_the_draft_is_in_the_memory_totals_and_the_command_carries_it():
    base, spec = _spec_request()
    r = size(spec)
    m = r.memory
    weights = next(b for b in m.breakdown if b.key == "weights")
    assert weights.bytes == m.weights_bytes + m.draft_weights_bytes and "draft model Qwen2.5 3B Instruct" in weights.formula
    assert sum(b.bytes for b in m.breakdown if b.key != "free") == m.total_bytes  # the bar adds up with the draft
    flag = re.search(r"--speculative-config '([^']+)'", r.vllm_command or "")
    assert flag and json.loads(flag.group(1)) == {"method": "draft_model", "model": "Qwen/Qwen2.5-3B-Instruct",
                                                  "num_speculative_tokens": 4}  # fmt: skip
    assert "--speculative-config" not in (size(base).vllm_command or "")


def test_a_draft_whose_heads_do_not_split_at_the_tp_degree_is_refused_in_both_languages():
    _, spec = _spec_request(gpus=4)
    odd = spec.speculative.draft_model.model_copy(update={"num_attention_heads": 14, "num_kv_heads": 2})
    req = spec.model_copy(update={"speculative": spec.speculative.model_copy(update={"draft_model": odd})})
    for lang in LANGS:
        r = size(req, lang)
        assert r.verdict == "engine_refuses" and r.engine_refusal == "draft_heads"
        assert any(a.text == translate(lang, "sizing24_models24.spec_tp", tp=4, model=odd.name) for a in r.advice)
        assert r.min_gpus in (1, 2)  # the smallest degree both the target and the draft split at


@pytest.mark.parametrize("change", [{"engine_profile": "sglang"}, {"model": "gemma-2-27b-it"}, {"model": "deepseek-v3"}])
def test_what_the_draft_sizing_does_not_cover_is_refused_with_its_reason_never_a_silent_size(change):
    # SGLang's draft memory is not modelled; sliding-window (Gemma 2) and MLA (DeepSeek-V3) layers go in other KV
    # cache groups in vLLM than the draft's full-attention layers
    from advisor.i18n import current_language, set_language

    _, spec = _spec_request()
    before = current_language()
    update = {k: get_model(v) if k == "model" else v for k, v in change.items()}
    for lang in LANGS:
        if "engine_profile" in change:
            want = translate(lang, "speculative25_spec28.engine", engine="sglang")
        else:
            want = translate(lang, "sizing24_models24.spec_layers", model=update["model"].name,
                             role=translate(lang, "sizing24_models24.role.target"))  # fmt: skip
        set_language(lang)
        try:
            with pytest.raises(ValidationError) as info:
                SizingRequest.model_validate({**dict(spec), **update})
        finally:
            set_language(before)
        assert want in str(info.value)


def test_calc_json_says_the_draft_and_refuses_half_a_pair(capsys):
    from advisor.cli import main

    assert main(["calc", "--model", "qwen2.5-14b-instruct", "--draft-model", "qwen2.5-3b-instruct",
                 "--num-speculative-tokens", "4", "--concurrency", "16", "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["draft_model"] == "qwen2.5-3b-instruct" and data["speculative_lookahead_tokens"] == 4
    assert data["draft_weights_bytes"] == data["memory"]["draft_weights_bytes"] > 0
    assert data["draft_kv_bytes_per_token"] == 36 * 2 * 2 * 128 * 2  # Qwen2.5-3B: 36 layers, 2 KV heads of 128
    assert main(["calc", "--model", "qwen2.5-14b-instruct", "--draft-model", "qwen2.5-3b-instruct", "--json"]) != 0
