"""Session 26, helper spec28 (issue #28): EAGLE-3 head presets for models in the catalog
(advisor/sizing/speculative_heads.py): the heads SGLang's SpecForge released (docs/community_resources/specbundle.md)
in the shape it trains them in (configs/<model>-eagle3.json), sized as vLLM loads an EAGLE-3 head; the checkpoint's
published bytes are said to be unknown where they are."""

from __future__ import annotations

import json

from advisor.catalog import get_gpu, get_model
from advisor.cli import main
from advisor.domain.sizing import SizingRequest, SpeculativeSettings
from advisor.sizing import size
from advisor.sizing.speculative import eagle_head_tensors
from advisor.sizing.speculative_heads import head_preset, head_presets


def test_the_presets_are_specforges_released_heads_for_catalog_models_in_its_training_shape():
    ids = {p.head.id for p in head_presets()}
    assert ids == {"eagle3-llama-3.1-8b-instruct-specforge", "eagle3-qwen3-30b-a3b-specforge", "eagle3-qwen3-235b-a22b-specforge"}
    llama = head_preset("eagle3-llama-3.1-8b-instruct-specforge")
    # SpecForge configs/llama3-8B-eagle3.json: one Llama-3.1-8B layer (4096 wide, 14336 MLP, 32/8 heads), vocabulary
    # 128,256, draft vocabulary 32,000; released as lmsys/SGLang-EAGLE3-Llama-3.1-8B-Instruct-SpecForge
    h = llama.head
    assert (h.num_layers, h.hidden_size, h.intermediate_size, h.num_attention_heads, h.num_kv_heads) == (1, 4096, 14336, 32, 8)
    assert (h.vocab_size, llama.draft_vocab_size) == (128256, 32000)
    assert h.hf_repo == llama.released[0] == "lmsys/SGLang-EAGLE3-Llama-3.1-8B-Instruct-SpecForge"
    for p in head_presets():
        assert p.method == "eagle3" and p.source.startswith("sgl-project/SpecForge configs/") and len(p.commit) == 40
        assert p.checkpoint_bytes is None  # not published here: unknown, not guessed
        for target in p.targets:
            m = get_model(target)
            spec = SpeculativeSettings(method="eagle3", draft_model=p.head, num_speculative_tokens=3, draft_vocab_size=p.draft_vocab_size)
            mem = size(SizingRequest(model=m, gpu=get_gpu("h200-sxm-141g"), context=4096, concurrency=1, gpus=8 if m.is_moe else 1,
                                     weights=m.native_weights, speculative=spec)).memory  # fmt: skip
            params = sum(t.elements for t in eagle_head_tensors(p.head, "eagle3", m.hidden_size, p.draft_vocab_size))
            assert 2 * params // (8 if m.is_moe else 1) < mem.draft_weights_bytes <= 2 * params + 8 * p.draft_vocab_size


def test_calc_takes_a_head_preset_by_id_with_its_draft_vocabulary_and_says_where_it_is_from(capsys):
    assert main(["calc", "--model", "llama-3.1-8b-instruct", "--speculative", "eagle3", "--draft-model",
                 "eagle3-llama-3.1-8b-instruct-specforge", "--num-speculative-tokens", "3", "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["draft_model"] == "eagle3-llama-3.1-8b-instruct-specforge"
    assert data["memory"]["draft_weights_bytes"] == data["draft_weights_bytes"] > 0
    # the 32,000-row LM head, not the 128,256-row one: the same bytes as the same head read from a config.json file
    split = 4096 * 8192 + 2 * 1024 * 8192 + 4096 * 4096 + 3 * 4096 * 14336 + 32000 * 4096
    whole = 3 * 4096 * 4096 + 4 * 4096
    assert data["draft_weights_bytes"] == 2 * (split + whole) + 8 * 32000
    assert data["draft_preset"]["checkpoint_bytes"] is None and data["draft_preset"]["source"].endswith("llama3-8B-eagle3.json")
    assert "lmsys/SGLang-EAGLE3-Llama-3.1-8B-Instruct-SpecForge" in data["vllm_command"]
