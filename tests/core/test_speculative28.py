"""Session 25, helper spec28 (issue #28): speculative methods beside the draft model, sized as vLLM loads them
(advisor/sizing/speculative.py names the code read).

- EAGLE-3 head: its decoder layer (q/k/v reading 2 × hidden), a hidden_norm, fc (3 × target hidden → hidden, whole on
  every GPU), a final norm, its own LM head over draft_vocab_size and the int64 draft→target map; its embedding the
  target's. Pinned to a published head: thomaskiefer/EAGLE3-Apertus-8B-Instruct-2509's model card says ~513M
  parameters for 1 layer, hidden 4096, intermediate 21504, 32/8 heads, vocab 131,072, draft vocab 32,000.
- EAGLE head (EAGLE-1): its decoder layer less the first input norm, fc (2 × hidden → hidden); embedding and LM head
  the target's.
- MTP: DeepSeek-V3's README: "671B of the Main Model weights and 14B of the Multi-Token Prediction (MTP) Module
  weights" (685B on Hugging Face). vLLM keeps the MTP layer less its embedding and head copies (shared with the
  target), and gives its MLA layer KV in the target's group.
- n-gram: nothing held; every method but n-gram keeps num_speculative_tokens lookahead slots a request.
"""

from __future__ import annotations

import json
import re

import pytest
from pydantic import ValidationError

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SizingRequest, SpeculativeSettings
from advisor.i18n import current_language, set_language, translate
from advisor.model_import import model_from_config
from advisor.sizing import size
from advisor.sizing.memory import tensor_bytes_on_gpu
from advisor.sizing.quant import get_format
from advisor.sizing.speculative import eagle_head_tensors, mtp_tensors
from advisor.sizing.tensors import param_counts, tensors

LANGS = ("en", "zh_CN")
APERTUS_EAGLE3 = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 4096,
                  "intermediate_size": 21504, "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 1,
                  "vocab_size": 131072, "draft_vocab_size": 32000, "max_position_embeddings": 65536, "rms_norm_eps": 1e-5,
                  "torch_dtype": "bfloat16"}  # fmt: skip
# yuhuili/EAGLE-LLaMA3-Instruct-8B's shape: one Llama-3-8B decoder layer
EAGLE1_LLAMA3 = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
                 "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 1, "vocab_size": 128256,
                 "max_position_embeddings": 8192, "rms_norm_eps": 1e-5, "torch_dtype": "float16"}  # fmt: skip


def _head(cfg: dict, name: str):
    return model_from_config(cfg, model_id=name, name=name)


def _req(model: str, spec: SpeculativeSettings | None, gpus: int = 1, **kw) -> SizingRequest:
    return SizingRequest(model=get_model(model), gpu=get_gpu(kw.pop("gpu", "h100-sxm-80g")), context=8192, concurrency=8,
                         gpus=gpus, weights=get_model(model).native_weights, speculative=spec, **kw)  # fmt: skip


