"""SGLang's KV pools for models whose layers are not all full attention: a sliding-window (SWA) pool beside the
full-attention one, or a linear-attention state pool (Mamba/Gated DeltaNet) beside it.

The bytes SGLang has for KV are the same as for any model (``rest_memory``, advisor/sizing/sglang_pool.py); how it
divides them differs.

Sliding-window models (``HybridSWAPoolConfigurator``, python/sglang/srt/model_executor/pool_configurator.py; before
the configurators, ``set_num_tokens_hybrid_swa`` in model_runner_kv_cache_mixin.py and ``set_num_token_hybrid`` in
model_runner.py). With F and S one token's K and V in one full-attention and one SWA layer, n_f and n_s their layer
counts and r = ``--swa-full-tokens-ratio`` (server_args.py: ``swa_full_tokens_ratio: float = 0.8``)::

    full_tokens = floor(rest_memory / (F × n_f + r × S × n_s))      page-aligned (page size 1 by default)
    swa_tokens  = floor(full_tokens × r)                             page-aligned
    max_total_num_tokens = full_tokens                               ("Use sliding window memory pool.
                                                                      full_layer_tokens=…, swa_layer_tokens=…")

The older code reached the same figure through the all-layer count (``max_total_num_tokens × num_hidden_layers /
(r × n_s + n_f)``) where every layer's K and V are the same size, as in gpt-oss, Llama 4 and Gemma 4; sgl-project/
sglang#18039 (2026-01-31) made it exact for MiMo-V2-Flash, whose SWA layers have other head counts.

Which models get the SWA pool: ``is_hybrid_swa_model`` (python/sglang/srt/configs/model_config.py) lists Llama 4
(its chunked layers are the SWA layers, 3 of every 4, with the attention chunk as the window), gpt-oss, MiMo-V2-Flash,
Step-3.5 and Gemma 4. Gemma 2 and Gemma 3 are not listed and server_args.py sets ``disable_hybrid_swa_memory`` for
them: every layer holds the whole context there (sgl-project/sglang#4826's Gemma-3-4B log: 834,615 tokens × 139,264 B,
all 34 layers). gpt-oss had the SWA pool switched off in server_args.py too until early 2026 (sgl-project/sglang#17630,
2026-01-23, enables it by hand); sglang 0.5.9 runs gpt-oss on the hybrid path (ovg-project/kvcached#263, 2026-03-03),
taken here as the first release with it. The trtllm_mha attention backend (Blackwell's default) switched it off for
gpt-oss in server_args.py ("Disable hybrid SWA memory for GPT-OSS model with trtllm_mha attention backend"); the current
override (python/sglang/srt/arg_groups/model_overrides/gpt_oss.py, commit 16ac180) no longer does, and the release in
between is not known (checked s20): not modelled. Nor are two opt-in ways of sizing: with ``--disable-radix-cache`` and ``--max-running-requests``
set, ``SWAChunkCapPoolConfigurator`` sizes the SWA pool from the request cap and gives the rest to the full pool;
``--enable-unified-memory`` (sgl-project/sglang#29678, #36729) shares one byte buffer between the pools.

A request of ``context`` tokens holds all of them in the full pool and at most its window plus one page in the SWA
pool: SGLang admits a prefill only if ``sliding_window_size + page_size`` SWA tokens are free (the admission floor
``HybridSWAPoolConfigurator._solve_pool_sizes`` checks) and evicts tokens that leave the window as decoding goes on
(sgl-project/sglang#17220). A prompt's chunk being prefilled sits in the SWA pool whole until that step ends (one
request at a time, not counted).

Linear-attention models (Qwen3-Next, Qwen3.5: ``handle_max_mamba_cache`` and ``init_memory`` in
model_runner_kv_cache_mixin.py, commit 001ccef). One request's state over all linear layers is ``mamba_cache_per_req``:
a conv state of (conv_dim / TP) × (conv_kernel − 1) in BF16 and a recurrent state of (value heads / TP) × key dim ×
value dim in ``--mamba-ssm-dtype`` (float32 by default). With m = ``--mamba-full-memory-ratio`` (0.9)::

    max_mamba_cache_size = floor(rest_memory × m / (1 + m) / mamba_cache_per_req)
    kv_rest              = rest_memory − max_mamba_cache_size × mamba_cache_per_req
    max_total_num_tokens = floor(kv_rest / cell_size)                (full-attention layers only)
    max_running_requests ≤ max_mamba_cache_size // 3                 (radix cache on: 3 state slots a running
                                                                      request, 5 with the extra-buffer strategy)

Speculative decoding's intermediate states, ``--max-mamba-cache-size`` and the extra-buffer strategy are not modelled.

Both ratios are the team's to set (``EngineSettings.swa_full_tokens_ratio`` and ``.mamba_full_memory_ratio``, ``advisor
calc --swa-full-tokens-ratio/--mamba-full-memory-ratio``); unset, SGLang's defaults above. SGLang reads each as given,
with no rounding or clamping, into the formulas above: ``self._swa_full_tokens_ratio = kvc.server_args.
swa_full_tokens_ratio`` in ``HybridSWAPoolConfigurator.__init__`` (pool_configurator.py, commit 003fca8; before it
``set_num_tokens_hybrid_swa``, model_runner_kv_cache_mixin.py, commit 001ccef) and ``server_args.
mamba_full_memory_ratio`` in ``handle_max_mamba_cache`` (the same mixin, commit 001ccef). A ratio that differs from the
default goes into the launch line (``ratio_flags``) so that the server started is the one sized.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.domain.model import ModelSpec
from advisor.domain.sizing import EngineSettings, MemoryEstimate
from advisor.versions import at_least

SWA_POOL_ARCHITECTURES = frozenset({
    "Llama4ForConditionalGeneration", "GptOssForCausalLM", "MiMoV2FlashForCausalLM", "Step3p5ForCausalLM",
    "Gemma4ForCausalLM", "Gemma4ForConditionalGeneration",
})  # fmt: skip
GPT_OSS_SWA_POOL_SINCE = "0.5.9"  # ovg-project/kvcached#263; sgl-project/sglang#17630 still had it off
SWA_FULL_TOKENS_RATIO = 0.8  # server_args.py default of --swa-full-tokens-ratio
MAMBA_FULL_MEMORY_RATIO = 0.9  # server_args.py default of --mamba-full-memory-ratio
MAMBA_SLOTS_PER_RUNNING_REQUEST = 3  # MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO, radix cache on
CONV_STATE_BYTES = 2  # CONV_DTYPE = torch.bfloat16 (python/sglang/srt/configs/mamba_utils.py)
SSM_STATE_BYTES = 4  # --mamba-ssm-dtype float32 by default
PAGE_SIZE = 1  # --page-size unset: one token a page for the default attention backends


def swa_ratio(engine: EngineSettings) -> float:
    """The --swa-full-tokens-ratio SGLang runs with: the team's, else its default."""
    return SWA_FULL_TOKENS_RATIO if engine.swa_full_tokens_ratio is None else engine.swa_full_tokens_ratio


