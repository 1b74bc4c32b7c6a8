"""Speed model: one engine step costs the roofline time of its linear layers plus that of its attention, + overhead.

The two run as separate kernels one after the other, so each is bound on its own (a per-operator roofline, as
LLM-Viewer computes it: hahnyuan/LLM-Viewer hardwares/roofline_model.py bounds every node by max(OPs / peak,
bytes / bandwidth) and sums the nodes): linear layers = max(FLOPs of 2 × active non-embedding parameters per
token (+ the LM head per sampled sequence) over the GPU's measured GEMM rate (gemm.py; peak × MFU where nothing
was measured), weights read (for MoE, only the experts the batch touches) over peak bandwidth × the share the GPU's
decode-shaped GEMMs were measured to stream their weights at (gemm.py decode_read_share: 0.66 on an A100, 0.77
on an H100; MBU where nothing was measured, and for the routed experts, read by the fused-MoE kernel)); attention =
max(4 × layers × heads × head_dim per query–key pair over peak × MFU, KV cache read over bandwidth × MBU), where a
local layer (Llama 4's chunked, Gemma 3's and gpt-oss's sliding-window layers) meets at most its chunk or window of
keys per query, and a linear-attention layer reads its constant-size state instead.
Prefill is compute-bound in both; small-batch decode is bandwidth-bound in both; a large decode batch has compute-bound GEMMs and bandwidth-bound attention, whose times
add up (a single max over the summed FLOPs and bytes would hide one behind the other). The efficiency factors
are the named settings in SpeedFactors; low/high estimates use their ranges.

Tensor parallelism adds the all-reduces of the row-parallel layers (attention output and MLP/MoE down
projections: 2 per layer, on every step's hidden states), which do not overlap the GEMMs in vLLM/SGLang: each
costs a fixed latency plus the ring's 2(n−1)/n share of the message over the link's achievable bus bandwidth
(ALLREDUCE_* below, with their sources). ``tp_efficiency`` now only scales the compute side (smaller, less
efficient GEMM shards); the bandwidth side reads each GPU's weight shard at the same MBU as on one GPU, since the
communication that the per-doubling factor used to stand for is counted explicitly (TP 2 train rows of
bench/predictor_accuracy.py: decode was over-predicted by 12 % with both applied, within 2 % with this split).

On the GPUs NVIDIA measured vLLM's GEMMs per shape (A100, H100, H200, L40S, B200), the 16-bit dense linear layers
are instead timed one by one at the step's row count from those latencies (gemm_shapes.py), which replaces both the
GEMM rate and the weight-read share for them. Every step also carries each layer's small norm/activation kernels
and the embedding lookup (ELEMENTWISE_OP_FIXED_S, SpeedFactors.step_overhead_ms), as NVIDIA aiconfigurator's step
model counts them.

Measured per-call costs the bytes do not show (each constant below with its source): a fused-MoE call's fixed time
per MoE layer (MOE_LAYER_FIXED_S), an MLA attention block's fixed time per layer (MLA_LAYER_FIXED_S) or, for other
attention, the attention kernel's (ATTENTION_CALL_FIXED_S), and Marlin's
slower weight streaming on Hopper for AWQ/GPTQ dense layers (MARLIN_HOPPER_READ_SHARE) and INT4 Marlin's slower
compute-bound (prefill) GEMMs on Ampere (MARLIN_AMPERE_COMPUTE_SHARE).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from math import log2
from typing import Any

import numpy as np

from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.domain.sizing import SpeedFactors
from advisor.sizing.allreduce import AllReduceTimes, allreduce_seconds, measured_points
from advisor.sizing.gemm import GemmRate, ReadShare, decode_read_share, gemm_rate
from advisor.sizing.gemm_shapes import ShapeTimes, applies, mla_block_tensor, shape_times, table_key
from advisor.sizing.links import fast_link, link_kind
from advisor.sizing.memory import KvLayout, kv_layout, tensor_bytes_on_gpu, weight_bytes
from advisor.sizing.moe_kernels import expert_share
from advisor.sizing.quant import WeightFormat, get_format
from advisor.sizing.tensors import param_counts, tensors
from advisor.sizing.unquantized import checkpoint_rules, kept_16bit

# One all-reduce's fixed latency (kernel launch, synchronisation, one round over the link), per interconnect.
# NVLink: vLLM's custom all-reduce on H100 measured 8.5-11.8 us for 0.5-32 KB at TP 2/4/8 (sgl-project/sglang
# PR #2904, "unit test performance in H100", vllm column; eager mode). PCIe: NCCL on 8 x RTX 4090 measured
# 40-42 us for an 8-byte all-reduce (NVIDIA/nccl issue #1530); vLLM's custom all-reduce is off on > 2 PCIe GPUs.
# A vendor mesh (Infinity Fabric, HCCS: advisor.sizing.links): no published small-message time for RCCL/HCCL on
# those nodes was found, so it keeps the PCIe figure of a library all-reduce (the slower side: unknown is not fast).
ALLREDUCE_LATENCY_S = {"nvlink": 9e-6, "mesh": 40e-6, "pcie": 40e-6}
# Achievable bus bandwidth as a share of one direction of the link (GpuSpec.interconnect_bytes_per_s is both
# directions): NVLink ~0.8 (nccl-tests on 8 x H100/H200 reach 360-475 GB/s bus bandwidth of 450 GB/s per
# direction, NVIDIA/nccl-tests issue #272), PCIe ~0.5 (4-8 PCIe GPUs: 28-35 GB/s of 64, NVIDIA/nccl issue #1639).
# A vendor mesh keeps PCIe's 0.5 of its aggregate link bandwidth (no nccl-tests-like figure for it was found): MI300X
# 896 GB/s over 7 Infinity Fabric links (AMD's MI300X page, grade A), 910B 392 GB/s over 7 HCCS links of 56
# (third-party reports, grade C; shared/reference/deployment-facts.md GPU table), 3-6x a PCIe card's 64 GB/s.
ALLREDUCE_BUS_SHARE = {"nvlink": 0.8, "mesh": 0.5, "pcie": 0.5}
# The link's bandwidth where the catalog has none (bidirectional, bytes/s); a mesh always has one (``link_kind``).
DEFAULT_LINK_BYTES_PER_S = {"nvlink": 900e9, "mesh": 0.0, "pcie": 64e9}
# Fixed time of one MoE layer's fused-experts call at decode batch sizes (routing, moe_align_block_size, the two
# grouped GEMMs' tile set-up), on top of reading the touched experts. sglang's fused_moe_triton tuning run for
# DeepSeek-R1 w8a8 TP8 (sgl-project/sglang PR #11816, "Before"): 52.65 us at batch 1, 60.35 us at batch 2; the
# step from 1 to 2 tokens (~8 more experts, +44 MB per GPU in 7.7 us) runs at the roofline bandwidth, so the
# intercept, ~45 us, is the fixed part. Counted in a step's memory time (hidden once the step is compute-bound).
MOE_LAYER_FIXED_S = 45e-6
# Marlin on Hopper. vLLM runs AWQ/GPTQ linear layers (awq_marlin, gptq_marlin) through Marlin GEMMs. Marlin was
# written for Ampere/Ada ("Marlin is not yet optimized for Hopper") and reaches the ideal 3.87x speed-up over
# FP16 at batch 1 there (A10: github.com/IST-DASLab/marlin README), i.e. it streams INT4 weights as fast as FP16
# ones, so nothing changes on those GPUs. On an H100 at one row on n = k = 8192 (channelwise scales) marlin-w4a16
# runs at 4.98 TFLOP/s, marlin-w8a16 at 3.46, cuBLAS BF16 (torch-w16a16) at 2.30 (inclusionAI/humming PR #2):
# speed-ups of 2.17x and 1.50x where the bytes allow 4x and 2x, so a Marlin GEMM's weights stream at 0.54 (INT4)
# / 0.75 (INT8) of the rate a BF16 GEMM reaches on the same GPU. Those shares scale MBU for the dense Marlin
# layers on Hopper (none on Blackwell: no figure). Not for MoE experts: vLLM's fused Marlin MoE call measured on
# an H100 in CUDA graphs (NVIDIA ai-dynamo/aiconfigurator, systems/data/h100_sxm/moe/vllm/0.14.0, int4_wo) takes
# 0.033 ms for DeepSeek-V3's TP-8 shape at one token and 0.107 ms for Mixtral's (176 MB of INT4), no slower
# than the unscaled MBU plus MOE_LAYER_FIXED_S gives (0.054 / 0.115 ms).
MARLIN_FLAGS = ("awq_marlin", "gptq_marlin")
MARLIN_HOPPER_READ_SHARE = {4: (4.98 / 2.30) / (16 / 4), 8: (3.46 / 2.30) / (16 / 8)}
# Marlin's compute-bound (prefill) rate on Ampere. Weight-only quantization cannot speed up a GEMM once it is
# compute-bound, and Marlin dequantizes every weight tile inside its main loop, so past ~128 rows it runs below the
# FP16 GEMM ("for batchsize > 128 ... weight-only quantization can generally not be faster": Marlin's author,
# IST-DASLab/marlin issue #21). Measured end to end in vLLM: Llama-2 7B / 13B, 1,024-token prompts, batches of 1-64,
# TTFT with 4-bit group-128 Marlin ("marlin-g128") against FP16 (HandH1998/QQQ issue #15, 2024-09-29; the thread
# names no GPU, its FP16 column prefills the 7B's 1,024 tokens at 2 x 6.7 G x 1,024 / 71.63 ms = 192 TFLOP/s, 61 %
# of an A100's 312: an Ampere rate). The TTFT ratios below hold the attention too (~2 % of a 1,024-token prompt's
# FLOPs), so the linear layers' own slow-down is if anything a little larger. vLLM runs AWQ and GPTQ INT4 checkpoints
# through this kernel on Ampere (awq_marlin / gptq_marlin); the quantized dense layers' FLOPs run at 1 / median of
# these ratios of the GEMM rate. Not applied on Ada, Hopper or Blackwell (no figure: unknown, left as it was), to
# INT8 Marlin (none measured), or to MoE experts (their fused-MoE rate is measured per kernel: moe_kernels.py).
MARLIN_G128_TTFT_OVER_FP16 = (78.35 / 71.63, 313.15 / 270.68, 318.39 / 274.95, 343.35 / 294.64,  # 7B, batch 1/4/16/64
                              146.03 / 133.48, 293.79 / 241.39, 297.37 / 245.51, 317.10 / 285.86)  # 13B  # fmt: skip
MARLIN_AMPERE_COMPUTE_SHARE = 1.0 / float(np.median(MARLIN_G128_TTFT_OVER_FP16))
# Fixed time of one MLA attention block (DeepSeek-V2/V3, Kimi-K2) per layer per step, on top of reading its weights
# and latent KV: the small kernels between the GEMMs (q_a/kv_a norms, RoPE, the W_UK / W_UV batched matmuls, the
# cache write, the attention kernel's set-up and split-KV combine). vLLM's whole DeepseekV2MLAAttention module at
# decode, batch 1, 2-64 tokens of context, BF16 weights, in CUDA graphs on an H100, measured for 1-128 heads per
# GPU (NVIDIA ai-dynamo/aiconfigurator, systems/data/h100_sxm/mla/vllm/0.19.0 and 0.24.0,
# mla_generation_module_perf): latency = 64.7 / 63.9 us + the block's weight bytes at 2.72 / 2.56 TB/s (0.81 /
# 0.76 of peak, i.e. the roofline's MBU): e.g. 0.095 ms at 16 heads (TP 8), 0.071 ms at 1 head, 0.20 ms at 128.
MLA_LAYER_FIXED_S = 64e-6
# Fixed time of one (non-MLA) attention kernel call per layer per step, on top of its KV read: vLLM's FlashAttention
# decode kernel in CUDA graphs at batch 1, 8 KV heads of 128, 2-32 tokens of context, takes 11.3 us on an H100 and
# 12.5 us on an A100 (fit over 2-32k tokens: 11.5 / 15.0 us + the KV at 0.83 / 0.70 of peak bandwidth;
# ai-dynamo/aiconfigurator, systems/data/{h100,a100}_sxm/attention/vllm/0.14.0, generation_attention_perf).
# The MLA constant above already contains its attention kernel.
ATTENTION_CALL_FIXED_S = 12e-6
# The small kernels between the GEMMs and attention of every decoder layer, as NVIDIA's aiconfigurator composes a step
# (ai-dynamo/aiconfigurator@095f58a, aic-core/src/aiconfigurator_core/sdk/models/llama.py: per layer the ElementWise ops
# add_norm_1 and add_norm_2, (2h + 2h) x 2 bytes per token each, and the gated activation, (2I + I) x 2 bytes per token
# over the GPU's share of I; operators/elementwise.rs + attention.rs mem_op_latency: bytes / (bandwidth x
# mem_bw_empirical_scaling_factor 0.8) + mem_empirical_constant_latency 3 us, systems/{a100,h100,h200,b200}_sxm.yaml).
# A MoE layer's activation runs inside the fused-MoE call (MOE_LAYER_FIXED_S), so it has the two add+norm ops only.
ELEMENTWISE_OP_FIXED_S = 3e-6
ELEMENTWISE_BW_SHARE = 0.8
# StepCostModel._token_terms holds at most this many batch shapes (a predicted level uses a few thousand)
TOKEN_TERMS_KEPT = 1 << 16
ALLREDUCES_PER_LAYER = 2  # row-parallel attention output + MLP (or MoE) down projection
ACTIVATION_BYTES = 2  # bf16/fp16 hidden states, also with FP8/INT4 weights
# Engines whose all-reduce resources/gpus/allreduce.json measured: vLLM's custom all-reduce, which SGLang ports.
# TensorRT-LLM's own (fused with the norm) keeps the formula.
ALLREDUCE_MEASURED_FOR = ("vllm", "sglang")


def allreduce_params(model: ModelSpec, gpu: GpuSpec, gpus: int) -> tuple[int, float, float, float]:
    """(all-reduces per step, latency s, bytes moved per token per all-reduce, bus bytes/s); zeros at TP 1."""
    if gpus <= 1:
        return 0, 0.0, 0.0, 1.0
    link = link_kind(gpu)
    per_direction = (gpu.interconnect_bytes_per_s or DEFAULT_LINK_BYTES_PER_S[link]) / 2
    ring_share = 2.0 * (gpus - 1) / gpus
    return (
        ALLREDUCES_PER_LAYER * model.num_layers,
        ALLREDUCE_LATENCY_S[link],
        model.hidden_size * ACTIVATION_BYTES * ring_share,
        per_direction * ALLREDUCE_BUS_SHARE[link],
    )


def tp_efficiency(gpu: GpuSpec, gpus: int, factors: SpeedFactors) -> float:
    """Share of linear scaling kept with `gpus` GPUs: the per-doubling factor of the interconnect."""
    if gpus <= 1:
        return 1.0
    # a vendor mesh moves hundreds of GB/s as NVLink does: the PCIe factor's extra loss is not its (s23)
    per_doubling = factors.tp_efficiency_nvlink if fast_link(gpu) else factors.tp_efficiency_pcie
    return per_doubling ** log2(gpus)


def marlin_read_share(fmt: WeightFormat, gpu: GpuSpec) -> float:
    """Rate at which the format's quantized weights stream relative to BF16 ones (1.0 unless Marlin on Hopper)."""
    if fmt.vllm_flag not in MARLIN_FLAGS or gpu.architecture != "Hopper":
        return 1.0
    return MARLIN_HOPPER_READ_SHARE.get(int(fmt.bits), 1.0)


