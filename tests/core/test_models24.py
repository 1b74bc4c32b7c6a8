"""Session 24, helper models24 (issues #25 and #28).

- q41 (round 13): a fine-tune nobody named is served under no made-up name: the team's SERVED_NAME, else the name of
  its checkpoint folder, one shell word the serve command and every test command share (run by a real shell here).
- q30 (round 13): a team's own checkpoint given as a repository id, on a mainland node, is loaded from a local copy
  (a variable set to that folder), never downloaded from Hugging Face, agreeing with "nothing comes from abroad".
- Code Llama is released under the Llama 2 Community License (meta-llama/codellama's LICENSE points to it): matched by
  its own name, Llama 2's terms said under Code Llama's name, never another version's and never none.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from advisor.catalog import get_model
from advisor.i18n import translate
from advisor.plan import answers_from_dict, make_plan
from advisor.plan.fine_tune_placeholder import SERVED_NAME_WORD
from advisor.plan.llama_licences import llama_licence_of
from advisor.plan.memo import render_memo_markdown
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
    assert not r.feasible and r.next_steps[0].key == "steps18.next.decide_one"
    fix = next(f for f in r.fixes if f.id == "smaller_model")
    named = get_model(fix.change["model"])
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