def mamba_ratio(engine: EngineSettings) -> float:
    """The --mamba-full-memory-ratio SGLang runs with: the team's, else its default."""
    return MAMBA_FULL_MEMORY_RATIO if engine.mamba_full_memory_ratio is None else engine.mamba_full_memory_ratio


def ratio_flags(mem: MemoryEstimate) -> list[str]:
    """SGLang's flags for the ratios the split used where they differ from its defaults (a ratio a model does not read,
    or SGLang's own value, adds nothing to the launch line)."""
    flags = []
    if mem.sglang_swa_full_tokens_ratio is not None and mem.sglang_swa_full_tokens_ratio != SWA_FULL_TOKENS_RATIO:
        flags.append(f"--swa-full-tokens-ratio {mem.sglang_swa_full_tokens_ratio:g}")
    if mem.sglang_mamba_full_memory_ratio is not None and mem.sglang_mamba_full_memory_ratio != MAMBA_FULL_MEMORY_RATIO:
        flags.append(f"--mamba-full-memory-ratio {mem.sglang_mamba_full_memory_ratio:g}")
    return flags


def swa_pool_applies(m: ModelSpec, engine_version: str | None) -> bool:
    """Whether SGLang gives this model's sliding-window (or chunked) layers a pool of their own."""
    if m.architecture not in SWA_POOL_ARCHITECTURES:
        return False
    if m.architecture == "GptOssForCausalLM" and engine_version is not None:
        return at_least(engine_version, GPT_OSS_SWA_POOL_SINCE)
    return True