def marlin_compute_share(fmt: WeightFormat, gpu: GpuSpec) -> float:
    """Rate at which the format's quantized dense GEMMs compute relative to 16-bit ones (1.0 unless INT4 Marlin on
    Ampere: MARLIN_AMPERE_COMPUTE_SHARE)."""
    if fmt.vllm_flag not in MARLIN_FLAGS or int(fmt.bits) != 4 or gpu.architecture != "Ampere":
        return 1.0
    return MARLIN_AMPERE_COMPUTE_SHARE


@lru_cache(maxsize=512)  # pure in the model and the format (value-hashed): a scan of every tensor per setup built
def quantized_dense_flops_per_token(model: ModelSpec, fmt: WeightFormat) -> float:
    """Whole model, the FLOPs one token spends in the quantized linear layers outside the routed experts (the LM
    head, computed per sampled sequence, is not one of them)."""
    rules = checkpoint_rules(model, fmt.id)
    return 2.0 * sum(t.elements for t in tensors(model) if t.quantizable and t.kind == "linear" and not t.expert
                     and not t.mtp and not kept_16bit(t, model, rules))  # fmt: skip


def _embedding_gather_saving(model: ModelSpec, fmt: WeightFormat, gpus: int) -> int:
    """Bytes of the input embedding table a step does not read: the lookup gathers one row per token (vLLM's
    VocabParallelEmbedding is an index), so an untied table is not streamed like a weight matrix. A tied one is
    the output head too, which does read all of it."""
    if model.tie_word_embeddings:
        return 0
    table = next(t for t in tensors(model) if t.role == "token_embd")
    return tensor_bytes_on_gpu(table, model, fmt, gpus)


