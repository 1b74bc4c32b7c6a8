"""Weight formats and the bytes each tensor takes in them.

Rules follow the engines and the checkpoint formats, not a flat bits-per-weight:
- FP8 / INT8 W8A8 quantize the linear layers of the decoder blocks; embeddings, the LM head, norms and MoE
  routers stay 16-bit (vLLM, compressed-tensors). FP8 carries a per-tensor scale (a per-channel checkpoint adds one
  4-byte scale per output row, a fraction of a percent), or 128×128 block scales for
  DeepSeek-style checkpoints; INT8 a per-output-channel scale.
- MXFP4 (gpt-oss) quantizes the routed experts only: 4-bit values in `*_blocks` (two per byte) and an 8-bit
  power-of-two scale per 32 values in `*_scales`; the experts' biases stay 16-bit.
- GPTQ stores packed int32 `qweight`, per-group fp16 `scales`, packed `qzeros` and an int32 `g_idx` per input
  feature; AWQ the same without `g_idx`. Group size 128 by default.
- GGUF mixes block types per tensor the way llama.cpp's quantizer does (`llama_tensor_get_type`): e.g. Q4_K_M
  keeps the output head in Q6_K and upgrades attn_v/ffn_down to Q6_K on a subset of layers; 1-D tensors are F32.
  MXFP4_MOE (gpt-oss's GGUF, e.g. ggml-org/gpt-oss-20b-GGUF) stores the 3-D expert tensors in ggml's MXFP4 blocks
  (32 values in 17 bytes: one E8M0 scale byte and 16 bytes of 4-bit values, 4.25 bits) and every other 2-D weight,
  embeddings and output head included, in Q8_0; biases, norms, sinks and the router stay F32.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Literal

from advisor.sizing.tensors import Tensor

KV_DTYPES: dict[str, int] = {"bf16": 2, "fp16": 2, "fp8": 1}


@dataclass(frozen=True, slots=True)
class WeightFormat:
    id: str
    label: str
    engine: Literal["vllm", "llama.cpp"]
    compute: Literal["bf16", "fp16", "fp8", "int8"]  # dtype the matmuls run in
    bits: float  # nominal bits of a quantized weight (for display)
    vllm_flag: str | None = None  # --quantization value; None when the checkpoint says it or none is needed
    gguf_ftype: str | None = None
    group_size: int = 128
    gguf_file_tag: str | None = None  # how published file names spell the type, when not as gguf_ftype


WEIGHT_FORMATS: dict[str, WeightFormat] = {
    f.id: f
    for f in (
        WeightFormat("bf16", "BF16", "vllm", "bf16", 16),
        WeightFormat("fp16", "FP16", "vllm", "fp16", 16),
        WeightFormat("fp8", "FP8 (W8A8)", "vllm", "fp8", 8, vllm_flag="fp8"),
        WeightFormat("fp8-block", "FP8 (128×128 block scales)", "vllm", "fp8", 8),
        WeightFormat("int8", "INT8 (W8A8)", "vllm", "int8", 8),
        WeightFormat("gptq-int8", "GPTQ INT8 (g128)", "vllm", "fp16", 8, vllm_flag="gptq_marlin"),
        WeightFormat("gptq-int4", "GPTQ INT4 (g128)", "vllm", "fp16", 4, vllm_flag="gptq_marlin"),
        WeightFormat("awq-int4", "AWQ INT4 (g128)", "vllm", "fp16", 4, vllm_flag="awq_marlin"),
        # gpt-oss's own format: only the routed experts are MXFP4 (weight-only; the matmuls run in BF16 on
        # Hopper/Ampere, natively on Blackwell); attention, router, embeddings and head stay BF16.
        WeightFormat("mxfp4", "MXFP4 (MoE experts, g32)", "vllm", "bf16", 4.25, group_size=32),
        WeightFormat("gguf-q8_0", "GGUF Q8_0", "llama.cpp", "fp16", 8.5, gguf_ftype="Q8_0"),
        # llama.cpp's LLAMA_FTYPE_MOSTLY_MXFP4_MOE: the format gpt-oss's GGUFs ship in (experts MXFP4, the rest Q8_0);
        # its files are tagged "mxfp4" (ggml-org/gpt-oss-20b-GGUF: gpt-oss-20b-mxfp4.gguf)
        WeightFormat("gguf-mxfp4_moe", "GGUF MXFP4_MOE", "llama.cpp", "fp16", 4.25,
                     gguf_ftype="MXFP4_MOE", group_size=32, gguf_file_tag="MXFP4"),
        WeightFormat("gguf-q6_k", "GGUF Q6_K", "llama.cpp", "fp16", 6.5625, gguf_ftype="Q6_K"),
        WeightFormat("gguf-q5_k_m", "GGUF Q5_K_M", "llama.cpp", "fp16", 5.5, gguf_ftype="Q5_K_M"),
        WeightFormat("gguf-q4_k_m", "GGUF Q4_K_M", "llama.cpp", "fp16", 4.5, gguf_ftype="Q4_K_M"),
        WeightFormat("gguf-q4_0", "GGUF Q4_0", "llama.cpp", "fp16", 4.5, gguf_ftype="Q4_0"),
        WeightFormat("gguf-q3_k_m", "GGUF Q3_K_M", "llama.cpp", "fp16", 3.4375, gguf_ftype="Q3_K_M"),
        WeightFormat("gguf-q2_k", "GGUF Q2_K", "llama.cpp", "fp16", 2.625, gguf_ftype="Q2_K"),
    )
}


class UnknownFormatError(ValueError):
    pass


def get_format(name: str) -> WeightFormat:
    key = name.strip().lower().replace("_", "-") if not name.lower().startswith("gguf") else name.strip().lower()
    key = {"w8a8": "int8", "int8-w8a8": "int8", "awq": "awq-int4", "gptq": "gptq-int4"}.get(key, key)
    if key not in WEIGHT_FORMATS:
        raise UnknownFormatError(f"unknown weight format {name!r}; choose one of: {', '.join(WEIGHT_FORMATS)}")
    return WEIGHT_FORMATS[key]


# --- GGUF block types: (elements per block, bytes per block) ------------------------------------------------
GGML_TYPES: dict[str, tuple[int, int]] = {
    "F32": (1, 4), "F16": (1, 2), "BF16": (1, 2),
    "Q4_0": (32, 18), "Q4_1": (32, 20), "Q5_0": (32, 22), "Q5_1": (32, 24), "Q8_0": (32, 34), "IQ4_NL": (32, 18),
    "Q2_K": (256, 84), "Q3_K": (256, 110), "Q4_K": (256, 144), "Q5_K": (256, 176), "Q6_K": (256, 210),
    "MXFP4": (32, 17),  # ggml-common.h block_mxfp4: uint8_t e (E8M0 scale) + uint8_t qs[QK_MXFP4/2], QK_MXFP4 = 32
}  # fmt: skip
_BASE_TYPE = {"Q8_0": "Q8_0", "Q6_K": "Q6_K", "Q5_K_M": "Q5_K", "Q4_K_M": "Q4_K", "Q4_0": "Q4_0", "Q3_K_M": "Q3_K", "Q2_K": "Q2_K"}
# k-quants need rows that are a multiple of 256; llama.cpp falls back to these.
_K_FALLBACK = {"Q2_K": "Q4_0", "Q3_K": "Q4_0", "Q4_K": "Q5_0", "Q5_K": "Q5_1", "Q6_K": "Q8_0"}


def _use_more_bits(i: int, n: int) -> bool:
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def gguf_type(t: Tensor, ftype: str, n_layers: int, n_experts: int, n_gqa: int, tied: bool) -> str:
    """The GGML type llama.cpp's quantizer picks for one tensor (llama-quant.cpp, llama_tensor_get_type)."""
    if t.kind in ("norm", "bias", "router") or t.rows == 1:
        return "F32"
    if t.vision:  # llama.cpp keeps a vision tower in its own mmproj file, published in F16
        return "F16"
    if ftype == "MXFP4_MOE":  # llama-quant.cpp: "MoE tensors -> MXFP4, other tensors -> Q8_0" (head and embeddings too)
        new = "MXFP4" if t.expert else "Q8_0"
        return new if t.cols % 32 == 0 else "F16"  # tensor_type_fallback: no 32-wide block fits
    base = _BASE_TYPE[ftype]
    role = t.role.removesuffix("_exps").removesuffix("_shexp")
    i = t.layer
    new = base
    if t.kind == "lm_head" or (tied and t.kind == "embed"):
        new = "Q8_0" if ftype == "Q8_0" else "Q6_K"
    elif t.kind == "embed":
        new = base
    elif role == "attn_v":
        if ftype == "Q2_K":
            new = "Q4_K" if n_gqa >= 4 else "Q3_K"
        elif ftype == "Q3_K_M":
            new = "Q5_K" if i < 2 else "Q4_K"
        elif ftype in ("Q4_K_M", "Q5_K_M") and _use_more_bits(i, n_layers):
            new = "Q6_K"
        if n_experts == 8:
            new = "Q8_0"
    elif role == "attn_k" and n_experts == 8:
        new = "Q8_0"
    elif role == "ffn_down":
        if ftype == "Q2_K":
            new = "Q3_K"
        elif ftype == "Q3_K_M":
            new = "Q5_K" if i < n_layers // 16 else "Q4_K"
        elif ftype in ("Q4_K_M", "Q5_K_M") and _use_more_bits(i, n_layers):
            new = "Q6_K"
    elif role == "attn_output":
        if n_experts == 8:
            if ftype in ("Q2_K", "Q3_K_M"):
                new = "Q5_K" if ftype == "Q3_K_M" else "Q4_K"
        elif ftype == "Q2_K":
            new = "Q3_K"
        elif ftype == "Q3_K_M":
            new = "Q4_K"
    if new in _K_FALLBACK and t.cols % 256 != 0:
        new = _K_FALLBACK[new]
    return new


