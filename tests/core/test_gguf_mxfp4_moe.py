"""gpt-oss's GGUF (llama.cpp's MXFP4_MOE) sized to the published llama-bench sizes, not to our formula (issue #28).

llama-bench prints a model's tensor data in GiB with two decimals and its element count in billions:
- https://github.com/ggml-org/llama.cpp/pull/16991: "gpt-oss 20B MXFP4 MoE | 11.27 GiB | 20.91 B"
- https://github.com/ggml-org/llama.cpp/pull/19922: "gpt-oss 120B MXFP4 MoE | 59.02 GiB | 116.83 B"
ggml-org/gpt-oss-20b-GGUF's single file gpt-oss-20b-mxfp4.gguf is 12,109,566,560 bytes (siblings size quoted in a
public test fixture; lmstudio-community's MXFP4 file of the same model is 12,109,565,632): tensor data plus ~12 MiB
of header and 201,088-token tokenizer.
"""

from __future__ import annotations

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SizingRequest
from advisor.sizing import size
from advisor.sizing.memory import weight_bytes
from advisor.sizing.quant import GGML_TYPES, get_format, gguf_type
from advisor.sizing.tensors import Tensor, tensors

GiB = 1024**3


def _llama_bench(nbytes: int) -> str:
    return f"{nbytes / GiB:.2f} GiB"  # llama-bench's own rounding


def test_mxfp4_block_is_ggml_s_17_bytes_for_32_values():
    # ggml-common.h: block_mxfp4 { uint8_t e; uint8_t qs[QK_MXFP4/2]; }, QK_MXFP4 = 32 -> 4.25 bits a weight
    assert GGML_TYPES["MXFP4"] == (32, 1 + 16)
    assert get_format("gguf-mxfp4_moe").bits == 17 * 8 / 32


def test_mxfp4_moe_puts_experts_in_mxfp4_and_every_other_weight_in_q8_0():
    """llama-quant.cpp: 'MoE tensors -> MXFP4, other tensors -> Q8_0', the output head and embeddings included."""
    experts = Tensor("ffn_down_exps", "linear", 2880, 2880, count=32, layer=3, expert=True)
    assert gguf_type(experts, "MXFP4_MOE", 24, 32, 8, False) == "MXFP4"
    for t in (Tensor("output", "lm_head", 201088, 2880), Tensor("token_embd", "embed", 201088, 2880),
              Tensor("attn_q", "linear", 4096, 2880, layer=0)):
        assert gguf_type(t, "MXFP4_MOE", 24, 32, 8, False) == "Q8_0", t.role
    for t in (Tensor("ffn_gate_inp", "router", 32, 2880, layer=0), Tensor("attn_sinks", "bias", 1, 64, layer=0)):
        assert gguf_type(t, "MXFP4_MOE", 24, 32, 8, False) == "F32", t.role


def test_gpt_oss_20b_gguf_is_the_llama_bench_size():
    model = get_model("gpt-oss-20b")
    data = weight_bytes(model, get_format("gguf-mxfp4_moe"), 1).all_gpus
    assert _llama_bench(data) == "11.27 GiB"
    assert f"{sum(t.elements for t in tensors(model) if not t.mtp) / 1e9:.2f} B" == "20.91 B"
    file_bytes = 12_109_566_560
    assert 0 < file_bytes - data < 16 * 1024**2  # the header and tokenizer, no more
    # the 4-bit k-quant the app used to offer in its place is another file: Q4_K falls back to Q5_0 on 2,880 columns
    assert weight_bytes(model, get_format("gguf-q4_k_m"), 1).all_gpus != data


def test_gpt_oss_120b_gguf_is_the_llama_bench_size():
    model = get_model("gpt-oss-120b")
    data = weight_bytes(model, get_format("gguf-mxfp4_moe"), 1).all_gpus
    assert _llama_bench(data) == "59.02 GiB"
    assert f"{sum(t.elements for t in tensors(model) if not t.mtp) / 1e9:.2f} B" == "116.83 B"


def _size(model: str, weights: str):
    return size(SizingRequest(model=get_model(model), gpu=get_gpu("h100-sxm-80g"), weights=weights), "en")


def test_gpt_oss_gguf_is_served_from_ggml_org_s_repository():
    r = _size("gpt-oss-20b", "gguf-mxfp4_moe")
    assert r.llama_cpp_command.startswith("llama-server -hf ggml-org/gpt-oss-20b-GGUF ")  # its model card's command
    assert r.memory.weights_bytes == weight_bytes(get_model("gpt-oss-20b"), get_format("gguf-mxfp4_moe"), 1).per_gpu
    assert not any("MXFP4_MOE" in a.text and a.kind == "warning" for a in r.advice)
    # a repository listed for the usual GGUF set still gets the type tag
    assert _size("qwen2.5-7b-instruct", "gguf-q4_k_m").llama_cpp_command.startswith(
        "llama-server -hf Qwen/Qwen2.5-7B-Instruct-GGUF:Q4_K_M ")


def test_mxfp4_moe_on_a_dense_model_says_it_is_q8_0():
    r = _size("qwen2.5-7b-instruct", "gguf-mxfp4_moe")
    assert any(a.kind == "warning" and "Q8_0" in a.text for a in r.advice)
    assert r.llama_cpp_command.startswith("llama-server -m Qwen2.5-7B-Instruct-MXFP4.gguf ")
    q8 = weight_bytes(get_model("qwen2.5-7b-instruct"), get_format("gguf-q8_0"), 1).all_gpus
    assert weight_bytes(get_model("qwen2.5-7b-instruct"), get_format("gguf-mxfp4_moe"), 1).all_gpus == q8