@lru_cache(maxsize=512)  # pure in the model, the format and the GPU count (value-hashed): a scan of every tensor
def quantized_dense_bytes(model: ModelSpec, fmt: WeightFormat, gpus: int) -> float:
    """Per GPU, the bytes of the quantized linear layers outside the routed experts (what a Marlin GEMM reads)."""
    rules = checkpoint_rules(model, fmt.id)  # layers the checkpoint keeps in 16 bits run as plain GEMMs
    return float(sum(tensor_bytes_on_gpu(t, model, fmt, gpus) for t in tensors(model)
                     if t.quantizable and not t.expert and not t.mtp and not kept_16bit(t, model, rules)))  # fmt: skip


def compute_dtype(fmt: WeightFormat, gpu: GpuSpec) -> str:
    if fmt.compute == "fp8" and not gpu.fp8_tflops_dense:
        return "bf16"  # no FP8 tensor cores (Ampere and older): weights are upcast (Marlin W8A16)
    if fmt.compute == "int8" and not gpu.int8_tops_dense:
        return "bf16"
    return fmt.compute


def _routed_expert_rate(
    model: ModelSpec, fmt: WeightFormat, dtype: str, gpu: GpuSpec, gpus: int, factors: SpeedFactors, scale: float
) -> tuple[float, float, float]:
    """(FLOPs of the routed experts one token passes through, the rate the engine's fused-MoE kernel runs them at
    on the whole group, its share of peak); zeros for a dense model or where no kernel was measured (the dense GEMM
    rate applies)."""
    if not model.is_moe or not factors.kernel_engine:
        return 0.0, 0.0, 0.0
    share = expert_share(factors.kernel_engine, factors.engine_version, gpu.architecture, fmt, dtype, model.num_experts)
    if not share:
        return 0.0, 0.0, 0.0
    flops = 2.0 * sum(model.moe_layers) * model.num_experts_per_tok * 3 * model.hidden_size * model.moe_intermediate_size
    return flops, gpu.tflops_for(dtype) * 1e12 * gpus * share * scale, share


def _local_attention(model: ModelSpec, layout: KvLayout) -> dict[str, Any]:
    """The StepCostModel fields of a model's local layers: chunked (Llama 4) or sliding-window (Gemma 3, gpt-oss),
    whichever it has; a model with neither, or with both kinds (none known), keeps every layer reading the context."""
    kinds = [(n, w) for n, w in ((layout.chunked_layers, layout.chunk), (layout.sliding_layers, layout.window)) if n and w]
    if len(kinds) != 1 or model.is_mla:
        return {}
    layers, window = kinds[0]
    return {
        "window_tokens": int(window),
        "window_bytes_per_token": float(layers * layout.per_layer_token_bytes),
        "window_flops_per_pair": 4.0 * layers * model.num_attention_heads * model.head_dim,
    }


def _mla_block(model: ModelSpec, fmt: WeightFormat, gpus: int) -> tuple[float, float]:
    """An MLA model's attention projections in shape mode: (FLOPs per token, whole model; bytes per GPU)."""
    block = [t for t in tensors(model) if mla_block_tensor(t, model) and not t.mtp]
    return 2.0 * sum(t.elements for t in block), float(sum(tensor_bytes_on_gpu(t, model, fmt, gpus) for t in block))


