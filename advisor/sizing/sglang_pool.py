"""How SGLang sizes its KV pool at start-up, by release.

SGLang does not profile a forward pass. It reads the free GPU memory before loading the weights and again after, and
keeps a fixed share of the first for weights plus KV (``profile_max_num_token``, python/sglang/srt/model_executor/
model_runner.py, later model_runner_kv_cache_mixin.py, unchanged in substance through 0.5.x)::

    rest_memory = available_after_load − available_before_load × (1 − mem_fraction_static)     [GB = 2**30 bytes]
    max_total_num_tokens = rest_memory × 2**30 // cell_size

and since ``available_after_load = available_before_load − weights``, the pool is
``available_before_load × mem_fraction_static − weights``. ``cell_size`` is one token's K and V over all layers on one
GPU (KV heads per GPU × head_dim × layers × 2 × dtype bytes; MLA: (kv_lora_rank + rope dim) × layers × dtype bytes),
the same bytes per token as advisor/sizing/memory.py's layout. Activations, CUDA graphs and workspaces live in the
``1 − mem_fraction_static`` share it leaves.

``available_before_load`` is the GPU's total less the CUDA context and what the distributed start-up took ("Init torch
distributed ends. mem usage=…": NCCL and custom all-reduce buffers, 0 on one GPU, ~2 GB a rank at TP 8 over NVLink;
advisor/sizing/non_torch.py).

``mem_fraction_static`` left unset (``--mem-fraction-static``) is chosen from the GPU's memory and the TP degree, in
three eras (GPU memory as SGLang reads it, in MiB; here the CUDA total):

- Until #7054 ("Simplify the heuristics for setting --mem-fraction-static", merged 2025-06-10): by TP degree alone,
  0.88 on one GPU, 0.87 at TP 2, 0.85 at TP 4, 0.81 at TP 8, 0.79 at 16 (python/sglang/srt/server_args.py; "80 GB ×
  0.81" at TP 8 in sgl-project/sglang#5893). The H200/B200-specific reserves added in spring 2025 (#5893, #6718) are
  not modelled.
- #7054 until #10975: a reserve by GPU class, ``(gpu_mem − reserved) / gpu_mem`` rounded to 3 decimals, reserved =
  (2.8 + TP×PP/10) GiB below 35 GiB, (9.5 + TP×PP/2) GiB below 90 GiB (H100, A100), (12 + TP×PP/2) GiB below 160 GiB
  (H20, H200), 32 GiB above (B200, MI300); +2 GiB with speculative decoding, +4 GiB with DP attention (not modelled).
  Qwen3-8B on one 80 GB GPU logged 0.874 (sgl-project/sglang#7883).
- #10975 ("Use more general heuristics to set the default value of --mem-fraction-static", merged 2025-09-27) on:
  reserved = 512 MiB + 1.5 MiB × chunked_prefill_size + TP×PP/8 GiB + 2 MiB × cuda_graph_max_bs, at least 10 GiB on
  GPUs over 60 GiB, with the prefill chunk and graph batch set by GPU memory (2048/8 below 20 GiB; 2048/24, TP ≥ 4:
  80 below 35; 4096/32, 160 below 60; 8192/256, 512 below 160; 16384/512 above), as NVIDIA's aiconfigurator mirrors
  it for SGLang 0.5.16 (ai-dynamo/aiconfigurator, aic-core/src/aiconfigurator_core/sdk/backends/sglang_backend.py,
  derive_sglang_mem_fraction_static). Later releases reserve more with piecewise CUDA graphs on: a report of 0.828
  for Qwen3-32B on an H100 in 2026 (sgl-project/sglang#29092) against 0.834 here.

A multimodal model's share was 0.95 × that until #6881 ("tune mem fraction static for vlm", merged 2025-06-29; the
model runner's ``self.mem_fraction_static *= 0.95``): Gemma-3-4B on an H200 then got 0.88 × 0.95 = 0.836
(sgl-project/sglang#4826's log: 139.21 GB free before loading × 0.836 − 8.13 GB of weights = 108.25 GB of K and V).
#6881 replaced it with a reduction by the vision tower's size (``adjust_mem_fraction_for_vlm``), not modelled: for a
multimodal model on a later release the share here is the text model's, a few hundredths high.

The first release carrying each change is taken as the first after its merge (0.4.8, 0.4.9 and 0.5.3), not checked
against the release notes.
"""

from __future__ import annotations

from advisor.domain.sizing import EngineSettings
from advisor.versions import at_least

MIB = 1024**2
GIB = 1024**3

RESERVE_BY_GPU_CLASS_SINCE = "0.4.8"  # sgl-project/sglang#7054, merged 2025-06-10
VLM_BY_VISION_TOWER_SINCE = "0.4.9"  # sgl-project/sglang#6881, merged 2025-06-29
GENERAL_HEURISTICS_SINCE = "0.5.3"  # sgl-project/sglang#10975, merged 2025-09-27
MULTIMODAL_FACTOR_BEFORE_6881 = 0.95
NO_GPU_MEMORY_FALLBACK = 0.88  # what SGLang uses when it cannot read the GPU's memory


def _by_tp(tp: int) -> float:
    """The fraction before #7054: by TP degree alone."""
    for at_least_tp, fraction in ((16, 0.79), (8, 0.81), (4, 0.85), (2, 0.87)):
        if tp >= at_least_tp:
            return fraction
    return 0.88