def gguf_bytes(t: Tensor, type_name: str) -> int:
    per_block, block_bytes = GGML_TYPES[type_name]
    return ceil(t.cols / per_block) * block_bytes * t.rows * t.count


def tensor_bytes(t: Tensor, fmt: WeightFormat, rows: int, cols: int, dtype_bytes: int = 2) -> int:
    """Bytes of one (possibly TP-sharded: rows × cols per GPU) tensor in a vLLM-style format."""
    n = t.count
    if not t.quantizable or fmt.id in ("bf16", "fp16") or (fmt.id == "mxfp4" and not t.expert):
        return rows * cols * n * dtype_bytes
    if fmt.id == "mxfp4":  # 4-bit elements, two per byte, and one 8-bit (E8M0) scale per 32 of them
        return (rows * cols // 2 + rows * ceil(cols / fmt.group_size)) * n
    if fmt.id == "fp8":
        return (rows * cols + 4 + 4) * n  # weight + fp32 weight scale + fp32 input scale
    if fmt.id == "fp8-block":
        return (rows * cols + 4 * ceil(rows / 128) * ceil(cols / 128)) * n  # DeepSeek weight_scale_inv
    if fmt.id == "int8":
        return (rows * cols + 4 * rows) * n  # per-output-channel fp32 scale
    if fmt.id in ("gptq-int4", "gptq-int8", "awq-int4"):
        bits = 4 if fmt.id.endswith("int4") else 8
        return packed_int_bytes(rows, cols, bits, fmt.group_size, g_idx=fmt.id.startswith("gptq")) * n
    raise UnknownFormatError(f"no byte rule for {fmt.id}")


def packed_int_bytes(rows: int, cols: int, bits: int, group_size: int, g_idx: bool) -> int:
    """One GPTQ/AWQ layer: ``bits``-bit weights packed in int32, an fp16 scale and a packed zero point per group of
    ``group_size`` inputs and output, and (GPTQ) an int32 ``g_idx`` per input."""
    groups = ceil(cols / group_size)
    return rows * cols * bits // 8 + groups * rows * 2 + groups * rows * bits // 8 + (cols * 4 if g_idx else 0)