def _elementwise(model: ModelSpec, gpus: int) -> tuple[float, float]:
    """(fixed seconds, bytes per token) of the per-layer ElementWise ops (ELEMENTWISE_OP_FIXED_S): per step, per GPU."""
    moe = sum(model.moe_layers) if model.is_moe else 0
    dense_layers = model.num_layers - moe
    width = -(-model.intermediate_size // gpus) if model.intermediate_size else 0
    ops = 2 * model.num_layers + dense_layers
    per_token = model.num_layers * 2 * (2 * model.hidden_size + 2 * model.hidden_size) * 2 + dense_layers * (2 * width + width) * 2
    return ops * ELEMENTWISE_OP_FIXED_S, float(per_token)


@dataclass(frozen=True, slots=True)
class StepCostModel:
    """Cost of one engine step for a tensor-parallel group of identical GPUs."""

    linear_flops_per_token: float  # whole model, non-embedding linear layers
    lm_head_flops: float  # per sequence that produces logits
    attn_flops_per_pair: float  # per (query token, key token) pair, all layers
    dense_bytes: float  # per GPU, read every step (attention, dense MLPs, shared experts, norms, head)
    expert_bytes: float  # per GPU, one routed expert of one MoE layer
    moe_layers: int
    num_experts: int
    experts_per_tok: int
    kv_bytes_per_token: float  # per GPU, all layers
    flops_per_s: float  # achievable by the linear layers' GEMMs, whole group
    attn_flops_per_s: float  # achievable by attention, whole group (peak × MFU)
    bytes_per_s: float  # achievable, per GPU
    overhead_s: float
    moe_layer_fixed_s: float = 0.0  # per MoE layer per step (fused-experts call), see MOE_LAYER_FIXED_S
    allreduces: int = 0  # per step (2 per layer with tensor parallelism, 0 on one GPU)
    allreduce_latency_s: float = 0.0
    allreduce_bytes_per_token: float = 0.0  # per all-reduce, what each GPU sends (ring share included)
    allreduce_bytes_per_s: float = 1.0
    # Marlin on Hopper (MARLIN_HOPPER_READ_SHARE): the quantized dense (non-expert) bytes stream at
    # `quant_read_share` of the BF16 rate; the step reads them as if they were 1/share times as many bytes
    quant_dense_bytes: float = 0.0  # per GPU, part of dense_bytes
    quant_read_share: float = 1.0
    # INT4 Marlin on Ampere (MARLIN_AMPERE_COMPUTE_SHARE): the quantized dense layers' FLOPs (whole model, per token)
    # compute at `quant_compute_share` of flops_per_s
    quant_flops_per_token: float = 0.0
    quant_compute_share: float = 1.0
    attn_fixed_s: float = 0.0  # per step, all layers: MLA_LAYER_FIXED_S or ATTENTION_CALL_FIXED_S per layer
    gemm: GemmRate | None = None  # the measured rate flops_per_s comes from (gemm.py); None: peak × MFU
    # front-end CPU per streamed token (SpeedFactors.stream_token_us): the front end works beside the GPU, so a
    # step whose tokens take longer to stream than to compute lasts as long as the streaming
    stream_token_s: float = 0.0
    # routed experts run in the fused-MoE grouped GEMM, far below the dense GEMM rate (moe_kernels.py); 0: no MoE
    expert_flops_per_token: float = 0.0  # whole model, the experts one token is routed to
    expert_flops_per_s: float = 0.0  # whole group
    expert_share: float = 0.0  # the measured share of dense peak behind expert_flops_per_s
    # engine-core CPU per scheduled request per step (SpeedFactors.scheduler_us_per_seq): beside the GPU step when the
    # engine schedules asynchronously, else between steps
    scheduler_s_per_seq: float = 0.0
    scheduler_overlaps: bool = True
    # the model runner's CPU work per step that a synchronous loop leaves between two GPU steps (input preparation,
    # the sampler's launches, the sampled tokens' copy back; SpeedFactors.runner_us_per_step): 0 where it overlaps
    runner_s_per_step: float = 0.0
    # more of it for a step that prefills, where the gap above is a share of a longer one (vLLM V0 multi-step: a window
    # of N decode steps pays one scheduler call's gap, N-th each, but a prefill is a scheduler call of its own, a group
    # of one step: v0.6.0's core/scheduler.py 866-868 and 917-923 with 1432-1443, so it pays the whole gap)
    runner_s_prefill_extra: float = 0.0
    peak_flops_per_s: float = 0.0  # dense tensor peak of the whole group in the compute dtype
    # measured all-reduce times of this GPU class and TP degree (allreduce.py); None: the formula
    allreduce_points: AllReduceTimes | None = None
    allreduce_message_bytes_per_token: float = 0.0  # hidden × activation bytes: what one token adds to a message
    # linear-attention layers (Qwen3-Next's Gated DeltaNet): each decoding sequence's constant-size state is read and
    # written back once a step (vLLM's fused recurrent gated-delta-rule kernel loads the initial state and stores the
    # final one); per GPU, all such layers, both directions. It does not grow with the context.
    state_bytes_per_seq: float = 0.0
    # DeepSeek-V3.2's sparse attention (vLLM's FlashMLA sparse decode): each decoding query reads the latents of at
    # most `sparse_topk` tokens its indexer selected, while the indexer reads every cached key (its own small cache,
    # `indexer_bytes_per_token` of kv_bytes_per_token) and scores it (`indexer_flops_per_pair`, all layers). 0: dense.
    sparse_topk: int = 0
    indexer_bytes_per_token: float = 0.0
    indexer_flops_per_pair: float = 0.0
    # Local layers: Llama 4's chunked layers and sliding-window layers (Gemma 3, gpt-oss) attend to at most
    # `window_tokens` keys per query. vLLM's chunked local attention splits each sequence into virtual batches of
    # its attention_chunk_size-aligned chunk (vllm/v1/attention/backends/utils.py,
    # make_local_attention_virtual_batches: seqlens_k_local ≤ attn_chunk_size), as transformers' Llama 4 chunked
    # mask does; FlashAttention's window_size skips the key blocks left of a sliding window. Those layers' share of
    # kv_bytes_per_token and attn_flops_per_pair (per GPU, all such layers); 0: every layer reads the whole context.
    window_tokens: int = 0
    window_bytes_per_token: float = 0.0
    window_flops_per_pair: float = 0.0
    # The dense weights (everything but the routed experts) go through the GEMMs whose decode-shaped timings NVIDIA
    # measured per GPU (gemm.py decode_read_share): they stream at that share of the bandwidth, per GPU; 0: at
    # bytes_per_s (MBU), where nothing was measured or the user set MBU.
    weight_bytes_per_s: float = 0.0
    read_share: ReadShare | None = None
    # The dense linear layers timed shape by shape from vLLM's measured GEMM latencies (gemm_shapes.py) on the GPUs
    # NVIDIA measured, for 16-bit and FP8 dense layers: they replace flops_per_s / dense_bytes_per_s for those layers; the
    # routed experts keep their own rate and reads. Scaled like the MFU (rows past the GPU's ridge) or the MBU
    # (below it) for the low/high estimates. None: the per-GPU rate and read share.
    shape_times: ShapeTimes | None = None
    shape_scale_compute: float = 1.0
    shape_scale_read: float = 1.0
    routed_flops_per_token: float = 0.0  # whole model, the routed experts one token passes through (shape mode)
    # shape mode, MLA models: the attention blocks' projections are not per-shape GEMMs (gemm_shapes.MLA_BLOCK_ROLES:
    # their small-kernel time is in MLA_LAYER_FIXED_S) but read and computed as in the rate mode
    block_flops_per_token: float = 0.0  # whole model
    block_bytes: float = 0.0  # per GPU
    # aiconfigurator's per-layer small kernels (two add+norm and one activation ElementWise op per decoder layer, each
    # a fixed time + its bytes at ELEMENTWISE_BW_SHARE of the bandwidth): per step, all layers; see ELEMENTWISE_OP_FIXED_S
    elementwise_fixed_s: float = 0.0
    elementwise_bytes_per_token: float = 0.0  # per GPU, all layers
    elementwise_bytes_per_s: float = 1.0
    # step_seconds' terms that depend on the step's token counts alone (linear layers, all-reduces, small kernels), per
    # (tokens, logits): the simulator asks for the same few thousand batch shapes millions of times, and working them
    # out (per-shape GEMM tables, routed experts) was a quarter of a predicted level's time. Not part of the model.
    _token_terms: dict[tuple[int, int], tuple[float, float, float]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    # _linear_seconds' weight-read side where it does not depend on the step's tokens (no routed experts, no per-shape
    # table): worked out at the first step and kept here (one float, or none yet). Not part of the model.
    _fixed_read: list[float] = field(default_factory=list, init=False, repr=False, compare=False)

    def decode_attention(self, decode_seqs: int, kv_tokens_read: float) -> tuple[float, float]:
        """(FLOPs, bytes) of the decode queries' attention over ``kv_tokens_read`` cached tokens in all. Sparse
        attention reads at most top-k latents per sequence, a local layer at most its window or chunk:
        min(Σ contexts, sequences × k) bounds Σ min(context, k) from above, equal to it once every context is past k."""
        if not self.sparse_topk and not self.window_tokens:
            return kv_tokens_read * self.attn_flops_per_pair, kv_tokens_read * self.kv_bytes_per_token
        flops_pair, bytes_token = self.attn_flops_per_pair, self.kv_bytes_per_token
        flops = read = 0.0
        if self.window_tokens:
            local = min(kv_tokens_read, decode_seqs * self.window_tokens)
            flops, read = local * self.window_flops_per_pair, local * self.window_bytes_per_token
            flops_pair -= self.window_flops_per_pair
            bytes_token -= self.window_bytes_per_token
        if not self.sparse_topk:
            return flops + kv_tokens_read * flops_pair, read + kv_tokens_read * bytes_token
        selected = min(kv_tokens_read, decode_seqs * self.sparse_topk)
        flops += selected * flops_pair + kv_tokens_read * self.indexer_flops_per_pair
        read += selected * (bytes_token - self.indexer_bytes_per_token) + kv_tokens_read * self.indexer_bytes_per_token
        return flops, read

    def prefill_attention_flops(self, prefill_tokens: int, pairs: float) -> float:
        """Attention FLOPs of a step's prompt chunks (``pairs`` causal query-key pairs over ``prefill_tokens``
        queries): a local layer's query meets at most its window or chunk of keys, so its pairs are at most
        tokens × window."""
        if not self.window_tokens:
            return pairs * self.attn_flops_per_pair
        local = min(pairs, prefill_tokens * self.window_tokens)
        return pairs * (self.attn_flops_per_pair - self.window_flops_per_pair) + local * self.window_flops_per_pair

    @property
    def gemm_basis(self) -> str:
        """Where flops_per_s comes from: "measured", "architecture" (gemm.py) or "mfu"."""
        return self.gemm.basis if self.gemm else "mfu"

    @property
    def dense_bytes_per_s(self) -> float:
        """Per GPU, the rate the dense (non-expert) weights stream at: the measured decode GEMM share, else MBU."""
        return self.weight_bytes_per_s or self.bytes_per_s

    def weight_read_seconds(self, experts_touched: float) -> float:
        """Seconds to stream one step's weights: dense (at the GPU's measured GEMM read rate) + touched experts (at
        MBU), the Marlin-on-Hopper share applied."""
        dense = self.dense_bytes + (1.0 / self.quant_read_share - 1.0) * self.quant_dense_bytes
        experts = self.moe_layers * experts_touched * self.expert_bytes
        return dense / self.dense_bytes_per_s + experts / self.bytes_per_s

    @classmethod
    def build(
        cls,
        model: ModelSpec,
        weights: str | WeightFormat,
        kv_dtype: str,
        gpu: GpuSpec,
        gpus: int = 1,
        factors: SpeedFactors | None = None,
        *,
        mfu: float | None = None,
        mbu: float | None = None,
    ) -> StepCostModel:
        factors = factors or SpeedFactors()
        fmt = weights if isinstance(weights, WeightFormat) else get_format(weights)
        counts = param_counts(model)
        wb = weight_bytes(model, fmt, gpus)
        moe_layers = sum(model.moe_layers) if model.is_moe else 0
        per_expert = wb.experts_per_gpu / (moe_layers * model.num_experts) if moe_layers else 0.0
        lm_head = 2.0 * model.vocab_size * model.hidden_size
        active_linear = counts.active - counts.embedding
        if model.is_mla:
            attn_pair = 2.0 * model.num_layers * model.num_attention_heads * (
                model.qk_nope_head_dim + model.qk_rope_head_dim + model.v_head_dim
            )
        else:
            # linear-attention layers (Gated DeltaNet) read a constant-size state, not the context's keys and values
            attn_pair = 4.0 * (model.num_layers - model.num_linear_layers) * model.num_attention_heads * model.head_dim
        eff = tp_efficiency(gpu, gpus, factors)
        layout = kv_layout(model, kv_dtype, gpus)
        ar_count, ar_latency, ar_bytes, ar_bw = allreduce_params(model, gpu, gpus)
        dtype = compute_dtype(fmt, gpu)
        peak = gpu.tflops_for(dtype) * 1e12
        mfu_used = mfu if mfu is not None else factors.mfu
        attn_flops = peak * gpus * mfu_used * eff
        # The linear layers run at the GPU's measured GEMM rate (gemm.py), scaled like the MFU for the low/high
        # estimates; an MFU the user set explicitly, or a GPU/dtype nothing was measured for, keeps peak × MFU.
        rate = None if "mfu" in factors.model_fields_set else gemm_rate(gpu, dtype)
        linear_flops = rate.tflops * 1e12 * gpus * eff * (mfu_used / factors.mfu) if rate else attn_flops
        share = marlin_read_share(fmt, gpu)
        # the dense weights stream at the GPU's measured decode GEMM share, scaled like MBU for the low/high
        # estimates; an MBU the user set explicitly, or a GPU nothing was measured for, keeps bandwidth × MBU
        read = None if "mbu" in factors.model_fields_set else decode_read_share(gpu)
        mbu_used = mbu if mbu is not None else factors.mbu
        # measured on each GPU's own slice of the experts at that TP degree: no further TP scaling loss
        expert_flops, expert_rate, expert_share_used = _routed_expert_rate(model, fmt, dtype, gpu, gpus, factors, mfu_used / factors.mfu)
        # the dense layers timed shape by shape where vLLM's GEMMs were measured on this GPU (not with a user's MFU/MBU)
        explicit = {"mfu", "mbu"} & factors.model_fields_set
        engine, version = factors.kernel_engine, factors.engine_version  # FP8 GEMMs: the engine's own kernels
        shaped = None if explicit or not applies(model, fmt, dtype, gpu, engine, version) else shape_times(
            model, gpu.id, gpus, rate.tflops if rate else gpu.tflops_for(dtype), gpu.bandwidth_bytes_per_s * (read.share if read else factors.mbu),
            table_key(gpu.id, fmt.id, engine, version),
        )
        small_fixed, small_bytes = _elementwise(model, gpus)
        block_flops, block_bytes = _mla_block(model, fmt, gpus) if shaped and model.is_mla else (0.0, 0.0)
        routed = 2.0 * moe_layers * model.num_experts_per_tok * 3 * model.hidden_size * model.moe_intermediate_size
        return cls(
            linear_flops_per_token=2.0 * active_linear,
            lm_head_flops=lm_head,
            attn_flops_per_pair=attn_pair,
            # the vision encoder runs once per image (in prefill), never in a decode step
            dense_bytes=float(wb.per_gpu - wb.experts_per_gpu - wb.vision_per_gpu - _embedding_gather_saving(model, fmt, gpus)),
            expert_bytes=per_expert,
            moe_layers=moe_layers,
            num_experts=model.num_experts,
            experts_per_tok=model.num_experts_per_tok,
            kv_bytes_per_token=float(layout.per_token_bytes),
            flops_per_s=linear_flops,
            attn_flops_per_s=attn_flops,
            gemm=rate,
            bytes_per_s=gpu.bandwidth_bytes_per_s * mbu_used,
            weight_bytes_per_s=gpu.bandwidth_bytes_per_s * read.share * (mbu_used / factors.mbu) if read else 0.0,
            read_share=read,
            # the embedding lookup, and where the engine version decoded in piecewise CUDA graphs (vLLM V1 before
            # 0.11) the launch gap between the graph pieces around every layer's attention (an MLA layer's is longer)
            overhead_s=factors.step_overhead_ms / 1000.0 + model.num_layers / 1e6 * (
                factors.graph_gap_us_per_mla_layer if model.is_mla and "graph_gap_us_per_mla_layer" in factors.model_fields_set
                else factors.graph_gap_us_per_layer),
            moe_layer_fixed_s=MOE_LAYER_FIXED_S if moe_layers else 0.0,
            shape_times=shaped,
            shape_scale_compute=factors.mfu / mfu_used,
            shape_scale_read=factors.mbu / mbu_used,
            routed_flops_per_token=routed if shaped else 0.0,
            block_flops_per_token=block_flops,
            block_bytes=block_bytes,
            elementwise_fixed_s=small_fixed,
            elementwise_bytes_per_token=small_bytes,
            elementwise_bytes_per_s=gpu.bandwidth_bytes_per_s * ELEMENTWISE_BW_SHARE,
            allreduces=ar_count,
            allreduce_latency_s=ar_latency,
            allreduce_bytes_per_token=ar_bytes,
            allreduce_bytes_per_s=ar_bw,
            quant_dense_bytes=quantized_dense_bytes(model, fmt, gpus) if share != 1.0 else 0.0,
            quant_read_share=share,
            quant_flops_per_token=quantized_dense_flops_per_token(model, fmt) if marlin_compute_share(fmt, gpu) != 1.0 else 0.0,
            quant_compute_share=marlin_compute_share(fmt, gpu),
            attn_fixed_s=model.num_layers * (MLA_LAYER_FIXED_S if model.is_mla else ATTENTION_CALL_FIXED_S),
            stream_token_s=factors.stream_token_us / 1e6,
            scheduler_s_per_seq=factors.scheduler_us_per_seq / 1e6,
            scheduler_overlaps=factors.scheduler_overlaps,
            runner_s_per_step=0.0 if factors.scheduler_overlaps else factors.runner_us_per_step / 1e6,
            expert_flops_per_token=expert_flops,
            expert_flops_per_s=expert_rate,
            expert_share=expert_share_used,
            peak_flops_per_s=peak * gpus,
            # vLLM's custom all-reduce (and NCCL above its size limit), as measured; SGLang runs a port of it
            allreduce_points=measured_points(gpu, gpus) if gpus > 1 and factors.kernel_engine in ALLREDUCE_MEASURED_FOR else None,
            allreduce_message_bytes_per_token=float(model.hidden_size * ACTIVATION_BYTES),
            state_bytes_per_seq=float(2 * layout.linear_layers * layout.state_bytes_per_layer),
            sparse_topk=model.index_topk if model.index_n_heads else 0,
            indexer_bytes_per_token=float(layout.indexer_bytes_per_layer_token * layout.full_layers),
            indexer_flops_per_pair=2.0 * model.num_layers * model.index_n_heads * model.index_head_dim,
            **_local_attention(model, layout),
        )

    def experts_touched(self, tokens: int) -> float:
        """Expected distinct experts per MoE layer hit by `tokens` tokens routed uniformly at random."""
        if not self.num_experts or tokens <= 0:
            return 0.0
        miss = 1.0 - self.experts_per_tok / self.num_experts
        return self.num_experts * (1.0 - miss**tokens)

    def op_parts(
        self, prefill_tokens: int, prefill_attention_pairs: float, decode_seqs: int, kv_tokens_read: float
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        """((compute s, memory s) of the linear layers, (compute s, memory s) of attention) of one step."""
        tokens = prefill_tokens + decode_seqs
        if tokens <= 0:
            return (0.0, 0.0), (0.0, 0.0)
        logits = decode_seqs + (1 if prefill_tokens else 0)
        decode_flops, kv_read = self.decode_attention(decode_seqs, kv_tokens_read)
        attn_flops = self.prefill_attention_flops(prefill_tokens, prefill_attention_pairs) + decode_flops
        if self.shape_times is not None:  # measured per shape: one time, filed under the bound its row count is in
            shaped, (exp_c, exp_m) = self.shaped_dense_seconds(tokens, logits), self.routed_parts(tokens)
            compute_bound = tokens >= self.shape_times.ridge_rows
            linear = (shaped + exp_c, exp_m) if compute_bound else (exp_c, shaped + exp_m)
        else:
            weights_s = self.weight_read_seconds(self.experts_touched(tokens))
            linear = (self.linear_compute_seconds(tokens, logits), weights_s + self.moe_layers * self.moe_layer_fixed_s)
        return (
            linear,
            (attn_flops / self.attn_flops_per_s,
             (kv_read + decode_seqs * self.state_bytes_per_seq) / self.bytes_per_s + self.attn_fixed_s),
        )

    def step_parts(self, prefill_tokens: int, prefill_attention_pairs: float, decode_seqs: int, kv_tokens_read: float) -> tuple[float, float]:
        """(compute seconds, memory seconds) of one step, summed over its operators (which bound dominates)."""
        (lin_c, lin_m), (att_c, att_m) = self.op_parts(prefill_tokens, prefill_attention_pairs, decode_seqs, kv_tokens_read)
        return lin_c + att_c, lin_m + att_m

    def shaped_dense_seconds(self, tokens: int, logits: int) -> float:
        """The dense linear layers and the LM head at their measured per-shape latencies (shape mode)."""
        st = self.shape_times
        assert st is not None
        scale = self.shape_scale_compute if tokens >= st.ridge_rows else self.shape_scale_read
        block = 0.0
        if self.block_bytes:  # an MLA model's attention projections, as the rate mode times them
            block = max(tokens * self.block_flops_per_token / self.flops_per_s, self.block_bytes / self.dense_bytes_per_s)
        return (st.dense.at(tokens) + st.head.at(logits)) * scale + block

    def routed_parts(self, tokens: int) -> tuple[float, float]:
        """(compute s, memory s) of the routed experts alone (shape mode): the fused-MoE rate, the touched experts'
        reads and the call's fixed time; zeros for a dense model."""
        if not self.moe_layers:
            return 0.0, 0.0
        rate = self.expert_flops_per_s or self.flops_per_s
        flops = self.expert_flops_per_token or self.routed_flops_per_token
        read = self.moe_layers * (self.experts_touched(tokens) * self.expert_bytes / self.bytes_per_s + self.moe_layer_fixed_s)
        return tokens * flops / rate, read

    def linear_compute_seconds(self, tokens: int, logits: int) -> float:
        """Arithmetic time of the linear layers: dense GEMMs at their rate, routed experts at the fused-MoE rate."""
        dense = tokens * (self.linear_flops_per_token - self.expert_flops_per_token) + logits * self.lm_head_flops
        if self.quant_flops_per_token:  # Marlin's slower compute-bound GEMMs: as many more FLOPs at the GEMM rate
            dense += tokens * self.quant_flops_per_token * (1.0 / self.quant_compute_share - 1.0)
        if not self.expert_flops_per_s:
            return (dense + tokens * self.expert_flops_per_token) / self.flops_per_s
        return dense / self.flops_per_s + tokens * self.expert_flops_per_token / self.expert_flops_per_s

    def comm_seconds(self, tokens: int) -> float:
        """Tensor-parallel all-reduce time of a step over ``tokens`` tokens (0 on one GPU)."""
        if not self.allreduces or tokens <= 0:
            return 0.0
        if self.allreduce_points:  # measured on this GPU class at this TP degree
            return self.allreduces * allreduce_seconds(self.allreduce_points, tokens * self.allreduce_message_bytes_per_token)
        return self.allreduces * (self.allreduce_latency_s + tokens * self.allreduce_bytes_per_token / self.allreduce_bytes_per_s)

    def _linear_seconds(self, tokens: int, logits: int) -> float:
        """The linear layers of one step: dense layers as measured per shape where there is a table (routed experts
        bound on their own), else max(compute, weight read). One definition for step_seconds and its decode fast
        paths (the fast paths once kept a copy that missed the per-shape timing)."""
        if self.shape_times is not None:
            return self.shaped_dense_seconds(tokens, logits) + (max(self.routed_parts(tokens)) if self.moe_layers else 0.0)
        return max(
            self.linear_compute_seconds(tokens, logits),
            self.weight_read_seconds(self.experts_touched(tokens)) + self.moe_layers * self.moe_layer_fixed_s,
        )

    def _dense_linear_seconds(self, tokens: int, logits: int) -> float:
        """``_linear_seconds(tokens, logits)`` of a model with no routed experts and no per-shape table, the same float:
        there ``experts_touched`` is 0.0 at every token count, so the weight-read side is one number per model, worked
        out once (``_fixed_read``) instead of at every new batch shape (a simulated step with prefill rarely repeats
        one: ~34,000 of q36's 43,000 such steps worked their terms out, a twentieth of a plan; issue #27)."""
        if not self._fixed_read:
            self._fixed_read.append(self.weight_read_seconds(self.experts_touched(tokens)) + self.moe_layers * self.moe_layer_fixed_s)
        read = self._fixed_read[0]
        compute = self.linear_compute_seconds(tokens, logits)
        return read if read > compute else compute  # max(compute, read): the first unless the second is greater

    def _terms_of(self, tokens: int, logits: int) -> tuple[float, float, float]:
        """(linear, all-reduce, element-wise seconds) of a step over ``tokens`` tokens, ``logits`` of them sampled;
        kept in _token_terms (bounded: emptied when full)."""
        comm = self.comm_seconds(tokens) if self.allreduces else 0.0
        elementwise = self.elementwise_fixed_s + tokens * self.elementwise_bytes_per_token / self.elementwise_bytes_per_s
        dense = self.shape_times is None and not self.num_experts
        linear = self._dense_linear_seconds(tokens, logits) if dense else self._linear_seconds(tokens, logits)
        terms = (linear, comm, elementwise)
        if len(self._token_terms) >= TOKEN_TERMS_KEPT:
            self._token_terms.clear()
        self._token_terms[(tokens, logits)] = terms
        return terms

    def step_seconds(self, prefill_tokens: int, prefill_attention_pairs: float, decode_seqs: int, kv_tokens_read: float) -> float:
        """One engine step mixing chunked prefill and decode: the linear layers' max(compute, memory) + attention's
        max(compute, memory) + TP all-reduces + fixed overhead."""
        # op_parts inlined: the simulator calls this once per engine step
        tokens = prefill_tokens + decode_seqs
        if tokens <= 0:
            return 0.0
        logits = decode_seqs + (1 if prefill_tokens else 0)
        terms = self._token_terms.get((tokens, logits))
        if terms is None:
            terms = self._terms_of(tokens, logits)
        linear, comm, elementwise = terms
        if self.sparse_topk or self.window_tokens:
            decode_flops, kv_read = self.decode_attention(decode_seqs, kv_tokens_read)
            prefill_flops = self.prefill_attention_flops(prefill_tokens, prefill_attention_pairs)
        else:  # the dense case inline: the simulator calls this once per engine step
            decode_flops, kv_read = kv_tokens_read * self.attn_flops_per_pair, kv_tokens_read * self.kv_bytes_per_token
            prefill_flops = prefill_attention_pairs * self.attn_flops_per_pair
        # max() spelt out (once a simulated step with prefill: the builtin's calls were a fifth of this): a later
        # argument replaces the one kept only if it is greater, as max compares, so the same float comes back (ties
        # and NaN included; test_sim_engine pins it to max())
        attention = (prefill_flops + decode_flops) / self.attn_flops_per_s
        read_s = (kv_read + decode_seqs * self.state_bytes_per_seq) / self.bytes_per_s + self.attn_fixed_s
        if read_s > attention:
            attention = read_s
        gpu = linear + attention + comm + elementwise + self.overhead_s
        scheduler = logits * self.scheduler_s_per_seq + self.runner_s_per_step
        if prefill_tokens and self.runner_s_prefill_extra:
            scheduler += self.runner_s_prefill_extra  # a scheduler call of its own (the field's note)
        if not self.scheduler_overlaps:
            gpu, scheduler = gpu + scheduler, 0.0  # scheduled between steps: every step waits for it
        if scheduler > gpu:
            gpu = scheduler
        stream = logits * self.stream_token_s
        return stream if stream > gpu else gpu

    def decode_seconds_fn(self, decode_seqs: int) -> Callable[[int], float]:
        """``kv_tokens_read -> step_seconds(0, 0, decode_seqs, kv_tokens_read)``, bit for bit, with every term that
        does not depend on the context read worked out once. The simulator's runs of pure decode steps keep the batch
        fixed for hundreds of steps; this is most of a predicted level's time."""
        if decode_seqs <= 0 or self.sparse_topk or self.window_tokens:
            return partial(self.step_seconds, 0, 0, decode_seqs)
        n = decode_seqs
        linear = self._linear_seconds(n, n)
        comm = self.comm_seconds(n) if self.allreduces else 0.0
        elementwise = self.elementwise_fixed_s + n * self.elementwise_bytes_per_token / self.elementwise_bytes_per_s
        overhead, pair, kvb, afs, bps = self.overhead_s, self.attn_flops_per_pair, self.kv_bytes_per_token, self.attn_flops_per_s, self.bytes_per_s
        prefill_flops = 0 * pair  # step_seconds' prefill term at 0 pairs (added first, as there)
        state, fixed = n * self.state_bytes_per_seq, self.attn_fixed_s
        scheduler, overlaps, stream = n * self.scheduler_s_per_seq + self.runner_s_per_step, self.scheduler_overlaps, n * self.stream_token_s

        # max() spelt out (called once a simulated decode step, where the builtin's call was a fifth of this): each
        # later argument replaces the one kept only if it is greater, as max compares, so the same float comes back
        # (ties and NaN included)
        if not overlaps:
            def seconds(kv_tokens_read: int) -> float:
                flops_s = (prefill_flops + kv_tokens_read * pair) / afs
                read_s = (kv_tokens_read * kvb + state) / bps + fixed
                out = linear + (read_s if read_s > flops_s else flops_s) + comm + elementwise + overhead + scheduler
                if 0.0 > out:
                    out = 0.0
                return stream if stream > out else out
        else:
            def seconds(kv_tokens_read: int) -> float:
                flops_s = (prefill_flops + kv_tokens_read * pair) / afs
                read_s = (kv_tokens_read * kvb + state) / bps + fixed
                out = linear + (read_s if read_s > flops_s else flops_s) + comm + elementwise + overhead
                if scheduler > out:
                    out = scheduler
                return stream if stream > out else out

        return seconds

    def decode_seconds_array(self, decode_seqs: int) -> Callable[[np.ndarray], np.ndarray] | None:
        """``decode_seconds_fn`` over an array of context reads (int64) at once, element for element the same floats
        (the same IEEE operations in the same order); None where attention is sparse or local (the scalar path)."""
        if decode_seqs <= 0 or self.sparse_topk or self.window_tokens:
            return None
        n = decode_seqs
        linear = self._linear_seconds(n, n)
        comm = self.comm_seconds(n) if self.allreduces else 0.0
        elementwise = self.elementwise_fixed_s + n * self.elementwise_bytes_per_token / self.elementwise_bytes_per_s
        overhead, pair, kvb, afs, bps = self.overhead_s, self.attn_flops_per_pair, self.kv_bytes_per_token, self.attn_flops_per_s, self.bytes_per_s
        prefill_flops = 0 * pair
        state, fixed = n * self.state_bytes_per_seq, self.attn_fixed_s
        scheduler, overlaps, stream = n * self.scheduler_s_per_seq + self.runner_s_per_step, self.scheduler_overlaps, n * self.stream_token_s

        def seconds(kv_tokens_read: np.ndarray) -> np.ndarray:
            kv = kv_tokens_read.astype(np.float64)  # what int × float does in Python (exact below 2**53)
            attention = np.maximum((prefill_flops + kv * pair) / afs, (kv * kvb + state) / bps + fixed)
            gpu = linear + attention + comm + elementwise + overhead
            if not overlaps:
                return np.maximum(np.maximum(gpu + scheduler, 0.0), stream)
            return np.maximum(np.maximum(gpu, scheduler), stream)

        return seconds

    def prefill_seconds(self, prompt_tokens: int, chunk_tokens: int = 8192) -> float:
        """Time to prefill a prompt alone, in chunks of the engine's token budget (≈ TTFT at low load)."""
        total, done = 0.0, 0
        while done < prompt_tokens:
            c = min(chunk_tokens, prompt_tokens - done)
            pairs = c * done + c * (c + 1) / 2  # causal: token j attends to all earlier tokens and itself
            total += self.step_seconds(c, pairs, 0, 0)
            done += c
        return total

    def decode_step_seconds(self, batch: int, context_per_seq: float) -> float:
        return self.step_seconds(0, 0, batch, batch * context_per_seq)

    def verify_step_seconds(self, seqs: int, tokens_per_seq: int, context_per_seq: float, streamed: float) -> float:
        """Speculative decoding's verification step (s26-spec28): each of ``seqs`` sequences runs its last token and
        the proposed ones, ``tokens_per_seq`` positions, every one sampled (vLLM's rejection sampler reads the
        target's logits at each), like a short prefill. Each sequence's cache is read once for all its positions (the
        attention kernel keeps the queries of one sequence together) while every position attends to it; the front
        end streams ``streamed`` tokens, the accepted ones. At one token a sequence streaming one each, this is
        ``decode_step_seconds``."""
        n = seqs * tokens_per_seq
        if n <= 0:
            return 0.0
        linear, comm = self._linear_seconds(n, n), self.comm_seconds(n) if self.allreduces else 0.0
        elementwise = self.elementwise_fixed_s + n * self.elementwise_bytes_per_token / self.elementwise_bytes_per_s
        flops, read = self.decode_attention(seqs, seqs * context_per_seq)
        attention = max(
            tokens_per_seq * flops / self.attn_flops_per_s,
            (read + seqs * self.state_bytes_per_seq) / self.bytes_per_s + self.attn_fixed_s,
        )
        gpu = linear + attention + comm + elementwise + self.overhead_s
        scheduler = seqs * self.scheduler_s_per_seq + self.runner_s_per_step
        if not self.scheduler_overlaps:
            gpu, scheduler = gpu + scheduler, 0.0
        return max(gpu, scheduler, streamed * self.stream_token_s)