@dataclass(frozen=True, slots=True)
class SwaPool:
    """SGLang's two pools for a sliding-window model, in tokens."""

    full_tokens: int  # max_total_num_tokens: every full-attention layer holds this many
    swa_tokens: int  # every SWA layer holds this many
    ratio: float  # --swa-full-tokens-ratio
    window: int  # the SWA layers' window (Llama 4: the attention chunk)
    full_bytes_per_token: int  # F × n_f
    swa_bytes_per_token: int  # S × n_s

    def swa_tokens_per_request(self, context: int) -> int:
        """SWA tokens one request needs to be admitted and to run: its window and a page, never more than it has."""
        return min(context, self.window + PAGE_SIZE)

    def requests_at(self, context: int, shared_tokens: int = 0) -> int:
        """Requests of ``context`` tokens both pools hold at once; ``shared_tokens`` of each prompt stored once in the
        full pool (the radix cache; each request keeps its own window in the SWA pool)."""
        if context <= 0:
            return 0
        own = context - shared_tokens
        by_full = max(0, self.full_tokens - shared_tokens) // own if own > 0 else 0
        return min(by_full, self.swa_tokens // self.swa_tokens_per_request(context))

    def bytes_for(self, requests: int, context: int, shared_tokens: int = 0) -> int:
        """KV bytes ``requests`` requests of ``context`` tokens take in the two pools."""
        full = (requests * (context - shared_tokens) + (shared_tokens if requests else 0)) * self.full_bytes_per_token
        return full + requests * self.swa_tokens_per_request(context) * self.swa_bytes_per_token


def swa_split(full_tokens: int, ratio: float, page_size: int = PAGE_SIZE) -> tuple[int, int]:
    """``_solve_pool_sizes``: (full, SWA) tokens from the full-attention pool's unaligned size, both page-aligned."""
    full = full_tokens // page_size * page_size
    return full, int(full * ratio) // page_size * page_size


def swa_pool(rest_bytes: int, full_bytes_per_token: int, swa_bytes_per_token: int, window: int,
             ratio: float = SWA_FULL_TOKENS_RATIO, page_size: int = PAGE_SIZE) -> SwaPool:  # fmt: skip
    """``HybridSWAPoolConfigurator``'s split of ``rest_bytes`` (one GPU's KV bytes), given one token's K and V over all
    full-attention layers (F × n_f) and over all SWA layers (S × n_s)."""
    rest = max(0, rest_bytes)
    if not full_bytes_per_token:  # all layers SWA: the ratio does not apply
        swa = rest // swa_bytes_per_token // page_size * page_size if swa_bytes_per_token else 0
        return SwaPool(swa, swa, ratio, window, 0, swa_bytes_per_token)
    full, swa = swa_split(int(rest // (full_bytes_per_token + ratio * swa_bytes_per_token)), ratio, page_size)
    return SwaPool(full, swa, ratio, window, full_bytes_per_token, swa_bytes_per_token)


def state_bytes_per_request(m: ModelSpec, tp: int) -> int:
    """``mamba_cache_per_req`` of a Gated DeltaNet model (Qwen3-Next/Qwen3.5 config ``mamba2_cache_params``): every
    linear layer's conv state in BF16 and recurrent state in float32, on one GPU."""
    conv_dim = 2 * m.linear_num_key_heads * m.linear_key_head_dim + m.linear_num_value_heads * m.linear_value_head_dim
    conv = conv_dim // tp * (m.linear_conv_kernel_dim - 1) * CONV_STATE_BYTES
    recurrent = m.linear_num_value_heads // tp * m.linear_key_head_dim * m.linear_value_head_dim * SSM_STATE_BYTES
    return (conv + recurrent) * m.num_linear_layers


def state_pool_modelled(m: ModelSpec) -> bool:
    """Whether the linear-attention state is one this module sizes (Gated DeltaNet shapes in the config)."""
    return bool(m.num_linear_layers and m.linear_num_value_heads and m.linear_key_head_dim and m.linear_conv_kernel_dim)


@dataclass(frozen=True, slots=True)
class StatePool:
    """SGLang's pools for a linear-attention model."""

    slots: int  # max_mamba_cache_size: request states the state pool holds
    state_bytes: int  # mamba_cache_per_req
    kv_rest_bytes: int  # what is left for the full-attention layers' KV
    ratio: float  # --mamba-full-memory-ratio

    @property
    def running_cap(self) -> int:
        """The most requests SGLang runs at once for want of state slots."""
        return self.slots // MAMBA_SLOTS_PER_RUNNING_REQUEST


def state_pool(rest_bytes: int, state_bytes: int, ratio: float = MAMBA_FULL_MEMORY_RATIO) -> StatePool:
    """``handle_max_mamba_cache``'s ratio split of ``rest_bytes`` (one GPU's KV bytes) between request states and KV."""
    rest = max(0, rest_bytes)
    slots = int(rest * ratio / (1 + ratio) // state_bytes) if state_bytes else 0
    return StatePool(slots, state_bytes, rest - slots * state_bytes, ratio)
