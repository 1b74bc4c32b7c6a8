"""Llama 2 and Llama versions whose licence was not read here (issue #28, s23-duties23): Llama 2 gets its own
licence's terms (no "Built with" display, no naming clause, its ban on improving other models, the 700-million-user
clause), and a later version is said as not known here, to read before launch, never with another version's terms."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.catalog import get_model
from advisor.i18n import translate
from advisor.plan import answers_from_dict, make_plan
from advisor.plan.llama_licences import llama_licence_of
from advisor.plan.memo import render_memo_markdown

MODELS = Path(__file__).resolve().parents[1] / "fixtures" / "models"
PUBLIC = {"user_location": "overseas", "overseas_markets": ["US"], "mainland_entity": False, "audience": "public",
          "reach": "internet", "use_case": "interactive", "peak_concurrency": 20}  # fmt: skip
LANGS = ("en", "zh_CN")


def _as(model_id: str, repo: str | None = None):
    return get_model("llama-3.1-8b-instruct").model_copy(update={"id": model_id, "hf_repo": repo})


@pytest.mark.parametrize("model_id, repo", [("llama-2-7b-chat-hf", None), ("my-tune", "meta-llama/Llama-2-70b-chat-hf"),
                                            ("llama-2-13b", "meta-llama/Llama-2-13b-hf")])  # fmt: skip
def test_llama_2_by_id_or_repository_is_its_own_licence(model_id, repo):
    licence = llama_licence_of(_as(model_id, repo))
    assert licence is not None and licence.key == "llama2" and licence.known
    assert licence.no_other_llm and not licence.built_with and not licence.name_prefix


@pytest.mark.parametrize("model_id, version", [("llama-5-8b-instruct", "Llama 5"), ("llama-4.1-scout", "Llama 4.1"),
                                               ("llama-3.4-8b", "Llama 3.4")])  # fmt: skip
def test_a_version_not_read_here_is_unknown_and_borrows_no_terms(model_id, version):
    licence = llama_licence_of(_as(model_id))
    assert licence is not None and not licence.known and licence.version == version
    assert not licence.built_with and not licence.name_prefix and not licence.no_other_llm and not licence.multimodal


@pytest.mark.parametrize("model_id", ["qwen2.5-7b-instruct", "tinyllama-1.1b", "llama-guard-3-8b"])
def test_other_models_are_no_llama_licence(model_id):
    assert llama_licence_of(_as(model_id)) is None


def test_llama_2_memo_says_its_own_terms_in_both_languages_and_qwen_none():
    r = make_plan(answers_from_dict({**PUBLIC, "model": str(MODELS / "Llama-2-7b-chat-hf")}))
    f = r.finding("model.llama_licence")
    assert f is not None and f.title_key.endswith(".llama2.title") and f.severity == "info"
    assert [s.url for s in f.sources] == ["https://ai.meta.com/llama/license/"] and f.sources[0].grade == "B"
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert translate(lang, "plan.rule.model.llama_licence.llama2.title") in memo
        assert "Built with" not in memo and "1.b.v" in memo
        assert ("700 million" if lang == "en" else "7 亿") in memo  # the monthly-user threshold (s. 2)
    qwen = make_plan(answers_from_dict({**PUBLIC, "model": "qwen2.5-7b-instruct"}))
    assert qwen.finding("model.llama_licence") is None


def test_a_later_version_is_a_warning_to_read_its_licence_with_no_terms_said():
    r = make_plan(answers_from_dict({**PUBLIC, "model": str(MODELS / "Llama-5-8B-Instruct")}))
    f = r.finding("model.llama_licence")
    assert f is not None and f.title_key.endswith(".unknown.title") and f.severity == "warning"
    assert f.params["version"] == "Llama 5"
    for lang in LANGS:
        text = f.detail_in(lang) if hasattr(f, "detail_in") else translate(lang, f.detail_key, **f.params)
        assert "Llama 5" in text and "Built with" not in text and "700" not in text
