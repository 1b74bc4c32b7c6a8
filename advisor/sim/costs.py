"""Wire the sizing core into the simulator: model + GPU + format → step costs and KV capacity in blocks."""

from __future__ import annotations

from dataclasses import dataclass

from advisor.domain.engine_profiles import EngineProfile, factors_for, get_profile, resolve_engine
from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.domain.sizing import (
    EngineSettings,
    MemoryEstimate,
    SizingRequest,
    SizingResult,
    SpeculativeAcceptance,
    SpeculativeSettings,
    SpeedFactors,
)
from advisor.i18n import tr
from advisor.sim.engine import EngineLimits, StepCosts
from advisor.sim.speculative_costs import (
    SpeculativeStepCosts,
    acceptance_for,
    simulated_tokens_per_step,
    speculative_step,
)
from advisor.sizing import size
from advisor.sizing.roofline import StepCostModel
from advisor.sizing.sglang_pool import with_default_chunk
from advisor.sizing.speculative_speed import SpeculativeStep


class SimSetupError(ValueError):
    """The model cannot be served as asked (weights do not fit, no room for any KV cache)."""


@dataclass(frozen=True)
class SimSetup:
    """Everything the engine and the simulated server need to behave like vLLM serving this model."""

    model: ModelSpec
    gpu: GpuSpec
    weights: str
    kv_dtype: str
    gpus: int
    costs: StepCostModel | StepCosts  # StepCosts: SpeculativeStepCosts, speculative decoding with published acceptance
    limits: EngineLimits
    sizing: SizingResult
    max_model_len: int
    profile: EngineProfile | None = None  # the engine profile whose overheads and defaults were applied
    # speculative decoding (advisor/sim/speculative_costs.py): the step it times, the published acceptance (None:
    # unknown, no speed-up simulated) and the tokens a simulated step yields (None where acceptance is unknown)
    speculative_step: SpeculativeStep | None = None
    speculative_acceptance: SpeculativeAcceptance | None = None
    speculative_tokens_per_step: float | None = None

    @property
    def served_model_name(self) -> str:
        return self.model.hf_repo or self.model.id

    @property
    def kv_bytes_per_token(self) -> int:
        return self.sizing.memory.kv_bytes_per_token


def build_setup(
    model: ModelSpec,
    gpu: GpuSpec,
    weights: str = "bf16",
    *,
    gpus: int = 1,
    kv_dtype: str = "bf16",
    context: int | None = None,
    engine: EngineSettings | None = None,
    factors: SpeedFactors | None = None,
    profile: str | None = None,
    shared_prefix_tokens: int = 0,
    prefix_caching: bool | None = None,
    speculative: SpeculativeSettings | None = None,
) -> SimSetup:
    """Size the deployment once and derive the simulator's parameters from it.

    ``context`` is the server's max_model_len (default: the model's own limit, capped by the KV capacity,
    as vLLM does at start-up).

    ``profile`` (vllm, sglang, trtllm, llama.cpp; see advisor.domain.engine_profiles) sets the per-request serving
    overhead, the per-step overhead, the front end's cost per streamed token and the batch settings ``engine``
    leaves open (None: the engine's default on this GPU) — vLLM's when None. ``factors`` carries the user's MFU
    and MBU.
    ``shared_prefix_tokens``: leading prompt tokens every request shares (a system prompt); with prefix
    caching (the profile's default unless ``prefix_caching`` says) they are computed once and their KV blocks
    shared.
    ``speculative``: speculative decoding (vLLM's methods): the proposer's weights and KV come out of the KV cache,
    and decode steps yield the published acceptance's tokens a step (advisor/sim/speculative_costs.py); where none
    is published, no speed-up is simulated.
    """
    prof = get_profile(profile)
    asked, engine = engine, resolve_engine(engine, prof, gpu)  # the batch settings left open: the engine's own here
    if prof.id == "sglang":  # its prefill chunk by GPU memory and release (advisor/sizing/sglang_pool.py)
        engine = with_default_chunk(asked, engine, gpu.effective_memory_bytes, (factors or SpeedFactors()).engine_version)
    # the request keeps the user's factors (another profile applied later resolves its own from them); the step
    # costs take the engine's step, streaming and scheduling overheads and its fused-MoE kernel on top
    base = factors or SpeedFactors()
    factors = factors_for(prof, base)
    ctx = min(context or model.max_context, model.max_context)
    req = SizingRequest(
        model=model, gpu=gpu, weights=weights, kv_dtype=kv_dtype, context=max(ctx, 16), concurrency=1,
        gpus=gpus, engine=engine, factors=base,
        # the engine sizes the KV cache: vLLM's start-up profile of base.engine_version only for vLLM (s17-kvcap)
        engine_profile=prof.id, speculative=speculative,
    )  # fmt: skip
    result = size(req)
    mem = result.memory
    if not mem.weights_fit or mem.kv_blocks < 1:
        raise SimSetupError(
            tr("sim.error.does_not_fit", model=model.id, gpus=gpus, gpu=gpu.name, weights=weights)
        )
    costs = engine_step_costs(model, gpu, weights, kv_dtype, gpus, prof, base)
    limits = engine_limits(mem, engine, prof, factors, shared_prefix_tokens=shared_prefix_tokens,
                           prefix_caching=prefix_caching)  # fmt: skip
    step = acceptance = yielded = None
    sim_costs: StepCostModel | StepCosts = costs
    if speculative is not None:
        # the step's default context (the simulated steps pass their own; `advisor predict` its workload's)
        step = speculative_step(req, costs, prof, base, float(req.resolved_prompt_tokens + req.resolved_output_tokens / 2))
        acceptance = acceptance_for(speculative, model)
        yielded = simulated_tokens_per_step(acceptance, speculative.num_speculative_tokens)
        if yielded is not None:
            sim_costs = SpeculativeStepCosts(costs, step, yielded)
    return SimSetup(
        model=model, gpu=gpu, weights=weights, kv_dtype=kv_dtype, gpus=gpus, costs=sim_costs, limits=limits,
        sizing=result, max_model_len=min(ctx, limits.kv_tokens), profile=prof, speculative_step=step,
        speculative_acceptance=acceptance, speculative_tokens_per_step=yielded,
    )  # fmt: skip


