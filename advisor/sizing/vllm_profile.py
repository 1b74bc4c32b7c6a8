"""What vLLM's start-up memory profile subtracts before the KV cache, by release.

vLLM sizes its KV cache once, at start-up (``Worker.determine_available_memory``, vllm/v1/worker/gpu_worker.py, and
``memory_profiling`` in vllm/utils/mem_utils.py)::

    available KV = total × gpu_memory_utilization − (weights + torch_peak_increase + non_torch_increase)
                   [− estimated CUDA graph memory, since 0.21.0]

- ``weights``: what ``load_model`` allocated ("Model loading took X GiB").
- ``torch_peak_increase``: the rise of ``torch.cuda.memory_stats()["allocated_bytes.all.peak"]`` over one
  ``profile_run``: a dummy forward pass of ``max_num_batched_tokens`` tokens split over ``min(max_num_seqs, tokens)``
  requests (``_dummy_run``), then ``_dummy_sampler_run`` on those requests' last hidden states with top-p 0.9 and
  top-k vocab − 1. The forward's intermediates are freed before the sampler runs (only its hidden states stay), so
  the peak is the larger of the two, not their sum (V1). V0 (before 0.8) kept both in one step.
- ``non_torch_increase``: memory outside PyTorch's allocator gained since the snapshot taken at start-up (cuBLAS
  workspaces, NCCL and custom all-reduce buffers): the engine setting ``non_torch_bytes``.
- CUDA graphs: captured after the KV cache is allocated, out of the headroom ``1 − gpu_memory_utilization`` leaves,
  until 0.21.0 profiles them first and subtracts the estimate ("CUDA graph memory profiling is enabled (default
  since v0.21.0) ... equivalent to --gpu-memory-utilization=0.9543 without", LMCache/LMCache#3430).

The sampler's footprint depends on which top-k/top-p kernel runs, which changed by release:

- From V1 (0.8) until the Triton kernel: the PyTorch sort path (``apply_top_k_top_p``: the model's BF16 logits, an
  FP32 copy, sorted values and int64 indices, masks, a softmax and a scatter; FlashInfer's sampler only when
  VLLM_USE_FLASHINFER_SAMPLER=1). 38 bytes per logit: llm-d's DEBUG profiles on an H100 (79.18 GiB, 8,192 tokens /
  1,024 sequences) log a peak activation of 4.76 GiB for Llama-3.1-8B (vocabulary 128,256), 5.56 for Qwen3-0.6B and
  5.64 for Qwen3-32B (151,936), 7.38 for gpt-oss-20b (201,088): 38.3 bytes a logit each, whatever the model's size
  (tests/fixtures/reference/kv_available_logs.json); vllm#32558 measured the sort path alone at 37 (1.25 GB for
  256 × 131,072 FP32 logits).
- The Triton top-k/top-p kernel (vllm#33538, merged 2026-02-02, "~80MiB of extra VRAM"; taken here as 0.16.0, the
  first release after the merge — not checked against the release notes) masks the FP32 logits in place: the BF16
  logits, their FP32 copy, the probabilities and ``random_sample``'s exponential draws, 14 bytes a logit.
"""

from __future__ import annotations

from advisor.domain.model import ModelSpec
from advisor.domain.sizing import EngineSettings
from advisor.versions import at_least

V1_SINCE = "0.8.0"  # V1 became vLLM's default engine
TRITON_SAMPLER_SINCE = "0.16.0"  # the Triton top-k/top-p kernel replaces the sort path (vllm#33538)
CUDA_GRAPHS_PROFILED_SINCE = "0.21.0"  # the estimated CUDA graph memory comes out of the KV budget

V0_SAMPLER_BYTES_PER_LOGIT = 8  # FP32 logits + probabilities (calibrated on vllm#10511's V0 profile, Llama-3-8B)
SORT_SAMPLER_BYTES_PER_LOGIT = 38  # PyTorch sort-based top-k/top-p (llm-d's H100 profiles; see above)
TRITON_SAMPLER_BYTES_PER_LOGIT = 14  # BF16 logits, FP32 copy, probabilities, exponential draws


def forward_peak(m: ModelSpec, tp: int, tokens: int) -> float:
    """Largest layer's live tensors in one forward pass of ``tokens`` tokens (attention projections, the MLP's
    gate/up output and its activation, or the routed experts' rows and the router's logits)."""
    h = m.hidden_size
    qkv = (m.num_attention_heads + 2 * m.num_kv_heads) * m.head_dim / tp
    dense = tokens * 2 * (4 * h + qkv + 3 * m.intermediate_size / tp) if m.intermediate_size else 0
    moe = 0.0
    if m.is_moe:
        routed = tokens * m.num_experts_per_tok
        moe = routed * 2 * (3 * m.moe_intermediate_size / tp + h) + tokens * 2 * (4 * h + qkv) + tokens * m.num_experts * 4
    return max(dense, moe)


def sampler_bytes_per_logit(engine_version: str | None) -> int:
    """Bytes per logit the dummy sampler run peaks at, for this vLLM release (None: the current one)."""
    if engine_version is None or at_least(engine_version, TRITON_SAMPLER_SINCE):
        return TRITON_SAMPLER_BYTES_PER_LOGIT
    if at_least(engine_version, V1_SINCE):
        return SORT_SAMPLER_BYTES_PER_LOGIT
    return V0_SAMPLER_BYTES_PER_LOGIT


def profile_peak(m: ModelSpec, tp: int, engine: EngineSettings, engine_version: str | None = None) -> int:
    """vLLM's ``torch_peak_increase`` over its profile run (see the module docstring)."""
    tokens = engine.max_num_batched_tokens or 0
    seqs = engine.max_num_seqs or 0
    forward = forward_peak(m, tp, tokens)
    if engine_version is not None and not at_least(engine_version, V1_SINCE):
        # V0 sampled inside the profiled step, every one of max_num_seqs sequences: forward and sampler together
        return int(forward + seqs * m.vocab_size * V0_SAMPLER_BYTES_PER_LOGIT)
    rows = min(seqs, tokens)  # _dummy_run's requests, one logit row each; every TP rank gathers the full vocabulary
    sampler = rows * m.vocab_size * sampler_bytes_per_logit(engine_version) + tokens * m.hidden_size * 2
    return int(max(forward, sampler))


def other_engine_peak(m: ModelSpec, tp: int, engine: EngineSettings) -> int:
    """Engines other than vLLM (SGLang, TensorRT-LLM) size their KV pools their own way (a static memory fraction,
    a free-memory fraction), which is not modelled here: they keep the earlier estimate, one forward step plus FP32
    logits and probabilities for every sequence, rather than vLLM's profile of a given release."""
    tokens = engine.max_num_batched_tokens or 0
    # a step samples at most one row of logits a request in it, and holds at most ``tokens`` requests' tokens
    rows = min(engine.max_num_seqs or 0, tokens)
    return int(forward_peak(m, tp, tokens) + rows * m.vocab_size * V0_SAMPLER_BYTES_PER_LOGIT)


def cuda_graphs_in_budget(engine_version: str | None) -> bool:
    """Whether this release subtracts its estimated CUDA graph memory from the KV budget (None: the current one)."""
    return engine_version is None or at_least(engine_version, CUDA_GRAPHS_PROFILED_SINCE)