def _reserved_by_gpu_class_mib(gpu_mib: float, parallel: int) -> float:
    """#7054's reserve (MiB) for activations and CUDA graph buffers, by GPU class."""
    if gpu_mib < 35 * 1024:
        return (2.8 + parallel / 10) * 1024
    if gpu_mib < 90 * 1024:
        return (9.5 + parallel / 2) * 1024
    if gpu_mib < 160 * 1024:
        return (12 + parallel / 2) * 1024
    return 32 * 1024


def batch_defaults(gpu_mib: float, tp: int) -> tuple[int, int]:
    """(chunked_prefill_size, cuda_graph_max_bs) SGLang picks for this GPU since #10975."""
    if gpu_mib < 20 * 1024:
        return 2048, 8
    if gpu_mib < 35 * 1024:
        return 2048, 24 if tp < 4 else 80
    if gpu_mib < 60 * 1024:
        return 4096, 32 if tp < 4 else 160
    if gpu_mib < 160 * 1024:
        return 8192, 256 if tp < 4 else 512
    return 16384, 512


def default_chunked_prefill_size(gpu_mib: float, engine_version: str | None = None) -> int:
    """The ``--chunked-prefill-size`` (SGLang's step budget, vLLM's max_num_batched_tokens) SGLang picks when it is
    not set, by GPU memory (MiB) and release (None: the current one): 2,048 below 25,000 MiB, else 8,192, until
    #7054; 2,048 below 35 GiB, 8,192 below 160 GiB, 16,384 above until #10975 (server_args.py "Set chunked prefill
    size, which depends on the gpu memory capacity"); ``batch_defaults``' tiers since. A 24 GB card (RTX 4090) has
    always had 2,048."""
    if engine_version is not None and not at_least(engine_version, RESERVE_BY_GPU_CLASS_SINCE):
        return 2048 if gpu_mib < 25_000 else 8192
    if engine_version is not None and not at_least(engine_version, GENERAL_HEURISTICS_SINCE):
        return 2048 if gpu_mib < 35 * 1024 else 8192 if gpu_mib < 160 * 1024 else 16384
    return batch_defaults(gpu_mib, 1)[0]


def with_default_chunk(asked: EngineSettings | None, resolved: EngineSettings, gpu_memory_bytes: int,
                       engine_version: str | None) -> EngineSettings:
    """``resolved`` (the engine profile's batch defaults filled in) with SGLang's own prefill chunk for this GPU and
    release where the user left the step budget open (``asked``)."""
    if asked is not None and asked.max_num_batched_tokens is not None:
        return resolved
    chunk = default_chunked_prefill_size(gpu_memory_bytes / MIB, engine_version)
    return resolved if resolved.max_num_batched_tokens == chunk else resolved.model_copy(update={"max_num_batched_tokens": chunk})


def _reserved_general_mib(gpu_mib: float, tp: int) -> float:
    """#10975's reserve (MiB): activations of one prefill chunk, parallel slack and CUDA graph buffers."""
    chunk, graph_bs = batch_defaults(gpu_mib, tp)
    reserved = 512 + 1.5 * chunk + tp / 8 * 1024 + 2 * graph_bs
    return max(reserved, 10 * 1024) if gpu_mib > 60 * 1024 else reserved


def default_mem_fraction_static(
    gpu_memory_bytes: int, tp: int, engine_version: str | None = None, multimodal: bool = False
) -> float:
    """The ``mem_fraction_static`` SGLang picks when it is not set, for this GPU, TP degree and release (None: the
    current one); a multimodal model's before #6881."""
    old_vlm = multimodal and engine_version is not None and not at_least(engine_version, VLM_BY_VISION_TOWER_SINCE)
    factor = MULTIMODAL_FACTOR_BEFORE_6881 if old_vlm else 1.0
    if engine_version is not None and not at_least(engine_version, RESERVE_BY_GPU_CLASS_SINCE):
        return _by_tp(tp) * factor
    gpu_mib = gpu_memory_bytes / MIB
    if engine_version is not None and not at_least(engine_version, GENERAL_HEURISTICS_SINCE):
        reserved = _reserved_by_gpu_class_mib(gpu_mib, tp)
    else:
        reserved = _reserved_general_mib(gpu_mib, tp)
    return round((gpu_mib - reserved) / gpu_mib, 3) * factor


def pool_bytes(free_before_load: int, weights: int, mem_fraction_static: float) -> int:
    """SGLang's ``rest_memory``: what the KV pool gets of the free memory it read before loading the weights."""
    return int(free_before_load * mem_fraction_static) - weights


def share_and_free(
    engine: EngineSettings, gpu_memory_bytes: int, tp: int, engine_version: str | None, multimodal: bool, non_torch: int
) -> tuple[float, int]:
    """(mem_fraction_static, free memory before loading the weights) of an SGLang start-up: the set share or SGLang's
    default, and the GPU's memory less the CUDA context and the distributed start-up's communicators (the TP growth of
    ``non_torch``, per-GPU non-torch memory; the one-GPU part, cuBLAS workspaces, comes later out of the rest)."""
    fraction = engine.mem_fraction_static or default_mem_fraction_static(gpu_memory_bytes, tp, engine_version, multimodal)
    return fraction, gpu_memory_bytes - engine.cuda_context_bytes - (non_torch - engine.non_torch_bytes)