def engine_step_costs(model: ModelSpec, gpu: GpuSpec, weights: str, kv_dtype: str, gpus: int, profile: EngineProfile,
                      factors: SpeedFactors | None = None) -> StepCostModel:
    """The step costs ``profile`` runs this setup at: the user's ``factors`` (MFU, MBU) with the engine's step,
    streaming and scheduling overheads and its fused-MoE kernel (``factors_for``). ``build_setup`` uses it, and so
    does the plan's screening, so both price a step alike."""
    return StepCostModel.build(model, weights, kv_dtype, gpu, gpus, factors_for(profile, factors or SpeedFactors()))


def engine_limits(mem: MemoryEstimate, engine: EngineSettings, profile: EngineProfile, factors: SpeedFactors, *,
                  shared_prefix_tokens: int = 0, prefix_caching: bool | None = None) -> EngineLimits:
    """What the simulated engine may hold and how it schedules: the KV blocks of ``mem``, the batch settings of
    ``engine`` (resolved), and the profile's per-request overhead, step sharing and admission behaviour.
    ``factors``: the engine's own (``factors_for``), which say whether this version's loop overlaps the GPU step.
    The one place these are wired (``build_setup``, and the plan's candidates through ``advisor.plan.sizing``)."""
    return EngineLimits(
        # the blocks vLLM reports as its KV cache (fewer than it allocates when linear-attention states share the pool)
        kv_blocks=mem.kv_tokens // mem.block_size,
        block_size=mem.block_size,
        max_num_seqs=engine.max_num_seqs,
        max_num_batched_tokens=engine.max_num_batched_tokens,
        request_overhead_s=profile.request_overhead_s,
        shared_prefix_tokens=shared_prefix_tokens,
        prefix_caching=profile.prefix_caching_default if prefix_caching is None else prefix_caching,
        mixed_prefill=profile.mixed_prefill,
        admission_reserve=profile.admission_reserve,
        admission_reserve_floor=profile.admission_reserve_floor,
        admission_reserve_decay_steps=profile.admission_reserve_decay_steps,
        # an engine version whose loop overlaps the GPU step (factors_for: async scheduling, the overlap scheduler)
        schedule_ahead=profile.schedules_ahead and factors.scheduler_overlaps,
    )


def setup_from_ids(
    model: str, gpu: str, weights: str = "bf16", *, gpus: int = 1, kv_dtype: str = "bf16", context: int | None = None,
    engine: EngineSettings | None = None, profile: str | None = None, shared_prefix_tokens: int = 0,
) -> SimSetup:
    """Same, from catalog ids / a config.json path (what the CLI and the UI pass)."""
    from advisor.catalog import get_gpu, resolve_model

    return build_setup(
        resolve_model(model), get_gpu(gpu), weights, gpus=gpus, kv_dtype=kv_dtype, context=context, engine=engine,
        profile=profile, shared_prefix_tokens=shared_prefix_tokens,
    )  # fmt: skip


def apply_profile(
    setup: SimSetup,
    profile: str | None,
    *,
    shared_prefix_tokens: int = 0,
    prefix_caching: bool | None = None,
    context: int | None = None,
    engine: EngineSettings | None = None,
) -> SimSetup:
    """The same deployment served by another engine profile (its overheads and batch defaults on this GPU), with
    an optional shared prompt prefix. ``engine`` replaces the setup's engine settings; the batch settings it leaves
    open (None) follow the profile."""
    if engine is None:
        engine = setup.sizing.request.engine
        if profile is not None:
            engine = engine.model_copy(update={"max_num_seqs": None, "max_num_batched_tokens": None})
    return build_setup(
        setup.model, setup.gpu, setup.weights, gpus=setup.gpus, kv_dtype=setup.kv_dtype,
        context=context if context is not None else setup.sizing.request.context, engine=engine,
        factors=setup.sizing.request.factors,
        profile=profile, shared_prefix_tokens=shared_prefix_tokens, prefix_caching=prefix_caching,
        speculative=setup.sizing.request.speculative,
    )  # fmt: skip
