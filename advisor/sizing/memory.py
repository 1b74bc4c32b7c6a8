"""Memory model: weights + KV cache + framework overhead, budgeted the way vLLM does it.

vLLM (V1) profiles a dummy step at start-up and then gives the KV cache what is left of
``total × gpu_memory_utilization − weights − peak activations − non-torch memory``, carved into paged blocks of
``block_size`` tokens. The CUDA context and the captured CUDA graphs live in the remaining headroom. All
figures here are per GPU: under tensor parallelism each GPU holds a shard of the weights and of the KV heads
(replicated when the TP degree exceeds the number of KV heads; MLA's latent cache is replicated on every GPU).
llama.cpp (GGUF) allocates exactly what it needs instead of a share of memory.

A shared prompt prefix (a system prompt every request starts with) is stored once with prefix caching: vLLM V1
hashes each *full* block of ``block_size`` tokens (``hash_block_tokens`` over the tokens of one block, chained to
the previous block's hash) and a new request that finds those hashes references the same physical blocks
(``BlockPool.touch`` bumps their ``ref_cnt``) instead of allocating its own; the partial last block of the prefix
is the request's own, and a request always computes at least its last prompt token
(``max_cache_hit_length = request.num_tokens - 1`` in ``KVCacheManager.get_computed_blocks``). So ``C`` requests of
``context`` tokens sharing ``P`` prefix tokens hold ``floor(min(P, context − 1) / block)`` blocks once plus
``ceil(context / block) − that`` blocks each (vllm/v1/core/kv_cache_manager.py, block_pool.py, kv_cache_utils.py;
docs.vllm.ai/en/latest/design/prefix_caching.html). SGLang's radix cache shares the same tokens at page granularity
(page size 1 by default). With sliding-window layers only the full-attention layers are counted as shared (the
windowed ones keep their own window: conservative). llama.cpp's slots each hold their own cells: no sharing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache
from math import ceil
from typing import Literal

from advisor.domain.model import ModelSpec
from advisor.domain.sizing import BreakdownItem, EngineSettings, MemoryEstimate
from advisor.sizing.non_torch import non_torch_bytes
from advisor.sizing.quant import (
    KV_DTYPES,
    WeightFormat,
    gguf_bytes,
    gguf_type,
    packed_int_bytes,
    tensor_bytes,
)
from advisor.sizing.sglang_hybrid import (
    StatePool,
    SwaPool,
    mamba_ratio,
    state_bytes_per_request,
    state_pool,
    state_pool_modelled,
    swa_pool,
    swa_pool_applies,
    swa_ratio,
)
from advisor.sizing.sglang_pool import pool_bytes, share_and_free
from advisor.sizing.tensors import Tensor, param_counts, tensors
from advisor.sizing.unquantized import bits_override, checkpoint_rules, kept_16bit
from advisor.sizing.vllm_profile import cuda_graphs_in_budget, forward_peak, other_engine_peak, profile_peak

VOCAB_PADDING = 64  # vLLM pads the vocabulary of its parallel embedding/LM head to a multiple of this
GIB = 1024**3


def _round_up(x: int, m: int) -> int:
    return (x + m - 1) // m * m


def kv_heads_per_gpu(m: ModelSpec, tp: int) -> int:
    """KV heads each GPU holds: a share when TP divides them, one (replicated) when TP exceeds them."""
    return max(1, ceil(m.num_kv_heads / tp))


def _shard(t: Tensor, m: ModelSpec, tp: int) -> tuple[int, int]:
    rows, cols = t.rows, t.cols
    vector = t.rows == 1
    if t.split == "vocab":
        return ceil(_round_up(rows, VOCAB_PADDING) / tp), cols
    if t.split == "col":
        return (rows, ceil(cols / tp)) if vector else (ceil(rows / tp), cols)
    if t.split == "row":
        return rows, ceil(cols / tp)
    if t.split == "kv":
        width = kv_heads_per_gpu(m, tp) * m.head_dim
        return (rows, width) if vector else (width, cols)
    return rows, cols


@dataclass(frozen=True, slots=True)
class WeightBytes:
    per_gpu: int  # what one GPU holds
    all_gpus: int  # summed over the tensor-parallel group (replicated tensors counted on each GPU)
    experts_per_gpu: int  # the routed-expert share of per_gpu (read only partly while decoding)
    vision_per_gpu: int = 0  # the vision encoder's share of per_gpu (run once per image, not per generated token)


def tensor_bytes_on_gpu(t: Tensor, m: ModelSpec, fmt: WeightFormat, tp: int) -> int:
    if fmt.gguf_ftype:
        n_gqa = m.num_attention_heads // m.num_kv_heads
        kind = gguf_type(t, fmt.gguf_ftype, m.num_layers, m.num_experts, n_gqa, m.tie_word_embeddings)
        return ceil(gguf_bytes(t, kind) / tp)  # llama.cpp splits layers across GPUs
    rows, cols = _shard(t, m, tp)
    dtype_bytes = 4 if m.dtype in ("float32", "fp32") else 2
    rules = checkpoint_rules(m, fmt.id)
    if kept_16bit(t, m, rules):  # e.g. Qwen3.5 GPTQ-Int4: attention, shared expert, MTP in BF16
        return rows * cols * t.count * dtype_bytes
    packed = fmt.id in ("gptq-int4", "gptq-int8", "awq-int4") and t.quantizable
    # the checkpoint's own group size (quantization_config.group_size; -1: one group per output channel), not 128
    own_group = m.quant_group_size if m.checkpoint_quant == fmt.id and m.quant_group_size else None
    bits = bits_override(t, m, rules) if fmt.id.startswith("gptq") else None
    if packed and (bits or own_group):  # a dynamic key may set other bits (e.g. "+:.*down_proj": {"bits": 8})
        group = cols if own_group == -1 else (own_group or fmt.group_size)
        return packed_int_bytes(rows, cols, bits or int(fmt.bits), group, g_idx=fmt.id.startswith("gptq")) * t.count
    return tensor_bytes(t, fmt, rows, cols, dtype_bytes)


@cache
def weight_bytes(m: ModelSpec, fmt: WeightFormat, tp: int = 1) -> WeightBytes:
    """Bytes of the weights the engine loads (MTP layers excluded), per GPU and over the group."""
    per_gpu = experts = vision = 0
    for t in tensors(m):
        if t.mtp:
            continue
        b = tensor_bytes_on_gpu(t, m, fmt, tp)
        per_gpu += b
        if t.expert:
            experts += b
        if t.vision:
            vision += b
    return WeightBytes(per_gpu=per_gpu, all_gpus=per_gpu * tp, experts_per_gpu=experts, vision_per_gpu=vision)


def gguf_file_bytes(m: ModelSpec, fmt: WeightFormat) -> int:
    """Tensor data of a GGUF file in this format (the file adds a few MB of metadata and tokenizer)."""
    return weight_bytes(m, fmt, 1).all_gpus


@lru_cache(maxsize=1024)
def _kept_note(m: ModelSpec, fmt: WeightFormat) -> str:
    """How much of a quantized checkpoint stays 16-bit by its own declaration (Qwen3.5 GPTQ-Int4: the attention and
    DeltaNet projections and the shared expert), so '... in GPTQ INT4' does not read as every weight. Kept per model
    and format (as ``weight_bytes``, on the same two values: the note depends on nothing else): every memory estimate
    asks for it, and each asking scanned every tensor of the model (1.9 M ``kept_16bit`` calls over the advice and
    plan scenarios' plans, issue #27)."""
    if fmt.gguf_ftype:
        return ""
    rules = checkpoint_rules(m, fmt.id)
    kept = sum(t.elements for t in tensors(m) if not t.mtp and kept_16bit(t, m, rules))
    return f" ({kept:,} of them kept 16-bit by the checkpoint's quantization_config)" if kept else ""


@dataclass(frozen=True, slots=True)
class DraftReserve:
    """What speculative decoding holds on one GPU beside the target under vLLM (advisor/sizing/speculative.py, which
    builds it for each method and gives the sources)."""

    what: str  # "draft model Qwen2.5 3B Instruct", "EAGLE-3 head …", "MTP layer of DeepSeek-V3" (formulas' words)
    params: int  # parameters it loads (what it shares with the target not counted)
    weights_per_gpu: int  # its weights on one GPU (split over the target's tensor-parallel GPUs where vLLM splits them)
    weights_formula: str  # how those weights were counted
    kv_per_token: int  # its layers' KV per token on one GPU, in the target's KV cache dtype and blocks
    kv_formula: str
    lookahead: int  # slots each running request holds beyond its tokens (num_speculative_tokens)


@dataclass(frozen=True, slots=True)
class KvLayout:
    per_layer_token_bytes: int  # one layer, one token, one GPU
    full_layers: int
    sliding_layers: int
    window: int | None
    replication: int
    linear_layers: int = 0  # linear-attention layers: a constant-size state per sequence, no per-token KV
    state_bytes_per_layer: int = 0  # one such layer's state for one sequence, one GPU (conv + recurrent state)
    chunked_layers: int = 0  # Llama 4's chunked local-attention layers
    chunk: int | None = None  # their attention_chunk_size
    # DeepSeek-V3.2: each layer's indexer caches one FP8 key per token beside the MLA latent (vLLM's
    # DeepseekV32IndexerCache: head_dim + head_dim // 128 × 4 bytes of uint8, whatever the KV dtype, on every GPU)
    indexer_bytes_per_layer_token: int = 0
    # pages each linear-attention layer holds per request: vLLM's MambaSpec.max_memory_usage_bytes is one page in
    # mamba_cache_mode "none" and two in "align" (a running state and the last block-aligned one a prefix hit resumes
    # from), which --enable-prefix-caching selects for Qwen3.5/Qwen3-Next (vllm/v1/kv_cache_interface.py, commit 001cabc)
    state_pages: int = 1
    # a draft model's layers (speculative decoding): in the same blocks as the target's full-attention layers
    draft_bytes_per_token: int = 0

    @property
    def per_token_bytes(self) -> int:
        """All attention layers, as the engine counts a token of KV (what vLLM sizes its pages by)."""
        layers = self.full_layers + self.sliding_layers + self.chunked_layers
        return (self.per_layer_token_bytes * layers + self.indexer_bytes_per_layer_token * self.full_layers
                + self.draft_bytes_per_token)  # fmt: skip

    def block_tokens(self, block_size: int) -> int:
        """The block size vLLM runs with. With linear-attention layers (HybridAttentionMambaModelConfig) an attention
        page must hold at least one layer's state: the block grows to ``16 × cdiv(state, 16 × bytes per token)``
        tokens unless the user's is already larger, and the state is padded to that page ("Setting attention block
        size to 544 tokens…", "Padding mamba page size by 1.49%…" for Qwen3-Next at TP 2)."""
        if not self.linear_layers or not self.per_layer_token_bytes:
            return block_size
        return max(block_size, 16 * -(-self.state_bytes_per_layer // (16 * self.per_layer_token_bytes)))

    def kv_groups(self) -> int:
        """vLLM's KV cache groups: layers of each kind in groups as large as the smallest kind (Qwen3-Next: 12 full-
        attention layers and 36 Gated DeltaNet layers make 1 + 3 groups); what 'GPU KV cache size' divides by."""
        kinds = [n for n in (self.full_layers, self.sliding_layers, self.linear_layers) if n]
        if len(kinds) < 2 or not self.linear_layers:
            return 1
        size = min(kinds)
        return sum(-(-n // size) for n in kinds)

    def per_request_bytes(self, context: int, block_size: int, windowed: bool, chunk_tokens: int = 8192) -> int:
        """KV bytes one request of ``context`` tokens may hold at its peak.

        A windowed layer keeps what vLLM's ``SlidingWindowSpec.max_memory_usage_bytes`` reserves: during
        chunked prefill the last ``window − 1`` computed tokens plus the newly scheduled chunk
        (``max_num_batched_tokens``), never more than the context, plus one block because the window need not
        start at a block boundary: ``(cdiv(min(window − 1 + chunk, context), block) + 1)`` blocks.
        """
        tokens_full = _round_up(context, block_size)
        # each linear-attention layer holds one page (its state padded to the attention page) whatever the context,
        # two in vLLM's "align" mode
        state = self.linear_layers * block_size * self.per_layer_token_bytes * self.state_pages
        windowed_sliding = windowed and bool(self.sliding_layers) and bool(self.window)
        windowed_chunked = windowed and bool(self.chunked_layers) and bool(self.chunk)
        if not windowed_sliding and not windowed_chunked:
            return tokens_full * self.per_token_bytes + state
        tokens_window = tokens_full
        if windowed_sliding and self.window:
            tokens_window = _round_up(min(self.window - 1 + chunk_tokens, context), block_size) + block_size
        # a chunked layer holds at most its chunk plus a step's tokens (ChunkedLocalAttentionSpec:
        # cdiv(min(attention_chunk_size + max_num_batched_tokens, max_model_len), block_size) blocks)
        tokens_chunk = _round_up(min(self.chunk + chunk_tokens, context), block_size) if windowed_chunked and self.chunk else tokens_full
        return self.per_layer_token_bytes * (
            self.full_layers * tokens_full + self.sliding_layers * tokens_window + self.chunked_layers * tokens_chunk
        ) + self.indexer_bytes_per_layer_token * self.full_layers * tokens_full + state


def kv_layout(m: ModelSpec, kv_dtype: str, tp: int) -> KvLayout:
    b = KV_DTYPES[kv_dtype]
    if m.is_mla:
        per_layer = (m.kv_lora_rank + m.qk_rope_head_dim) * b  # compressed latent + rope key, not per head
        if m.index_n_heads and kv_dtype == "fp8":
            # sparse MLA's FP8 cache (vLLM's fp8_ds_mla, FlashMLA's layout): 512 FP8 latents, 4 FP32 scales and the
            # 64-wide rope key kept in BF16 = 656 bytes a token
            per_layer = m.kv_lora_rank + 4 * (m.kv_lora_rank // 128) + 2 * m.qk_rope_head_dim
        replication = tp
    else:
        per_layer = 2 * kv_heads_per_gpu(m, tp) * m.head_dim * b
        replication = max(1, tp // m.num_kv_heads)
    sliding, linear, chunked = m.num_sliding_layers, m.num_linear_layers, m.num_chunked_layers
    return KvLayout(per_layer, m.num_layers - sliding - linear - chunked, sliding, m.sliding_window, replication,
                    linear_layers=linear, state_bytes_per_layer=linear_state_bytes(m, tp) if linear else 0,
                    chunked_layers=chunked, chunk=m.attention_chunk_size,
                    indexer_bytes_per_layer_token=m.index_head_dim + m.index_head_dim // 128 * 4 if m.index_n_heads else 0)


def linear_state_bytes(m: ModelSpec, tp: int, num_spec: int = 0) -> int:
    """One Gated DeltaNet layer's state for one sequence on one GPU, as vLLM allocates it
    (MambaStateShapeCalculator.gated_delta_net_state_shape): a conv state of (conv_kernel − 1 + speculative tokens)
    × (2 × key heads × key dim + value heads × value dim) / TP and a recurrent state of value heads / TP × value dim
    × key dim, both in the model's dtype (mamba_cache_dtype and mamba_ssm_cache_dtype "auto";
    MambaStateDtypeCalculator.gated_delta_net_state_dtype), except that a Qwen3.5 config's mamba_ssm_dtype sets the
    recurrent state's (float32: vLLM's Qwen3_5ForConditionalGenerationConfig; "Setting attention block size to 1056
    tokens" for Qwen3.5-35B-A3B, where a BF16 state would give 544)."""
    dtype_bytes = 4 if m.dtype in ("float32", "fp32") else 2
    state_bytes = {"float32": 4, "bfloat16": 2, "float16": 2}.get(m.linear_state_dtype or "", dtype_bytes)
    conv_dim = 2 * m.linear_num_key_heads * m.linear_key_head_dim + m.linear_num_value_heads * m.linear_value_head_dim
    conv = (conv_dim // tp) * (m.linear_conv_kernel_dim - 1 + num_spec)
    recurrent = (m.linear_num_value_heads // tp) * m.linear_value_head_dim * m.linear_key_head_dim
    return conv * dtype_bytes + recurrent * state_bytes


def activation_estimate(
    m: ModelSpec, tp: int, engine: EngineSettings, llama_cpp: bool, engine_version: str | None = None, vllm: bool = True
) -> int:
    """Peak activation memory of the engine's profiling step.

    vLLM: the ``torch_peak_increase`` of its profile run (a dummy step of max_num_batched_tokens tokens, then a
    dummy sampler run), as the release ``engine_version`` (None: the current one) counts it: see
    advisor/sizing/vllm_profile.py. llama.cpp sizes a compute buffer for one micro-batch (512 tokens), no sampler.
    """
    if llama_cpp:
        return int(forward_peak(m, tp, 512))
    return profile_peak(m, tp, engine, engine_version) if vllm else other_engine_peak(m, tp, engine)


def estimate_memory(
    m: ModelSpec,
    fmt: WeightFormat,
    kv_dtype: str,
    context: int,
    concurrency: int,
    gpu_memory_bytes: int,
    tp: int,
    engine: EngineSettings,
    shared_prefix_tokens: int = 0,
    prefix_caching: bool = True,
    engine_version: str | None = None,
    vllm_profile: bool = True,
    sglang_pool: bool = False,
    nvlink: bool = False,
    draft: DraftReserve | None = None,
) -> MemoryEstimate:
    """Per-GPU memory of ``concurrency`` requests of ``context`` tokens; ``shared_prefix_tokens`` leading tokens of
    every prompt are shared (stored once) when ``prefix_caching`` is on and the engine shares KV blocks. ``engine_version``
names the vLLM release whose start-up profile to follow (None: the current one; advisor/sizing/vllm_profile.py), or
the SGLang release whose default memory share to take; ``vllm_profile`` False (SGLang, TensorRT-LLM) keeps the earlier
activation estimate instead of vLLM's profile; ``sglang_pool`` sizes the KV pool as SGLang does (a share of the free
memory before loading, advisor/sizing/sglang_pool.py) instead of vLLM's budget. ``nvlink``: the GPUs talk over NVLink,
whose communicators take more memory per GPU as the TP degree grows (advisor/sizing/non_torch.py). ``draft``: a draft
model for speculative decoding (vLLM; advisor/sizing/speculative.py): its weights, its KV in the target's blocks, and
the lookahead slots each request holds.
    ``engine``'s batch settings must be set: ``advisor.domain.engine_profiles.resolve_engine`` fills in the engine's defaults."""
    if engine.max_num_seqs is None or engine.max_num_batched_tokens is None:
        raise ValueError("estimate_memory needs the batch settings resolved (advisor.domain.engine_profiles.resolve_engine)")
    llama_cpp = fmt.engine == "llama.cpp"
    counts = param_counts(m)
    wb = weight_bytes(m, fmt, tp)
    w_gpu, w_all = wb.per_gpu, wb.all_gpus
    w_draft = draft.weights_per_gpu if draft else 0
    look = draft.lookahead if draft else 0  # slots a request holds beyond its tokens (its context below)
    layout = kv_layout(m, kv_dtype, tp)
    if draft:
        layout = replace(layout, draft_bytes_per_token=draft.kv_per_token)
    if layout.linear_layers and not llama_cpp and engine.mamba_cache_mode == "align":
        layout = replace(layout, state_pages=2)
    block = layout.block_tokens(engine.block_size)
    sglang = sglang_pool and not llama_cpp
    # SGLang gives sliding-window (or chunked) layers a pool of their own only for the architectures it lists
    # (advisor/sizing/sglang_hybrid.py); elsewhere (Gemma 2/3) every layer holds the whole context
    windowed_layers = layout.sliding_layers + layout.chunked_layers
    sglang_swa = sglang and windowed_layers > 0 and swa_pool_applies(m, engine_version)
    # vLLM's hybrid KV cache manager: windowed layers keep their window, chunked ones their chunk (for Llama 4 only
    # where VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE is on: its default in recent releases; 0.10-0.11
    # disabled the manager for chunked attention, which hybrid_kv=False models)
    windowed = engine.hybrid_kv and windowed_layers > 0 and (not sglang or sglang_swa)
    chunk = 512 if llama_cpp else engine.max_num_batched_tokens  # tokens one step may add to a window
    per_request = layout.per_request_bytes(context + look, block, windowed, chunk)
    per_request_full = layout.per_request_bytes(context + look, block, False)
    # vLLM disables prefix caching for models with linear-attention layers ("Hybrid or mamba-based model detected:
    # disabling prefix caching since it is not yet supported", 0.10-0.11; later versions share only block-aligned
    # states in an opt-in mode): their prompts are not counted as shared
    sharing = prefix_caching and not llama_cpp and shared_prefix_tokens > 0 and not layout.linear_layers
    share_layers = layout.full_layers if windowed else layout.full_layers + layout.sliding_layers + layout.chunked_layers
    # one shared block, over its layers (an indexer's keys are shared with the prefix's latents)
    block_bytes_shared = block * (layout.per_layer_token_bytes * share_layers + layout.indexer_bytes_per_layer_token * layout.full_layers)

    def shared_blocks_at(ctx: int) -> int:
        # whole blocks only, and at least the last token of a request is its own
        return min(shared_prefix_tokens, ctx - 1) // block if sharing and ctx > 1 else 0

    shared_blocks = shared_blocks_at(context)
    shared_bytes = shared_blocks * block_bytes_shared  # stored once for all requests
    per_request_own = per_request - shared_bytes  # what each request adds

    activation = engine.activation_bytes if engine.activation_bytes is not None else activation_estimate(m, tp, engine, llama_cpp, engine_version, vllm_profile)
    non_torch = 0 if llama_cpp else non_torch_bytes(engine, tp, nvlink)
    graphs = 0 if llama_cpp else engine.cuda_graph_bytes
    context_bytes = engine.cuda_context_bytes
    if llama_cpp:
        budget = gpu_memory_bytes - context_bytes  # allocates what it needs; no pre-reserved share
    elif sglang:
        # SGLang: weights + KV pool take mem_fraction_static of the memory free before loading (sglang_pool.py)
        fraction, free_before_load = share_and_free(engine, gpu_memory_bytes, tp, engine_version, m.has_vision, non_torch)
        budget = int(free_before_load * fraction)
    else:
        budget = int(gpu_memory_bytes * engine.gpu_memory_utilization)
    # since 0.21 vLLM profiles its CUDA graphs first and takes their estimate out of the KV cache's share; before,
    # they were captured after it, out of the headroom 1 - gpu_memory_utilization leaves (vllm_profile.py)
    graphs_in_budget = not llama_cpp and vllm_profile and cuda_graphs_in_budget(engine_version)
    if sglang:
        kv_budget = pool_bytes(free_before_load, w_gpu + w_draft, fraction)  # activations, graphs, workspaces: the rest
    else:
        kv_budget = budget - w_gpu - w_draft - activation - non_torch - (graphs if graphs_in_budget else 0)
    weights_fit = kv_budget > 0
    page = layout.per_token_bytes * block  # one block across all layers
    kv_blocks = max(0, kv_budget) // page if page else 0
    # what vLLM logs as 'GPU KV cache size': the blocks shared out over its KV cache groups (one group unless the
    # model has linear-attention layers, whose states take blocks from the same pool)
    kv_tokens = kv_blocks // layout.kv_groups() * block
    if sglang and not layout.linear_layers and layout.per_token_bytes:
        kv_tokens = max(0, kv_budget) // layout.per_token_bytes  # SGLang's max_total_num_tokens: pages of one token
    # SGLang's own split of its KV bytes for a sliding-window or linear-attention model (sglang_hybrid.py)
    swa_split: SwaPool | None = None
    states: StatePool | None = None
    if sglang_swa:
        # gpt-oss, Llama 4 and Gemma 4 keep the same K and V size in both kinds of layer
        swa_split = swa_pool(kv_budget, layout.per_layer_token_bytes * layout.full_layers,
                             layout.per_layer_token_bytes * windowed_layers, layout.window or layout.chunk or context,
                             swa_ratio(engine))  # fmt: skip
        kv_tokens = swa_split.full_tokens
    elif sglang and layout.linear_layers and state_pool_modelled(m):
        states = state_pool(kv_budget, state_bytes_per_request(m, tp), mamba_ratio(engine))
        full_cell = layout.per_layer_token_bytes * layout.full_layers  # SGLang's cell_size: full-attention layers
        kv_tokens = states.kv_rest_bytes // full_cell if full_cell else 0
    # A request's own blocks and the shared prefix's blocks are whole blocks of their layers; a page (one block
    # across all layers) is only the unit we count in. With windowed layers the prefix covers the full-attention
    # layers alone, so rounding each part up to pages on its own could cost a page more than not sharing: the
    # shared case rounds the sum once (never more than the plain case, which rounds per request).
    shared_pages = ceil(shared_bytes / page) if page else 0
    blocks_per_request = ceil(per_request_own / page)

    def pages_for(n: int, own: int, shared: int) -> int:
        return ceil((n * own + shared) / page) if shared else n * ceil(own / page)

    if sharing and page and per_request_own:
        max_conc_kv = max(0, kv_blocks * page - shared_bytes) // per_request_own
    else:
        max_conc_kv = kv_blocks // blocks_per_request if blocks_per_request else 0
    # SGLang's pools hold one token a page (page size 1): a request needs its tokens, not whole blocks
    sglang_shared = min(shared_prefix_tokens, context - 1) if sharing and context > 1 else 0
    if swa_split is not None:
        max_conc_kv = swa_split.requests_at(context, sglang_shared) if weights_fit else 0
    elif states is not None:
        own = context - sglang_shared
        by_kv = max(0, kv_tokens - sglang_shared) // own if own > 0 else 0
        max_conc_kv = min(by_kv, states.running_cap) if weights_fit else 0
    max_conc = min(max_conc_kv, engine.max_num_seqs)
    if not weights_fit:
        limited_by = "weights"
    elif max_conc_kv > engine.max_num_seqs:
        limited_by = "max_num_seqs"
    else:
        limited_by = "kv_cache"
    if sharing and page:
        # Longest context with `concurrency` requests sharing the prefix: whole pages, monotonic in the context.
        def pages_needed(ctx: int) -> int:
            shared_ctx = shared_blocks_at(ctx) * block_bytes_shared
            own = layout.per_request_bytes(ctx + look, block, windowed, chunk) - shared_ctx
            return pages_for(concurrency, own, shared_ctx)

        lo, hi = 0, max(1, kv_blocks + 1)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if pages_needed(mid * block) <= kv_blocks:
                lo = mid
            else:
                hi = mid - 1
        max_context = lo * block
    elif windowed or layout.linear_layers:
        per_block_share = page / layout.per_token_bytes  # tokens of full-attention KV per block
        # Longest context whose requests fit in whole pages, as `fits` counts them (monotonic): binary search.
        lo, hi = 0, max(1, kv_blocks + 1)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if pages_for(concurrency, layout.per_request_bytes(mid * block, block, windowed, chunk), 0) <= kv_blocks:
                lo = mid
            else:
                hi = mid - 1
        max_context = int(lo * block) if per_block_share else 0
    else:
        max_context = max(0, (kv_blocks // concurrency) * block - look)  # a request's lookahead slots in its blocks
    if swa_split is not None or states is not None:
        max_context = _longest_sglang_context(swa_split, states, kv_tokens, concurrency, m.max_context)
    max_context = min(max_context, m.max_context)
    kv_pages = pages_for(concurrency, per_request_own, shared_bytes) if page else 0
    kv_cache = kv_pages * page
    fits = weights_fit and kv_blocks >= kv_pages
    if swa_split is not None:
        kv_cache = swa_split.bytes_for(concurrency, context, sglang_shared)
        fits = weights_fit and concurrency <= max_conc_kv
    elif states is not None:
        kv_cache = concurrency * (context * layout.per_layer_token_bytes * layout.full_layers + states.state_bytes)
        fits = weights_fit and concurrency <= max_conc_kv
    # What the engine holds beside the weights and the requests' KV, so that the breakdown's total is within the GPU's
    # memory exactly when the requests fit (the verdict): SGLang's activations, CUDA graphs and workspaces get the
    # 1 − mem_fraction_static of the free memory its static share leaves (it does not profile a step); vLLM holds back
    # the 1 − gpu_memory_utilization it never hands out (less the CUDA context and graphs captured there).
    activation_over_share = 0
    if sglang:
        outside_share = max(0, free_before_load - budget - engine.non_torch_bytes - graphs)
        shown_activation, held_back = outside_share, 0
        # SGLang does not profile a step: a chunk whose activations outgrow the share it leaves runs out of memory
        # only when a long prompt arrives (advisor/sizing/sglang_pool.py), so it is said, not hidden in the bar
        activation_over_share = max(0, activation - outside_share)
    else:
        shown_activation = activation
        held_back = 0 if llama_cpp else max(0, gpu_memory_bytes - budget - context_bytes - (0 if graphs_in_budget else graphs))
    overhead = shown_activation + non_torch + graphs + context_bytes
    total = w_gpu + w_draft + kv_cache + overhead + held_back
    # SGLang's share is its own reserve for activations and graphs (sglang_pool.py), not vLLM's --gpu-memory-utilization
    headroom_ok = llama_cpp or sglang or gpu_memory_bytes - budget >= (0 if graphs_in_budget else graphs) + context_bytes
    free = max(0, gpu_memory_bytes - total)

    b = KV_DTYPES[kv_dtype]
    if m.is_mla:
        kv_formula = f"{m.num_layers} layers × (kv_lora_rank {m.kv_lora_rank} + rope {m.qk_rope_head_dim}) × {b} B"
    else:
        attn_layers = layout.full_layers + layout.sliding_layers + layout.chunked_layers
        kv_formula = (
            f"2 (K,V) × {attn_layers} layers × {kv_heads_per_gpu(m, tp)} KV heads/GPU × head_dim {m.head_dim} × {b} B"
        )
        if layout.linear_layers:
            pages = "one" if layout.state_pages == 1 else f"{layout.state_pages} ('align' mode)"
            kv_formula += (f"; + {layout.linear_layers} linear-attention layers × {pages} {block}-token page each for their "
                           f"{layout.state_bytes_per_layer:,} B state")
    if draft:
        kv_formula += f"; + {draft.what}: {draft.kv_formula}, in the same blocks"
    breakdown = [
        BreakdownItem(key="weights", bytes=w_gpu + w_draft,
                      formula=f"{counts.total:,} parameters in {fmt.label}{_kept_note(m, fmt)}, split over {tp} GPU(s)"
                      + (f"; + {draft.what}: {draft.weights_formula} ({w_draft:,} B a GPU)" if draft else "")),
        BreakdownItem(
            key="kv_cache",
            bytes=kv_cache,
            formula=f"{concurrency} request{'' if concurrency == 1 else 's'} × {blocks_per_request} blocks × {block} tokens × "
            f"{layout.per_token_bytes:,} B/token ({kv_formula})"
            + (f"; each request's blocks hold its {context:,} tokens + {look} lookahead slots for the proposed tokens"
               if look else "")
            + (f" + {shared_pages} shared prefix blocks ({shared_blocks * block:,} of {shared_prefix_tokens:,} prefix tokens)" if shared_blocks else "")
            + (f" ≈ {kv_pages:,} blocks (parts rounded up together)" if kv_pages != blocks_per_request * concurrency + shared_pages else ""),
        ),
        BreakdownItem(
            key="activations",
            bytes=shown_activation,
            formula=(f"what SGLang's share {fraction:g} (--mem-fraction-static) leaves of the {free_before_load / GIB:.2f} GiB free "
                     f"before loading, less workspaces and CUDA graphs (one {engine.max_num_batched_tokens}-token step "
                     f"peaks near {activation / GIB:.2f} GiB)") if sglang else
            f"peak of one {512 if llama_cpp else engine.max_num_batched_tokens}-token step"
            + ("" if llama_cpp else f" or of sampling {min(engine.max_num_seqs, engine.max_num_batched_tokens)} rows of logits"
               if vllm_profile else " + sampler logits"),
        ),
        BreakdownItem(key="non_torch", bytes=non_torch, formula="NCCL/cuBLAS workspaces (engine setting"
                      + (f"; + NVLink communicators of {tp} GPUs" if non_torch > engine.non_torch_bytes else "") + ")"),
        BreakdownItem(key="cuda_graphs", bytes=graphs, formula="captured CUDA graphs (engine setting)"
                      + ("; vLLM takes their estimate out of the KV cache's share" if graphs_in_budget else "")),
        BreakdownItem(key="cuda_context", bytes=context_bytes, formula="CUDA context (engine setting)"),
        *([BreakdownItem(key="held_back", bytes=held_back,
                         formula=f"held back by --gpu-memory-utilization {engine.gpu_memory_utilization:g}: the engine never "
                                 "gives it to the KV cache")] if held_back else []),
        BreakdownItem(key="free", bytes=free, formula="GPU memory − everything above"),
    ]
    return MemoryEstimate(
        params_total=counts.total,
        params_active=counts.active,
        params_checkpoint=counts.checkpoint,
        weights_bytes=w_gpu,
        weights_bytes_all_gpus=w_all,
        kv_bytes_per_token=layout.per_token_bytes,
        kv_bytes_per_request=per_request_own,
        kv_cache_bytes=kv_cache,
        activation_bytes=activation,
        overhead_bytes=overhead,
        total_bytes=total,
        gpu_memory_bytes=gpu_memory_bytes,
        engine_budget_bytes=budget,
        kv_budget_bytes=kv_budget,
        block_size=block,
        kv_blocks=kv_blocks,
        kv_tokens=kv_tokens,
        fits=fits,
        weights_fit=weights_fit,
        max_concurrency=max_conc,
        max_concurrency_kv=max_conc_kv,
        limited_by=limited_by,
        max_context=max_context,
        context_exceeds_model=context > m.max_context,
        kv_replication=layout.replication,
        sliding_window_layers=layout.sliding_layers,
        kv_bytes_per_request_all_full=per_request_full,
        kv_bytes_per_request_unshared=per_request,
        shared_prefix_tokens=shared_prefix_tokens,
        shared_prefix_blocks=shared_blocks,
        kv_bytes_shared_prefix=shared_bytes,
        headroom_ok=headroom_ok,
        breakdown=breakdown,
        held_back_bytes=held_back,
        activation_over_share_bytes=activation_over_share,
        sglang_pool_kind=_sglang_pool_kind(sglang, windowed_layers, swa_split, layout.linear_layers, states),
        sglang_swa_tokens=swa_split.swa_tokens if swa_split else None,
        sglang_swa_full_tokens_ratio=swa_split.ratio if swa_split else None,
        sglang_state_slots=states.slots if states else None,
        sglang_mamba_full_memory_ratio=states.ratio if states else None,
        sglang_state_bytes_per_request=states.state_bytes if states else None,
        sglang_running_cap=states.running_cap if states else None,
        draft_weights_bytes=w_draft,
        draft_kv_bytes_per_token=draft.kv_per_token if draft else 0,
        speculative_lookahead_tokens=look,
    )


def _sglang_pool_kind(sglang: bool, windowed_layers: int, swa: SwaPool | None, linear_layers: int,
                      states: StatePool | None) -> Literal["swa", "swa_off", "state", "state_unmodelled"] | None:  # fmt: skip
    """What MemoryEstimate.sglang_pool_kind says of SGLang's pools (None: one plain pool, or not SGLang)."""
    if not sglang:
        return None
    if linear_layers:
        return "state" if states else "state_unmodelled"
    if windowed_layers:
        return "swa" if swa else "swa_off"
    return None


def _longest_sglang_context(swa: SwaPool | None, states: StatePool | None, kv_tokens: int, concurrency: int,
                            model_max: int) -> int:  # fmt: skip
    """Longest context at which ``concurrency`` requests fit SGLang's pools (monotonic in the context: bisection)."""
    def fit(ctx: int) -> bool:
        if swa is not None:
            return swa.requests_at(ctx) >= concurrency
        return states is not None and concurrency <= states.running_cap and kv_tokens // ctx >= concurrency

    lo, hi = 0, model_max
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fit(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo
