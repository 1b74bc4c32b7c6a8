"""Session 27, helper predict28 (issue #28): speculative acceptance is the (method, target model, head) pair's.

A head accepts as it was trained: yuhuili's EAGLE-3 head measured on Llama-3.1-8B says nothing about SpecForge's
head for the same model, nor about any head on Llama-3.3-70B. Only the model's own MTP module is keyed by the target
alone. Where the pair is unmeasured no speed-up is stated, and the text names the heads that were measured there.
"""

from __future__ import annotations

import json

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.cli import main
from advisor.domain.sizing import SizingRequest, SpeculativeSettings
from advisor.i18n import set_language, translate
from advisor.model_import import model_from_config
from advisor.sizing import size
from advisor.sizing.speculative_acceptance import is_drafter, other_drafters, published_acceptance
from advisor.sizing.speculative_heads import head_preset
from advisor.sizing.speculative_text import speculative_speed_text

LANGS = ("en", "zh_CN")
YUHUILI = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
REDHAT = "RedHatAI/Llama-3.3-70B-Instruct-speculator.eagle3"
SPECFORGE = "eagle3-llama-3.1-8b-instruct-specforge"
# an EAGLE-3 head of Llama-3.1-8B's shape (one layer, draft vocabulary 32,000)
HEAD_CFG = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 4096,
            "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 1,
            "vocab_size": 128256, "draft_vocab_size": 32000, "max_position_embeddings": 2048, "rms_norm_eps": 1e-5,
            "torch_dtype": "float16"}  # fmt: skip


def _eagle3(model_id: str, hf_repo: str | None = None, k: int = 3) -> SpeculativeSettings:
    head = model_from_config(HEAD_CFG, model_id=model_id, name=model_id, hf_repo=hf_repo)
    return SpeculativeSettings(method="eagle3", draft_model=head, num_speculative_tokens=k, draft_vocab_size=32000)


def _speed(model: str, spec: SpeculativeSettings, gpus: int = 1):
    m = get_model(model)
    return size(SizingRequest(model=m, gpu=get_gpu("h100-sxm-80g"), context=1024, concurrency=1, gpus=gpus,
                              weights=m.native_weights, speculative=spec))  # fmt: skip


def test_a_heads_figures_are_used_for_that_head_on_that_model_only():
    target = get_model("llama-3.1-8b-instruct")
    # the measured head, by its repository or by the folder a download into its name leaves
    for spec in (_eagle3("eagle3-l31", YUHUILI), _eagle3("EAGLE3-LLaMA3.1-Instruct-8B")):
        assert [p.drafter for p in published_acceptance(spec, target)] == [YUHUILI]
        assert other_drafters(spec, target) == ()
    # another head for the same model (SpecForge's preset, or a head nobody named): none, yuhuili's named instead
    specforge = head_preset(SPECFORGE)
    assert specforge is not None
    for spec in (SpeculativeSettings(method="eagle3", draft_model=specforge.head, num_speculative_tokens=3),
                 _eagle3("my-head")):  # fmt: skip
        assert published_acceptance(spec, target) == ()
        assert other_drafters(spec, target) == (YUHUILI,)
    # yuhuili's 8B head on Llama-3.3-70B: the 70B figures are RedHat's head's, not this one's
    l70 = get_model("llama-3.3-70b-instruct")
    assert published_acceptance(_eagle3("eagle3-l31", YUHUILI), l70) == ()
    assert other_drafters(_eagle3("eagle3-l31", YUHUILI), l70) == (REDHAT,)
    # MTP is the target's own module: keyed by the target alone
    mtp = SpeculativeSettings(method="mtp", num_speculative_tokens=1)
    assert published_acceptance(mtp, get_model("deepseek-v3")) and all(is_drafter(mtp, p) for p in published_acceptance(mtp, get_model("deepseek-v3")))
    assert published_acceptance(mtp, get_model("deepseek-r1")) == ()


@pytest.mark.parametrize("lang", LANGS)  # tests/conftest.py sets English back after each test
def test_an_unmeasured_pair_states_no_speed_up_and_names_the_measured_head_in_both_languages(lang):
    set_language(lang)
    eagle3 = translate(lang, "speculative25_spec28.method.eagle3")
    r = _speed("llama-3.1-8b-instruct", _eagle3("my-head"))
    s = r.perf.speculative
    assert s.acceptance is None and s.tpot_ms is None and s.at_concurrency.speedup is None and s.regime == "unknown"
    assert s.other_drafters == [YUHUILI]
    head = translate(lang, "speculative27_predict28.unknown_head", method=eagle3, model="Llama 3.1 8B Instruct",
                     measured=YUHUILI, head="my-head", n=1, need=f"{s.at_concurrency.break_even_tokens_per_step:.2f}", k1=4)  # fmt: skip
    text = speculative_speed_text(r)
    assert text.startswith(head) and "×" not in text and "倍" not in text
    # the measured head itself: its range, and no word of other heads
    named = _speed("llama-3.1-8b-instruct", _eagle3("eagle3-l31", YUHUILI)).perf.speculative
    assert named.regime == "helps" and named.other_drafters == []
    # nobody measured the method on the model at all: the older sentence, no head named
    plain = speculative_speed_text(_speed("llama-3.1-70b-instruct", _eagle3("my-head"), gpus=4))
    assert YUHUILI not in plain and REDHAT not in plain
    older = translate(lang, "speculative26_spec28.unknown", method=eagle3, model="Llama 3.1 70B Instruct", n=1, need="1.00", k1=4)
    assert plain.startswith(older.split("1.00")[0])


def test_calc_json_names_the_measured_head_when_the_users_is_not(capsys):
    assert main(["calc", "--model", "llama-3.1-8b-instruct", "--speculative", "eagle3", "--draft-model", SPECFORGE,
                 "--num-speculative-tokens", "3", "--json", "--lang", "en"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["speculative_regime"] == "unknown" and data["speculative_speedup"] is None
    assert data["perf"]["speculative"]["other_drafters"] == [YUHUILI]
    assert "lmsys/SGLang-EAGLE3-Llama-3.1-8B-Instruct-SpecForge" in data["speculative_speed_text"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_new_words_exist_in_both_languages(lang):
    for key in ("unknown_head", "simulated", "no_speedup"):
        assert translate(lang, f"speculative27_predict28.{key}") != f"speculative27_predict28.{key}"
