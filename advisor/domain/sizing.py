"""Inputs and results of the sizing calculator (memory, capacity and speed estimates)."""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from advisor.domain.gpu import GiB, GpuSpec
from advisor.domain.model import ModelSpec
from advisor.i18n import tr  # the checks' words read in the UI language (Sizing page)


class EngineSettings(BaseModel):
    """The serving engine's memory settings (vLLM's names and defaults)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gpu_memory_utilization: float = Field(0.9, gt=0.05, le=1.0, description="share of GPU memory the engine may use")
    # None: what the engine picks on this GPU (vLLM: 2048 tokens / 256 sequences, 8192 / 1024 on GPUs with >= 70 GiB
    # that are not A100s), resolved by advisor.domain.engine_profiles.resolve_engine from the engine profile
    max_num_batched_tokens: int | None = Field(
        None, ge=16, le=1_048_576, description="tokens per engine step (chunked prefill); None: the engine's default"
    )
    max_num_seqs: int | None = Field(None, ge=1, le=65536, description="most requests decoded together; None: the engine's default")
    block_size: int = Field(16, ge=1, le=1024, description="tokens per paged KV block")
    # on one GPU; tensor parallelism over NVLink adds the communicators' buffers unless this is set (advisor/sizing/non_torch.py)
    non_torch_bytes: int = Field(int(0.25 * GiB), ge=0, description="NCCL/cuBLAS workspaces and other non-PyTorch memory per GPU")
    cuda_context_bytes: int = Field(int(0.5 * GiB), ge=0, description="CUDA context; lives outside the engine's budget")
    cuda_graph_bytes: int = Field(int(0.5 * GiB), ge=0, description="captured CUDA graphs; taken from the headroom")
    activation_bytes: int | None = Field(None, ge=0, description="peak activation memory; None = estimate from the model")
    hybrid_kv: bool = Field(True, description="sliding-window layers keep only their window (vLLM V1 hybrid KV manager)")
    # s16-models (#28 vLLM state pages): vLLM's --mamba-cache-mode for linear-attention (Mamba/Gated DeltaNet) layers.
    # "none" (prefix caching off, the default for hybrid models) keeps one state page per request and layer group;
    # "align", which --enable-prefix-caching selects for Qwen3.5 and Qwen3-Next (vLLM 0.16.1 logs "Mamba cache mode is
    # set to 'align' ... by default when prefix caching is enabled"), keeps two (MambaSpec.max_memory_usage_bytes)
    mamba_cache_mode: Literal["none", "align"] = Field(
        "none", description="vLLM --mamba-cache-mode: 'align' (prefix caching on a hybrid model) holds two state pages per request"
    )
    # s18-sglang (#28): SGLang's --mem-fraction-static, the share of the free memory read before loading the weights
    # that weights + KV pool may take (advisor/sizing/sglang_pool.py). None: what SGLang picks for the GPU, TP degree
    # and release. vLLM and llama.cpp ignore it (vLLM's share is gpu_memory_utilization).
    mem_fraction_static: float | None = Field(
        None, gt=0.05, le=1.0, description="SGLang --mem-fraction-static; None: SGLang's default for the GPU and TP degree"
    )
    # s20-sglang20 (#28): how SGLang divides that pool for a hybrid model (advisor/sizing/sglang_hybrid.py). None: its
    # default (server_args.py: swa_full_tokens_ratio 0.8, mamba_full_memory_ratio 0.9). Only a sliding-window model
    # that gets SGLang's SWA pool reads the first, only a linear-attention model the second; vLLM ignores both.
    swa_full_tokens_ratio: float | None = Field(
        None, description="SGLang --swa-full-tokens-ratio: tokens a sliding-window layer holds per full-attention "
        "layer token, in (0, 1]; None: SGLang's 0.8",
    )
    mamba_full_memory_ratio: float | None = Field(
        None, description="SGLang --mamba-full-memory-ratio: bytes of request states per byte of full-attention KV, "
        "above 0; None: SGLang's 0.9",
    )

    @field_validator("swa_full_tokens_ratio")
    @classmethod
    def _swa_ratio(cls, v: float | None) -> float | None:
        # SGLang's --swa-full-tokens-ratio help: "It should be between 0 and 1"; at 0 its SWA pool holds no request
        # (HybridSWAPoolConfigurator._solve_pool_sizes refuses a pool below the window plus a page)
        if v is not None and not (math.isfinite(v) and 0 < v <= 1):
            raise ValueError(tr("sizing20_sglang20.swa_ratio_range", value=v))
        return v

    @field_validator("mamba_full_memory_ratio")
    @classmethod
    def _mamba_ratio(cls, v: float | None) -> float | None:
        # SGLang takes any positive number (state bytes ÷ KV bytes, handle_max_mamba_cache); at 0 it keeps no state
        # slot and runs no request
        if v is not None and not (math.isfinite(v) and v > 0):
            raise ValueError(tr("sizing20_sglang20.mamba_ratio_range", value=v))
        return v


class SpeedFactors(BaseModel):
    """Efficiency factors of the roofline speed model: named, visible settings with documented defaults.

    Each has a (low, high) range; estimates are reported as a value with that range.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    mfu: float = Field(0.5, gt=0, le=1, description="share of dense tensor peak reached in prefill")
    mfu_range: tuple[float, float] = (0.35, 0.65)
    mbu: float = Field(0.75, gt=0, le=1, description="share of memory bandwidth reached in decode")
    mbu_range: tuple[float, float] = (0.6, 0.85)
    # GPU time a step costs beside its layers (the embedding lookup, as NVIDIA aiconfigurator's step model has it);
    # the engine profiles set it with their sources (resources/engines/profiles.json), this default is vLLM's
    step_overhead_ms: float = Field(0.003, ge=0, le=1000, description="GPU time per engine step beside the layers (embedding lookup)")
    # The server's front end (one Python process in vLLM) detokenizes and streams every token; it runs beside the
    # GPU, so a step's tokens cannot leave faster than this: a ceiling of 1e6 / stream_token_us tokens/s. The default
    # is vLLM's (the default engine profile, like step_overhead_ms); each profile sets its own (factors_for).
    stream_token_us: float = Field(85.0, ge=0, le=10_000, description="front-end CPU time per streamed token")
    # The engine whose measured kernels apply (vLLM's by default; each profile sets its own): its fused-MoE rate
    # (advisor/sizing/moe_kernels.py) and, for vLLM and SGLang, vLLM's measured all-reduce (advisor/sizing/
    # allreduce.py). None: neither (an engine nothing was measured for).
    kernel_engine: str | None = Field("vllm", description="engine whose measured kernels (fused MoE, all-reduce) apply")
    # The engine's scheduler spends CPU time on every running request each step (vLLM's, measured by
    # bench/scheduler_costs.py). Engines that schedule the next step while the GPU runs this one (vLLM since async
    # scheduling became its default, SGLang's overlap scheduler) hide it unless it is the longer of the two.
    scheduler_us_per_seq: float = Field(0.0, ge=0, le=10_000, description="scheduler CPU time per running request per step")
    scheduler_overlaps: bool = Field(True, description="the scheduler runs beside the GPU (async), not between steps")
    # The model runner's CPU work per step beside the scheduler's (input preparation, the sampler's launches, the
    # sampled tokens' copy back to the CPU): hidden where the loop overlaps the GPU step, else between two steps.
    # Set by engine_profiles.factors_for for an engine version whose loop does not overlap (vLLM before 0.14).
    runner_us_per_step: float = Field(0.0, ge=0, le=100_000, description="model-runner CPU time per step between steps (synchronous loop)")
    engine_version: str | None = Field(
        None, description="engine version modelled (None: the current one): picks the fused-MoE rate and whether the "
        "scheduler overlaps the GPU",
    )
    # Piecewise CUDA graphs (vLLM V1 before FULL_AND_PIECEWISE became its default): every layer's attention is
    # launched from Python between two graph replays, and each step waits this long more per layer; set by
    # engine_profiles.factors_for from the profile for an older engine_version, 0 for the current engines.
    graph_gap_us_per_layer: float = Field(0.0, ge=0, le=10_000, description="per-layer launch gap per step (piecewise CUDA graphs)")
    # the same for a layer with MLA attention (DeepSeek-V2/V3, Kimi-K2): its eager decode path is longer; set with
    # graph_gap_us_per_layer by engine_profiles.factors_for, 0 wherever that is 0
    graph_gap_us_per_mla_layer: float = Field(0.0, ge=0, le=10_000, description="per-MLA-layer launch gap per step (piecewise CUDA graphs)")
    tp_efficiency_nvlink: float = Field(0.9, gt=0, le=1, description="speed kept per added GPU over NVLink")
    tp_efficiency_pcie: float = Field(0.7, gt=0, le=1, description="speed kept per added GPU over PCIe")

    @model_serializer(mode="wrap")
    def _chosen_only(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Only what someone chose is written (a user's --mfu, an engine profile's overheads). What was left alone
        # stays "the documented default" when read back: a project reopened with every field written would turn
        # MFU 0.5 into a chosen MFU (the linear layers would leave their measured GEMM rate) and pin vLLM's
        # fused-MoE kernel after a switch to SGLang, and it would not pick up better defaults later.
        data = handler(self)
        return {k: v for k, v in data.items() if k in self.model_fields_set}


SpeculativeMethod = Literal["draft_model", "eagle", "eagle3", "mtp", "ngram"]
SPECULATIVE_METHODS: tuple[SpeculativeMethod, ...] = ("draft_model", "eagle", "eagle3", "mtp", "ngram")
# the methods that load a model of their own beside the target (a draft model, or an EAGLE head's config.json)
METHODS_WITH_DRAFT: tuple[SpeculativeMethod, ...] = ("draft_model", "eagle", "eagle3")


class SpeculativeSettings(BaseModel):
    """Speculative decoding as vLLM runs it (``--speculative-config '{"method": …, "num_speculative_tokens": k}'``;
    advisor/sizing/speculative.py says what each method costs in memory and where each figure comes from):
    ``draft_model`` a separate draft model, ``eagle``/``eagle3`` an EAGLE head (``draft_model`` holds the head's
    config.json), ``mtp`` the target's own multi-token-prediction layers, ``ngram`` prompt look-up (no weights)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: SpeculativeMethod = Field("draft_model", description="vLLM's speculative method")
    draft_model: ModelSpec | None = Field(None, description="the draft model, or the EAGLE head's config (eagle, eagle3)")
    num_speculative_tokens: int = Field(ge=1, le=16, description="tokens the draft proposes per step (k)")
    draft_weights: str = Field("bf16", description="the draft checkpoint's weight format")
    # s25-spec28 (#28): an EAGLE-3 head's own lm_head covers a smaller vocabulary (its config's draft_vocab_size,
    # 32,000 for yuhuili's heads); None: the head's vocab_size, as vLLM's Eagle3LlamaForCausalLM defaults it
    draft_vocab_size: int | None = Field(None, ge=1, le=10_000_000, description="an EAGLE-3 head's draft_vocab_size")

    @model_validator(mode="after")
    def _draft_given_where_used(self) -> SpeculativeSettings:
        needs = self.method in METHODS_WITH_DRAFT
        if needs and self.draft_model is None:
            raise ValueError(tr("speculative25_spec28.needs_draft", method=self.method))
        if not needs and self.draft_model is not None:
            raise ValueError(tr("speculative25_spec28.no_draft", method=self.method))
        return self


class SizingRequest(BaseModel):
    """What the user asks: this model, in this format, at this context and concurrency, on these GPUs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: ModelSpec
    gpu: GpuSpec
    weights: str = "bf16"
    kv_dtype: Literal["bf16", "fp16", "fp8"] = "bf16"
    context: int = Field(8192, description="tokens per request: prompt + output")
    concurrency: int = Field(1, description="requests in flight at once")
    gpus: int = Field(1, description="GPUs working together (tensor parallel)")
    prompt_tokens: int | None = Field(None, description="prompt length for the TTFT estimate (default: context − output)")
    output_tokens: int | None = Field(None, description="output length for the decode estimate (default: min(512, context/4))")
    engine: EngineSettings = EngineSettings()
    factors: SpeedFactors = SpeedFactors()
    engine_profile: Literal["vllm", "sglang", "trtllm", "llama.cpp"] = Field(
        "vllm", description="engine whose per-request serving overhead is added to TTFT (GGUF formats: llama.cpp)"
    )
    shared_prefix_tokens: int = Field(
        0, ge=0, description="leading prompt tokens every request shares (a system prompt), reused by prefix caching"
    )
    # s24-models24 (#28): a draft model's weights and KV, and the lookahead slots each request holds
    speculative: SpeculativeSettings | None = Field(None, description="speculative decoding with a draft model (vLLM)")

    @field_validator("context")
    @classmethod
    def _context(cls, v: int) -> int:
        if v < 16:
            raise ValueError(tr("domain.sizing.context_min", value=v))
        if v > 100_000_000:
            raise ValueError(tr("domain.sizing.context_max", value=v))
        return v

    @field_validator("concurrency")
    @classmethod
    def _concurrency(cls, v: int) -> int:
        if v < 1:
            raise ValueError(tr("domain.sizing.concurrency_min", value=v))
        if v > 1_000_000:
            raise ValueError(tr("domain.sizing.concurrency_max", value=v))
        return v

    @field_validator("gpus")
    @classmethod
    def _gpus(cls, v: int) -> int:
        if v < 1:
            raise ValueError(tr("domain.sizing.gpus_min", value=v))
        if v > 64:
            raise ValueError(tr("domain.sizing.gpus_max"))
        return v

    @model_validator(mode="after")
    def _lengths(self) -> SizingRequest:
        for name in ("prompt_tokens", "output_tokens"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= self.context:
                raise ValueError(tr("domain.sizing.length_range", name=name, context=self.context))
        if self.shared_prefix_tokens > self.resolved_prompt_tokens:
            raise ValueError(
                tr("domain.sizing.prefix_in_prompt", prefix=self.shared_prefix_tokens, prompt=self.resolved_prompt_tokens)
            )
        if self.speculative is not None:
            _check_speculative(self)
        return self

    @property
    def resolved_output_tokens(self) -> int:
        if self.output_tokens is not None:
            return self.output_tokens
        if self.prompt_tokens is not None:
            return max(1, self.context - self.prompt_tokens)
        return max(1, min(512, self.context // 4))

    @property
    def resolved_prompt_tokens(self) -> int:
        if self.prompt_tokens is not None:
            return self.prompt_tokens
        return max(1, self.context - self.resolved_output_tokens)


def _full_attention_only(m: ModelSpec) -> bool:
    """Every layer a plain full-attention layer with per-head K and V (no sliding window, chunked, linear-attention or
    MLA layers), and no vision encoder."""
    return not (m.num_sliding_layers or m.num_linear_layers or m.num_chunked_layers or m.is_mla or m.has_vision)


def _check_speculative(req: SizingRequest) -> None:
    """What the speculative sizing covers, said where it does not (unknown stays unknown, never a silent size): vLLM
    only. A draft model or an EAGLE head: target and draft plain full-attention models, whose layers vLLM puts in one
    KV cache group of one block table (UniformTypeKVCacheSpecs); vLLM's DraftModelProposer refuses multimodal targets
    itself. MTP: a model whose checkpoint stores DeepSeek-style MTP layers, its layers all one kind (the MTP layer's
    KV joins theirs). That the draft speaks the target's tokenizer is the team's to check: a config does not say."""
    spec = req.speculative
    assert spec is not None
    if req.engine_profile != "vllm":
        raise ValueError(tr("speculative25_spec28.engine", engine=req.engine_profile))
    if spec.method == "ngram":
        return  # prompt look-up: no weights, no KV of its own
    if spec.method == "mtp":
        _check_mtp(req.model)
        return
    assert spec.draft_model is not None
    for role, m in (("target", req.model), ("draft", spec.draft_model)):
        if not _full_attention_only(m):
            raise ValueError(tr("sizing24_models24.spec_layers", model=m.name, role=tr(f"sizing24_models24.role.{role}")))
    if spec.method != "draft_model" and spec.draft_model.is_moe:
        raise ValueError(tr("speculative25_spec28.head_dense", model=spec.draft_model.name))
    if spec.method == "eagle" and spec.draft_model.hidden_size != req.model.hidden_size:
        # EAGLE-1's fc takes [the target's embedding, the target's hidden state] (2 × hidden) into the head's width
        raise ValueError(tr("speculative25_spec28.eagle_width", head=spec.draft_model.name,
                            width=spec.draft_model.hidden_size, target=req.model.name, target_width=req.model.hidden_size))


def _check_mtp(m: ModelSpec) -> None:
    """MTP applies only to a model with MTP layers in its checkpoint, sized here for DeepSeek's kind (one MLA + MoE
    layer, vLLM's DeepSeekMTP); Qwen3-Next's sits beside linear-attention layers and DeepSeek-V3.2's carries an
    indexer cache, whose KV groups are not sized here."""
    if m.num_mtp_layers == 0:
        raise ValueError(tr("speculative25_spec28.no_mtp", model=m.name))
    other_layers = m.num_sliding_layers or m.num_linear_layers or m.num_chunked_layers or m.has_vision
    if m.mtp_style != "deepseek" or other_layers or m.index_n_heads:
        raise ValueError(tr("speculative25_spec28.mtp_layers", model=m.name))


class BreakdownItem(BaseModel):
    """One part of the memory picture, with the formula and inputs behind it (shown as a tooltip)."""

    key: Literal["weights", "kv_cache", "activations", "non_torch", "cuda_graphs", "cuda_context", "held_back", "free"]
    bytes: int
    formula: str


class MemoryEstimate(BaseModel):
    """Per-GPU memory figures (with tensor parallelism each GPU holds a shard)."""

    params_total: int
    params_active: int
    params_checkpoint: int
    weights_bytes: int
    weights_bytes_all_gpus: int
    kv_bytes_per_token: int
    kv_bytes_per_request: int
    kv_cache_bytes: int
    activation_bytes: int
    overhead_bytes: int
    total_bytes: int
    gpu_memory_bytes: int
    engine_budget_bytes: int
    kv_budget_bytes: int
    block_size: int
    kv_blocks: int
    kv_tokens: int
    fits: bool
    weights_fit: bool
    max_concurrency: int
    max_concurrency_kv: int
    limited_by: Literal["kv_cache", "max_num_seqs", "weights"]
    max_context: int
    context_exceeds_model: bool
    kv_replication: int = Field(description="how many GPUs hold a copy of each KV head (TP above the KV head count)")
    sliding_window_layers: int
    kv_bytes_per_request_all_full: int = Field(description="as if every layer kept the full context")
    kv_bytes_per_request_unshared: int = Field(0, description="one request's KV with nothing shared")
    shared_prefix_tokens: int = Field(0, description="leading prompt tokens every request shares (a system prompt)")
    shared_prefix_blocks: int = Field(
        0, description="whole KV blocks of that prefix stored once (prefix caching; the partial last block is per request)"
    )
    kv_bytes_shared_prefix: int = Field(
        0, description="KV bytes of the shared blocks, held once; kv_bytes_per_request is then what each request adds"
    )
    headroom_ok: bool
    breakdown: list[BreakdownItem]
    held_back_bytes: int = Field(
        0, description="what vLLM's gpu_memory_utilization keeps from the engine beyond the CUDA context and graphs "
        "captured there (0 for SGLang and llama.cpp): in total_bytes, not in overhead_bytes, so that total_bytes ≤ "
        "gpu_memory_bytes exactly when the requests fit",
    )
    activation_over_share_bytes: int = Field(
        0, description="SGLang only: how far one step's estimated activation peak (activation_bytes) exceeds what its "
        "mem_fraction_static leaves outside the weights and KV pool (0: it fits, and for every other engine)",
    )
    # s19-sglswa (#28): how SGLang divides its KV pool for a model whose layers are not all full attention
    # (advisor/sizing/sglang_hybrid.py); None for the other engines and for plain models
    sglang_pool_kind: Literal["swa", "swa_off", "state", "state_unmodelled"] | None = Field(
        None, description="SGLang only: 'swa' a sliding-window pool beside the full-attention one (kv_tokens is then "
        "the full-attention pool), 'swa_off' sliding-window layers SGLang sizes as full attention, 'state' a "
        "linear-attention state pool beside the KV pool, 'state_unmodelled' a linear-attention state this project "
        "does not size for SGLang (the figures are then not SGLang's)",
    )
    sglang_swa_tokens: int | None = Field(None, description="tokens SGLang's sliding-window pool holds per SWA layer")
    sglang_swa_full_tokens_ratio: float | None = Field(None, description="--swa-full-tokens-ratio the split used")
    sglang_state_slots: int | None = Field(None, description="request states SGLang's state pool holds (max_mamba_cache_size)")
    sglang_mamba_full_memory_ratio: float | None = Field(None, description="--mamba-full-memory-ratio the split used")
    sglang_state_bytes_per_request: int | None = Field(None, description="one request's linear-attention state, all layers, one GPU")
    sglang_running_cap: int | None = Field(
        None, description="the most requests SGLang runs at once for want of state slots (3 a running request)"
    )
    # s24-models24 (#28): speculative decoding with a draft model (vLLM; advisor/sizing/speculative.py)
    draft_weights_bytes: int = Field(0, description="the draft model's weights on one GPU (in the breakdown's weights)")
    draft_kv_bytes_per_token: int = Field(
        0, description="the draft's KV per token on one GPU (in kv_bytes_per_token: its layers share the target's blocks)"
    )
    speculative_lookahead_tokens: int = Field(
        0, description="KV slots each request holds beyond its tokens for the proposed ones (num_speculative_tokens)"
    )


class Range(BaseModel):
    value: float
    low: float
    high: float

    @field_validator("value", "low", "high")
    @classmethod
    def _finite(cls, v: float) -> float:
        return v if math.isfinite(v) else 0.0


class ErrorFigures(BaseModel):
    """|predicted − measured| / measured over a set of public measurements."""

    n: int = Field(ge=0, description="measurements scored")
    median: float = Field(ge=0)
    p90: float = Field(ge=0)


LoadKey = Literal["concurrency_1", "concurrency_2_16", "concurrency_17_plus", "request_rate", "burst_100_plus", "burst_under_100"]


class LoadAccuracy(BaseModel):
    """The held-out error at one kind of load: a prediction is stated with the figure of the load it is for."""

    model_config = ConfigDict(frozen=True)

    load: LoadKey
    measurements: int = Field(ge=0)
    ttft: ErrorFigures
    tpot: ErrorFigures


Regime = Literal["below_knee", "saturated"]


class LikelyRange(BaseModel):
    """The range a prediction in one load regime is stated with: measured ÷ predicted fell between ``low`` and
    ``high`` for the public measurements of that regime (their ``quantiles``); ``coverage`` is how often the range
    held for a source it was not drawn from (each source left out in turn)."""

    model_config = ConfigDict(frozen=True)

    low: float = Field(gt=0, description="measured ÷ predicted at the low quantile")
    high: float = Field(gt=0, description="measured ÷ predicted at the high quantile")
    quantiles: tuple[float, float]
    n: int = Field(ge=0, description="measurements the factors were drawn from (all splits)")
    coverage: float = Field(ge=0, le=1, description="share held by a range drawn without the point's own source")


ArchitectureGroup = Literal["dense", "moe"]


class ArchitectureRange(BaseModel):
    """The TPOT likely range of one architecture group in a regime (bench/predictor_accuracy.py's
    ``TPOT_GROUP_REASON`` says why decode is grouped so). ``tpot_range`` None: the group has too few points or sources
    for each of them to be judged with its own source left out, so the regime's range stands for it."""

    model_config = ConfigDict(frozen=True)

    architecture: ArchitectureGroup
    measurements: int = Field(ge=0, description="held-out rows of this group in the regime")
    sources: int = Field(ge=0, description="distinct public sources behind them")
    tpot_range: LikelyRange | None = None
    held: float | None = Field(None, ge=0, le=1, description="share of the group's points the range it is stated "
                               "with (its own, else the regime's) held for, each source left out")  # fmt: skip


class RegimeAccuracy(BaseModel):
    """The held-out error and the likely range below the predictor's own knee, or past it (saturated)."""

    model_config = ConfigDict(frozen=True)

    regime: Regime
    measurements: int = Field(ge=0, description="held-out rows in this regime")
    ttft: ErrorFigures
    tpot: ErrorFigures
    ttft_range: LikelyRange | None = None
    tpot_range: LikelyRange | None = None
    tpot_by_architecture: tuple[ArchitectureRange, ...] = Field(
        (), description="the TPOT range per architecture group (dense or MoE); a group without one uses tpot_range"
    )

    def range_for(self, metric: Literal["ttft", "tpot"], architecture: ArchitectureGroup | None = None) -> LikelyRange | None:
        if metric == "ttft":
            return self.ttft_range
        group = next((g for g in self.tpot_by_architecture if g.architecture == architecture), None)
        return group.tpot_range if group is not None and group.tpot_range is not None else self.tpot_range


class LatencySpan(BaseModel):
    """A predicted latency as the range public measurements in its regime fell in (milliseconds)."""

    model_config = ConfigDict(frozen=True)

    low: float = Field(ge=0)
    high: float = Field(ge=0)
    held: float = Field(ge=0, le=1, description="share of held-out public measurements the range held for")
    measurements: int = Field(ge=0)


class LikelyLatency(BaseModel):
    """TTFT and TPOT as likely ranges, for the regime the load is in (below the predicted knee or past it)."""

    model_config = ConfigDict(frozen=True)

    regime: Regime
    ttft_ms: LatencySpan | None = None
    tpot_ms: LatencySpan | None = None


class PredictorAccuracy(BaseModel):
    """How far the predictor was from public serving measurements that nothing in it was fitted to (the held-out
    rows of tests/fixtures/predictor_accuracy.csv, scored by bench/predictor_accuracy.py --write)."""

    model_config = ConfigDict(frozen=True)

    measurements: int = Field(ge=0, description="held-out rows")
    sources: int = Field(ge=0, description="distinct public sources behind them")
    ttft: ErrorFigures
    tpot: ErrorFigures
    doc: str = Field(description="where the per-point table and every modelling choice are written down")
    engines: tuple[str, ...] = Field((), description="engine profiles with at least one public measurement (any split)")
    gpus: tuple[str, ...] = Field((), description="catalog GPUs with at least one public measurement (any split)")
    by_load: tuple[LoadAccuracy, ...] = Field((), description="the same held-out figures, split by the load measured")
    by_regime: tuple[RegimeAccuracy, ...] = Field(
        (), description="below the predictor's own knee for the row's setup, or past it: error and likely range"
    )

    def at_load(self, load: LoadKey | None) -> LoadAccuracy | None:
        return next((a for a in self.by_load if a.load == load), None)

    def in_regime(self, regime: Regime) -> RegimeAccuracy | None:
        return next((a for a in self.by_regime if a.regime == regime), None)


class SpeculativeMeasurement(BaseModel):
    """A published mean accepted length for the method on this model (advisor/sizing/speculative_acceptance.py)."""

    k: int = Field(description="proposed tokens a step in the measurement")
    tau_low: float = Field(description="mean tokens a verification step yielded, lowest data set (bonus token included)")
    tau_high: float = Field(description="the same, highest data set")
    drafter: str = Field(description="the head or module measured")
    data: str = Field(description="data sets and sampling of the measurement")
    source: str


class SpeculativeAcceptance(BaseModel):
    """Per-token acceptance α for the request's k: from the measurement at that k, else the nearest, else spanning
    the two measured on either side (later positions are accepted less often than earlier ones, so α at k lies
    between theirs)."""

    alpha_low: float = Field(description="per-token acceptance at the low end (Leviathan et al. 2023 from τ)")
    alpha_high: float
    measurements: list[SpeculativeMeasurement]


class SpeculativeAtLoad(BaseModel):
    """Speculation's effect at one number of streams decoding together (mid cost model)."""

    streams: int
    speedup: Range | None = Field(None, description="TPOT without ÷ with speculation over the acceptance range; None: unknown")
    break_even_tokens_per_step: float | None = Field(
        None, description="tokens a step must yield on average for speculation to pay here; None: more than k + 1 (it cannot)"
    )


class SpeculativeSpeed(BaseModel):
    """Decode speed with speculative decoding (s26-spec28, #28): each step the proposer drafts k tokens a sequence and
    the target verifies them in one forward of k + 1 positions; a step yields E = (1 − α^(k+1)) / (1 − α) tokens for
    per-token acceptance α. Speed-ups only where acceptance for the method on this model is published."""

    method: str
    k: int
    acceptance: SpeculativeAcceptance | None = Field(None, description="None: nobody published acceptance for this pair")
    # s27-predict28 (#28): acceptance is the (method, model, head) pair's; another head's on this model is named only
    other_drafters: list[str] = Field(
        default_factory=list, description="heads measured for this method on this model that are not the user's: not used"
    )
    tokens_per_step: Range | None = Field(None, description="E at k over the published acceptance range")
    draft_ms: float = Field(description="the proposer's k forwards in one step (mid); 0 for n-gram, a CPU look-up")
    verify_ms: float = Field(description="the target's verification forward of k + 1 positions a sequence (mid)")
    base_tpot_ms: Range = Field(description="time per output token without speculation (the decode step)")
    tpot_ms: Range | None = Field(None, description="time per output token with speculation; None: acceptance unknown")
    tokens_per_s: Range | None = Field(None, description="per stream with speculation; None: acceptance unknown")
    base_tokens_per_s: Range
    at_concurrency: SpeculativeAtLoad
    by_streams: list[SpeculativeAtLoad] = Field(description="the same at 1, 2, 4, … streams: where it stops paying")
    helps_up_to: int | None = Field(None, description="most streams in by_streams whose speed-up's low end is above 1")
    no_gain_from: int | None = Field(None, description="fewest streams in by_streams whose speed-up's high end is at most 1")
    regime: Literal["helps", "uncertain", "no_gain", "unknown"] = Field(
        description="at the requested concurrency: the whole range above 1, straddling 1, at most 1, or no acceptance known"
    )
    sources: list[str]
    formula: str


class PerfEstimate(BaseModel):
    prompt_tokens: int
    output_tokens: int
    cached_prompt_tokens: int = Field(
        0, description="prompt tokens a warm prefix cache skips (the shared prefix's whole blocks); prefill computes the rest"
    )
    prefill_ms: Range
    prefill_bound: Literal["compute", "bandwidth"]
    decode_step_ms: Range
    # "front_end": the server's front end cannot stream the batch's tokens as fast as the GPU makes them
    decode_bound: Literal["compute", "bandwidth", "front_end"]
    front_end_tokens_per_s: float | None = Field(
        None, description="the most tokens/s one API server of this engine can stream (None: not a limit we model)"
    )
    decode_tokens_per_s: Range = Field(description="per user, at the requested concurrency")
    decode_tokens_per_s_total: Range = Field(description="whole server, at the requested concurrency")
    e2e_ms: Range
    ttft_ms: Range | None = Field(
        None, description="prefill + the engine profile's per-request serving overhead (what a client measures)"
    )
    request_overhead_ms: float = Field(0.0, description="HTTP, tokenization, scheduling, first detokenization")
    engine_profile: str = "vllm"
    steady_tpot_ms: Range | None = Field(
        None,
        description="TPOT when the users send back-to-back: the other users' prompts are prefilled between decode "
        "steps (what the predicted curve and a benchmark measure); decode_step_ms is decode alone",
    )
    steady_tokens_per_s_total: Range | None = Field(
        None, description="whole-server output rate in that steady state (prefills included)"
    )
    compute_flops_per_s: float
    bandwidth_bytes_per_s: float
    expert_share_of_peak: float | None = Field(
        None, description="share of the GPU's dense peak the routed experts reach in the engine's fused-MoE kernel "
        "(NVIDIA's measurement; None: a dense model, or no measurement for this engine or GPU)",
    )
    gemm_share_of_peak: float | None = Field(None, description="share of the dense peak the dense GEMMs reach")
    formula: dict[str, str]
    accuracy: PredictorAccuracy | None = Field(
        None, description="the predictor's measured error against held-out public measurements (what to expect)"
    )
    speculative: SpeculativeSpeed | None = Field(
        None, description="decode speed with the request's speculative decoding (advisor/sizing/speculative_speed.py)"
    )


class Advice(BaseModel):
    """A sentence for the user (already in the requested language) and, when relevant, the engine flags."""

    kind: Literal["fits", "does_not_fit", "warning", "suggestion"]
    text: str
    flags: str | None = None


class SizingResult(BaseModel):
    request: SizingRequest
    engine: EngineSettings = Field(description="the request's engine settings with the engine's defaults on this GPU filled in")
    weight_format: str
    memory: MemoryEstimate
    perf: PerfEstimate
    min_gpus: int | None = Field(description="smallest tensor-parallel degree on this GPU that fits; None if none ≤ 8")
    advice: list[Advice]
    verdict: Literal["fits", "does_not_fit", "engine_refuses", "context_too_long"] = Field(
        "fits",
        description="the headline: fits; does_not_fit (memory); engine_refuses (the TP degree does not split the "
        "heads as the engine requires); context_too_long (longer than the model accepts) — only 'fits' is green",
    )
    engine_refusal: Literal["attention_heads", "kv_heads", "draft_heads"] | None = Field(
        None, description="why the engine would refuse the tensor-parallel degree asked for"
    )
    vllm_command: str | None
    llama_cpp_command: str | None
    shared_prefix_note: str | None = Field(
        None, description="the shared-prefix assumption in words (what is stored once, what each request keeps)"
    )
    engine_switch: str | None = Field(
        None, description="said when the weight format decides the engine, not the request's engine profile (GGUF "
        "runs on llama.cpp): which engine the figures, advice and command are for, in words; None otherwise",
    )
    gpu_memory_basis: Literal["measured", "published", "driver_total", "estimate"] = Field(
        "estimate", description="where the usable GPU memory (memory.gpu_memory_bytes) comes from"
    )
    gpu_memory_note: str = Field(
        "", description="that provenance in words, with the source (a measurement file or a published report's URL)"
    )
    # s18-sglang: an engine that sizes its KV pool its own way (SGLang) says how, in words
    kv_pool_note: str | None = Field(
        None, description="SGLang's KV pool in words: the share of the free memory before loading it keeps, whether that "
        "share is the user's or SGLang's default, and what the weights leave (None for the other engines)",
    )
    # s18-sglcmd: SGLang's own launch line, so an SGLang request never gets a `vllm serve` one
    sglang_command: str | None = Field(
        None, description="the `python -m sglang.launch_server` line when the engine is SGLang (vllm_command is then "
        "None): TP degree, context length, mem_fraction_static as sized and the request cap",
    )
