"""Session 24, helper models24 (issues #25 and #28).

- Code Llama is released under the Llama 2 Community License (meta-llama/codellama's LICENSE points to it): matched by
  its own name, Llama 2's terms said under Code Llama's name, never another version's and never none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.catalog import get_model
from advisor.i18n import translate
from advisor.plan import answers_from_dict, make_plan
from advisor.plan.llama_licences import llama_licence_of
from advisor.plan.memo import render_memo_markdown

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