def test_an_eagle3_head_counts_the_published_parameters_and_holds_them_as_vllm_splits_them():
    head = _head(APERTUS_EAGLE3, "eagle3-apertus")
    params = sum(t.elements for t in eagle_head_tensors(head, "eagle3", 4096, 32000))
    assert round(params / 1e6) == 513  # the model card's "~513M" (its 537M embedding is not in the checkpoint)
    assert param_counts(head).total - params > 131072 * 4096 - 32000 * 4096  # vLLM does not load the full vocab twice
    spec = SpeculativeSettings(method="eagle3", draft_model=head, num_speculative_tokens=3, draft_vocab_size=32000)
    one, two = (size(_req("llama-3.1-8b-instruct", spec, gpus=tp)).memory for tp in (1, 2))
    # per GPU in BF16: q/k/v (2 × 4096 in) + o + the MLP and the 32,000-row LM head split; fc (12,288 → 4,096) and four
    # norms whole on each GPU; draft_id_to_target_id 32,000 × 8 B whole
    split = 4096 * 8192 + 2 * 1024 * 8192 + 4096 * 4096 + 3 * 4096 * 21504 + 32000 * 4096
    whole = 3 * 4096 * 4096 + 4 * 4096
    assert one.draft_weights_bytes == 2 * (split + whole) + 8 * 32000
    assert two.draft_weights_bytes == 2 * (split // 2 + whole) + 8 * 32000
    # one layer's KV: 2 (K, V) × 8 KV heads (4 a GPU at TP 2) × 128 × 2 B, in the target's blocks; 3 lookahead slots
    assert (one.draft_kv_bytes_per_token, two.draft_kv_bytes_per_token) == (4096, 2048)
    assert one.speculative_lookahead_tokens == 3
    base = size(_req("llama-3.1-8b-instruct", None)).memory
    assert one.kv_bytes_per_token == base.kv_bytes_per_token + 4096
    assert base.kv_budget_bytes - one.kv_budget_bytes == one.draft_weights_bytes


def test_an_eagle_head_shares_the_embedding_and_head_and_must_match_the_target_width():
    head = _head(EAGLE1_LLAMA3, "eagle-llama3-8b")
    own = eagle_head_tensors(head, "eagle", 4096, None)
    # one Llama-3-8B layer without its input norm + fc (8,192 → 4,096): no embedding, no LM head
    layer = 4096 * 4096 * 2 + 1024 * 4096 * 2 + 3 * 4096 * 14336 + 4096
    assert sum(t.elements for t in own) == layer + 2 * 4096 * 4096 == 251_662_336
    assert not any(t.kind in ("embed", "lm_head") for t in own)
    spec = SpeculativeSettings(method="eagle", draft_model=head, num_speculative_tokens=4)
    r = size(_req("meta-llama-3-8b-instruct", spec))
    assert r.memory.draft_weights_bytes == 2 * 251_662_336
    flag = re.search(r"--speculative-config '([^']+)'", r.vllm_command or "")
    assert flag and json.loads(flag.group(1)) == {"method": "eagle", "model": "eagle-llama3-8b", "num_speculative_tokens": 4}
    before = current_language()
    for lang in LANGS:  # a head trained for a 4,096-wide model cannot draft for a 5,120-wide one
        set_language(lang)
        try:
            with pytest.raises(ValidationError) as info:
                _req("qwen2.5-14b-instruct", spec)
        finally:
            set_language(before)
        assert translate(lang, "speculative25_spec28.eagle_width", head=head.name, width=4096,
                         target=get_model("qwen2.5-14b-instruct").name, target_width=5120) in str(info.value)  # fmt: skip


def test_deepseek_v3_mtp_is_its_own_layer_less_the_shared_embedding_and_head_with_one_mla_layer_of_kv():
    v3 = get_model("deepseek-v3")
    counts = param_counts(v3)
    stored_mtp = sum(t.elements for t in tensors(v3) if t.mtp)
    assert round(counts.total / 1e9) == 671 and round(counts.checkpoint / 1e9) == 685  # DeepSeek's 671B, 685B on HF
    assert 13e9 < stored_mtp < 14e9  # "14B" of MTP with the FP8 block scales the checkpoint adds
    kept = sum(t.elements for t in mtp_tensors(v3))
    assert kept == stored_mtp - 2 * 129280 * 7168  # its embedding and shared head are the target's in vLLM
    spec = SpeculativeSettings(method="mtp", num_speculative_tokens=2)
    for kv_dtype, latent in (("bf16", (512 + 64) * 2), ("fp8", 512 + 64)):
        base = size(_req("deepseek-v3", None, gpus=8, gpu="h200-sxm-141g", kv_dtype=kv_dtype)).memory
        m = size(_req("deepseek-v3", spec, gpus=8, gpu="h200-sxm-141g", kv_dtype=kv_dtype)).memory
        assert m.draft_kv_bytes_per_token == latent and m.kv_bytes_per_token == base.kv_bytes_per_token + latent
        # every stored MTP tensor on a GPU, less its embedding and head copies (BF16, 129,280 rows split over 8 GPUs)
        stored = sum(tensor_bytes_on_gpu(t, v3, get_format(v3.native_weights), 8) for t in tensors(v3) if t.mtp)
        assert m.draft_weights_bytes == stored - 2 * (129280 // 8) * 7168 * 2
        assert base.kv_budget_bytes - m.kv_budget_bytes == m.draft_weights_bytes
        assert m.speculative_lookahead_tokens == 2
    r = size(_req("deepseek-v3", spec, gpus=8, gpu="h200-sxm-141g"))
    assert "'{\"method\":\"deepseek_mtp\",\"num_speculative_tokens\":2}'" in (r.vllm_command or "")


@pytest.mark.parametrize("model, key", [("qwen2.5-7b-instruct", "no_mtp"), ("qwen3-next-80b-a3b-instruct", "mtp_layers")])
def test_mtp_where_it_does_not_apply_is_refused_in_words(model, key):
    before = current_language()
    for lang in LANGS:
        set_language(lang)
        try:
            with pytest.raises(ValidationError) as info:
                _req(model, SpeculativeSettings(method="mtp", num_speculative_tokens=1), gpus=4)
        finally:
            set_language(before)
        assert translate(lang, f"speculative25_spec28.{key}", model=get_model(model).name) in str(info.value)


def test_ngram_holds_nothing_and_a_method_without_its_draft_is_refused():
    base = size(_req("qwen2.5-7b-instruct", None))
    r = size(_req("qwen2.5-7b-instruct", SpeculativeSettings(method="ngram", num_speculative_tokens=3)))
    assert r.memory.model_dump(exclude={"breakdown"}) == base.memory.model_dump(exclude={"breakdown"})
    assert '"method":"ngram"' in (r.vllm_command or "")
    with pytest.raises(ValidationError, match="EAGLE"):
        SpeculativeSettings(method="eagle3", num_speculative_tokens=3)
    with pytest.raises(ValidationError, match="MTP"):
        SpeculativeSettings(method="ngram", draft_model=get_model("qwen2.5-3b-instruct"), num_speculative_tokens=3)


def test_calc_speculative_reads_an_eagle3_heads_vocabulary_and_says_the_method(capsys, tmp_path):
    from advisor.cli import main

    folder = tmp_path / "eagle3-head"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(APERTUS_EAGLE3))
    args = ["calc", "--model", "llama-3.1-8b-instruct", "--speculative", "eagle3", "--draft-model", str(folder),
            "--num-speculative-tokens", "3", "--concurrency", "8", "--json"]  # fmt: skip
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["speculative_method"] == "eagle3" and data["draft_model"] == "eagle3-head"
    assert data["draft_weights_bytes"] == size(_req("llama-3.1-8b-instruct", SpeculativeSettings(
        method="eagle3", draft_model=_head(APERTUS_EAGLE3, "x"), num_speculative_tokens=3, draft_vocab_size=32000))).memory.draft_weights_bytes
    assert main(["calc", "--model", "deepseek-v3", "--gpu", "h200-sxm-141g", "--gpus", "8", "--speculative", "mtp",
                 "--num-speculative-tokens", "1", "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["speculative_method"] == "mtp"
    assert main(["calc", "--model", "qwen2.5-7b-instruct", "--speculative", "ngram", "--json"]) != 0  # no tokens a step
    assert translate("en", "speculative25_spec28.cli_tokens") in capsys.readouterr().err
    assert main(["calc", "--model", "qwen2.5-7b-instruct", "--speculative", "mtp", "--num-speculative-tokens", "1",
                 "--lang", "zh_CN"]) != 0  # fmt: skip
    assert translate("zh_CN", "speculative25_spec28.no_mtp", model=get_model("qwen2.5-7b-instruct").name) in capsys.readouterr().err
