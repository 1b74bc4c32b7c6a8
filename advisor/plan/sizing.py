"""Which GPU × count × format × replicas meets the SLO at the peak, with headroom — on the sizing core.

Screening uses the sizing core's memory model and step-cost model (microseconds per candidate): for each
allowed GPU, weight format and tensor-parallel degree, the largest per-replica concurrency whose steady-state
TPOT and TTFT (p95 prompt, chunked prefill beside the running batch) stay within the SLO. The cheapest
candidate is then checked with the capacity predictor (``advisor.sim.predict``) at its real per-replica load,
and its latency curve is drawn from the same predictor. No second sizing model, and no second simulator setup:
the step costs and engine limits come from ``advisor.sim.costs`` (``engine_step_costs``, ``engine_limits``), the
builder behind ``advisor predict`` and the Sizing page's curve, for the engine the plan's command starts (vLLM).
"""

from __future__ import annotations

import functools
import itertools
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from advisor.cancel import checkpoint
from advisor.domain.engine_profiles import EngineProfile, factors_for, get_profile, resolve_engine
from advisor.domain.gpu import GpuSpec
from advisor.domain.sim import LengthDistribution, LevelPrediction, SimWorkload
from advisor.domain.sizing import EngineSettings, MemoryEstimate, SizingRequest, SpeedFactors
from advisor.plan import batch_kv, batch_rate
from advisor.plan.context import Ctx
from advisor.plan.data import gpus_by_id
from advisor.plan.prefill_queue import queued_prefill_p99_s
from advisor.sim.costs import engine_limits, engine_step_costs
from advisor.sim.engine import EngineLimits
from advisor.sim.monotone import monotone_latency
from advisor.sim.predict import find_knee, sample_lengths, simulate_concurrency
from advisor.sizing import TP_DEGREES
from advisor.sizing.memory import estimate_memory
from advisor.sizing.quant import get_format
from advisor.sizing.roofline import StepCostModel

HEADROOM = 0.2  # plan for 20 % more than the stated peak
P99_TPOT = 1.25  # steady-state step time → p99 TPOT (prompt arrivals make some steps longer)
P99_TTFT = 1.3
MAX_REPLICAS = 64  # a service's replicas at most (more is a capacity reservation, not a plan on list prices)


def batch_quota_gpus() -> int:
    """GPUs of one type an offline batch may run on at once: the cloud GPU quota the plan assumes (gpu_choice.json
    batch_quota, grade U: providers grant quotas per account and region), the same for every model and layout (q29:
    a 70B on 2-GPU replicas had 128 GPUs and an 8B on one-GPU replicas 64, so the 8B "needed" a longer deadline)."""
    from advisor.plan.data import gpu_choice_facts

    return int(gpu_choice_facts()["batch_quota"]["gpus"])


def max_replicas(ctx: Any, tp: int) -> int:
    """The most replicas the plan lays out: ``MAX_REPLICAS`` for a service; for a batch, the assumed quota of GPUs
    at once over the replica's GPUs."""
    if getattr(ctx, "is_batch", False):
        return max(1, batch_quota_gpus() // max(1, tp))
    return MAX_REPLICAS
QUALITY_ORDER = {"bf16": 0, "fp16": 0, "fp8-block": 0, "mxfp4": 0, "fp8": 1, "int8": 1, "gptq-int8": 1, "awq-int4": 2, "gptq-int4": 2}


@dataclass
class Candidate:
    gpu: GpuSpec
    weights: str
    kv_dtype: str
    tp: int
    memory: MemoryEstimate
    costs: StepCostModel
    c_max: int  # per replica within the SLO (0: SLO not reachable)
    replicas: int
    ttft_p99_ms: float  # analytic, at the planned per-replica load
    tpot_p99_ms: float
    tokens_per_s_replica: float
    price_mid: float = 0.0  # USD per GPU-hour (for ranking)
    best_ttft_ms: float = 0.0  # lowest TTFT this setup reaches (one request, p95 prompt)
    best_tpot_ms: float = 0.0
    notes: list[str] = field(default_factory=list)
    checked: dict[int, LevelPrediction] = field(default_factory=dict)  # predictor levels already run
    # levels_at's running maxima, by the levels they were made from (see _monotone_below)
    monotone_memo: dict[tuple[int, ...], tuple[tuple[LevelPrediction, ...], list[LevelPrediction]]] = field(
        default_factory=dict, repr=False, compare=False)
    layout: Any = None  # node_shapes.Layout: the setup as whole servers/VMs on sale (set by gpu_choice.arrange)
    # the same GPU at a lower precision the answers accept that the cloud rents on fewer GPUs, where this setup is
    # bought (rent_sized.leaner): the rent beside the purchase is priced on it (engine._cost_of)
    rent_as: Any = field(default=None, repr=False, compare=False)
    # curve's knees, by the levels and limits they were found from (see _knee_of)
    knee_memo: dict[tuple, tuple[tuple[LevelPrediction, ...], Any]] = field(default_factory=dict, repr=False,
                                                                            compare=False)

    @property
    def total_gpus(self) -> int:
        return self.tp * self.replicas

    @property
    def per_replica(self) -> int:
        return max(1, math.ceil(self._peak / self.replicas)) if self.replicas else 0

    _peak: int = 0


def allowed_formats(ctx: Ctx, gpu: GpuSpec) -> list[tuple[str, str]]:
    """(weights, kv dtype) pairs the answers allow on this GPU, best quality first."""
    ck = ctx.model.checkpoint_quant
    if ck:
        return [(ck, "fp8" if ck.startswith("fp8") and gpu.fp8_tflops_dense and ctx.quant != "no" else "bf16")]
    native = "bf16" if gpu.architecture not in ("Turing", "Volta") else "fp16"
    out = [(native, "bf16" if native == "bf16" else "fp16")]
    if ctx.quant in ("fp8_only", "yes_after_quality_check", "yes") and gpu.fp8_tflops_dense:
        out.append(("fp8", "bf16"))
        if ctx.quant == "yes":
            out.append(("fp8", "fp8"))
    if ctx.quant in ("yes_after_quality_check", "yes"):
        out.append(("awq-int4", "bf16"))
    return out


SERVING_ENGINE = "vllm"  # the engine the plan's serve command starts unless the team runs SGLang (``Ctx.engine``)


def serving_profile(ctx: Ctx | None = None) -> EngineProfile:
    """The profile of the engine the plan serves with (``Ctx.engine``: vLLM, or SGLang when the team runs it): its
    per-request and per-step costs, batch defaults and scheduling, as ``advisor predict --engine-profile`` and the
    Sizing page read them."""
    return get_profile(ctx.engine if ctx is not None else SERVING_ENGINE)


@cache
def _serving_factors(profile_id: str = SERVING_ENGINE) -> SpeedFactors:
    """The engine's own speed factors on the default MFU/MBU (the plan has no measured ones): the current release."""
    return factors_for(get_profile(profile_id), SpeedFactors())


def _engine(ctx: Ctx, gpu: GpuSpec) -> EngineSettings:
    """vLLM: a step budget for the context (8k–16k tokens, passed in the command where it is not vLLM's default) and
    the batch cap vLLM picks on this GPU (256, 1024 on big ones). SGLang: its own defaults on this GPU (its launch
    line sets no chunk size, so the curve runs the one it starts with)."""
    profile = serving_profile(ctx)
    budget = max(8192, min(ctx.max_context, 16384)) if profile.id == "vllm" else None
    key = (id(profile), budget, id(gpu))
    hit = _ENGINES.get(key)
    if hit is not None and hit[0] is profile and hit[1] is gpu:
        return hit[2]
    settings = EngineSettings() if budget is None else EngineSettings(max_num_batched_tokens=budget)
    made = resolve_engine(settings, profile, gpu)
    if len(_ENGINES) >= 1024:
        _ENGINES.clear()
    _ENGINES[key] = (profile, gpu, made)
    return made


# ``_engine``'s settings by what they are made from: the very profile and GPU objects (both frozen; held here, so
# neither id can be reused by another object while its entry lives: an edited GPU row or a replaced profile is
# another key) and the step budget. Asked for at every level a plan reads (``limits``): two validated models a call
# were a twentieth of a plan whose levels were all simulated already, and hashing the GPU's fields a third of the rest
# (#27).
_ENGINES: dict[tuple[int, int | None, int], tuple[EngineProfile, GpuSpec, EngineSettings]] = {}


def step_costs(ctx: Ctx, gpu: GpuSpec, weights: str, kv: str, tp: int) -> StepCostModel:
    """A setup's step costs as the serving engine runs them (the predictor's builder, ``engine_step_costs``)."""
    model, profile = ctx.model, serving_profile(ctx)
    key = (id(model), id(gpu), id(profile), weights, kv, tp)
    hit = _STEP_COSTS.get(key)
    if hit is not None and hit[0] is model and hit[1] is gpu and hit[2] is profile:
        return hit[3]
    made = engine_step_costs(model, gpu, weights, kv, tp, profile)
    _keep(_STEP_COSTS, key, (model, gpu, profile, made))
    return made


def _memory(ctx: Ctx, gpu: GpuSpec, weights: str, kv: str, tp: int, engine: EngineSettings) -> MemoryEstimate:
    # as advisor calc sizes the same layout (advisor.sizing._memory): NVLink communicators included; SGLang's KV pool
    # as SGLang sizes it (a share of the memory free before loading), not vLLM's profile
    model, sglang = ctx.model, ctx.engine == "sglang"
    key = (id(model), id(gpu), id(engine), weights, kv, tp, ctx.max_context, sglang)
    hit = _MEMORY.get(key)
    if hit is not None and hit[0] is model and hit[1] is gpu and hit[2] is engine:
        return hit[3]
    made = estimate_memory(model, get_format(weights), kv, ctx.max_context, 1, gpu.effective_memory_bytes, tp, engine,
                           nvlink=gpu.interconnect == "nvlink", vllm_profile=not sglang, sglang_pool=sglang)
    _keep(_MEMORY, key, (model, gpu, engine, made))
    return made


# A setup's step costs and memory by exactly what they are made from: the very model, GPU row and engine profile or
# settings (all frozen; held in the entry, so no id is reused while it lives: an edited GPU row, a replaced profile
# or another model is another key) and the format, KV type, TP, context and engine kind. Neither reads the workload,
# yet the screen (cached by workload) built them again for every new one: every test plan with new lengths or a new
# peak, ~3 % of the plan test files (issue #27, round 2). Shared like the screen's own entries: treat as read-only.
_STEP_COSTS: dict[tuple, tuple[Any, GpuSpec, EngineProfile, StepCostModel]] = {}
_MEMORY: dict[tuple, tuple[Any, GpuSpec, EngineSettings, MemoryEstimate]] = {}
KEPT_SETUPS = 4096


def _keep(table: dict[tuple, Any], key: tuple, entry: Any) -> None:
    with _SCREEN_LOCK:  # plans run on worker threads
        if len(table) >= KEPT_SETUPS:
            table.clear()
        table[key] = entry


def _steady(costs: StepCostModel, ctx: Ctx, c: int, chunk: int) -> tuple[float, float]:
    """(TPOT p99, TTFT p99) in ms at concurrency c, analytic steady state."""
    p, o = ctx.prompt_avg, ctx.output_avg
    mixed = min(chunk, c * p / max(o, 1))  # prompt tokens entering per step in steady state
    ctx_tokens = c * (p + o / 2)
    step = costs.step_seconds(int(mixed), mixed * p / 2, c, ctx_tokens)
    tpot = step * P99_TPOT
    # TTFT: the p95 prompt is prefilled in chunks, each step shared with the running batch.
    p95 = ctx.prompt_p95
    steps = max(1, math.ceil(p95 / chunk))
    ttft = 0.0
    done = 0
    for _ in range(steps):
        n = min(chunk, p95 - done)
        ttft += costs.step_seconds(n, n * done + n * (n + 1) / 2, c, ctx_tokens)
        done += n
    ttft += step  # waiting for the current step to end, then one decode step for the first token
    return tpot * 1000, ttft * P99_TTFT * 1000


def _c_max(costs: StepCostModel, ctx: Ctx, mem: MemoryEstimate, engine: EngineSettings) -> int:
    avg_ctx = ctx.prompt_avg + ctx.output_avg
    cap = max(0, min(engine.max_num_seqs, mem.kv_tokens // max(avg_ctx, 1)))
    if cap < 1:
        return 0
    chunk = engine.max_num_batched_tokens

    def ok(c: int) -> bool:
        tpot, ttft = _steady(costs, ctx, c, chunk)
        return (ctx.tpot_slo_ms is None or tpot <= ctx.tpot_slo_ms) and (ctx.ttft_slo_ms is None or ttft <= ctx.ttft_slo_ms)

    if not ok(1):
        return 0
    lo, hi = 1, cap
    if ok(hi):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


# A setup's screening figures (memory, step costs, best latencies, the most users within the SLO or a batch job's
# steady rate) are pure functions of the model, the GPU, the format, the TP degree, the engine settings and the
# workload's lengths and SLO (the catalogs are read-only): re-plans of the same model — every offered fix, the
# reachable-TTFT search, the overseas node, a what-if — screen the same setups again and reuse them. The values are
# frozen (MemoryEstimate, StepCostModel, BatchRate), so sharing them between candidates is safe.
SCREEN_CACHE_SIZE = 4096
_SCREEN_CACHE: OrderedDict[tuple, tuple | None] = OrderedDict()
_SCREEN_LOCK = threading.Lock()
# The keys hold small numbers standing for the model + workload and for the GPU + engine settings (``_token``): a
# pydantic model hashes and compares field by field, which took as long as the figures themselves once per setup.
_TOKENS: dict[Any, int] = {}
_NEXT_TOKEN = itertools.count()  # never reused, even after a clear: a key made before it cannot mean another setup


def _token(value: Any) -> int:
    with _SCREEN_LOCK:
        token = _TOKENS.get(value)
        if token is None:
            token = _TOKENS[value] = next(_NEXT_TOKEN)
        return token


def _workload_token(ctx: Ctx) -> int:
    """The model and the workload a setup is screened for."""
    return _token((ctx.model, ctx.max_context, ctx.prompt_avg, ctx.prompt_p95, ctx.output_avg, ctx.tpot_slo_ms,
                   ctx.ttft_slo_ms, ctx.is_batch, ctx.engine))  # fmt: skip


def _screened(ctx: Ctx, gpu: GpuSpec, weights: str, kv: str, tp: int, engine: EngineSettings,
              tokens: tuple[int, int]) -> tuple | None:
    """(memory, step costs, best TPOT, best TTFT, fit) of one setup, None when it does not hold the context; fit
    is c_max, or (concurrency, rate, TPOT p99, TTFT p99) of a batch job. Cached (see ``_SCREEN_CACHE``); ``tokens``:
    (``_workload_token(ctx)``, ``_token((gpu, engine))``)."""
    key = (*tokens, weights, kv, tp)
    with _SCREEN_LOCK:
        if key in _SCREEN_CACHE:
            _SCREEN_CACHE.move_to_end(key)
            return _SCREEN_CACHE[key]
    mem = _memory(ctx, gpu, weights, kv, tp, engine)
    out: tuple | None = None
    if mem.weights_fit and mem.kv_tokens >= ctx.max_context:
        costs = step_costs(ctx, gpu, weights, kv, tp)
        best_tpot, best_ttft = _steady(costs, ctx, 1, engine.max_num_batched_tokens)
        fit: Any
        if ctx.is_batch:
            c = batch_rate.batch_concurrency(mem.kv_tokens, ctx.prompt_avg, ctx.output_avg)
            rate = batch_rate.batch_rate(costs, ctx.prompt_avg, ctx.output_avg, c, engine.max_num_batched_tokens)
            fit = (c, rate, *_steady(costs, ctx, c, engine.max_num_batched_tokens))
        else:
            fit = _c_max(costs, ctx, mem, engine)
        out = (mem, costs, best_tpot, best_ttft, fit)
    with _SCREEN_LOCK:
        _SCREEN_CACHE[key] = out
        while len(_SCREEN_CACHE) > SCREEN_CACHE_SIZE:
            _SCREEN_CACHE.popitem(last=False)
        if len(_TOKENS) > SCREEN_CACHE_SIZE:  # many workloads: start afresh
            _TOKENS.clear()
            _SCREEN_CACHE.clear()
    return out


def _tp_price(price_of, gpu_id: str, tp: int) -> float | None:
    """The price of a GPU in an instance that holds a replica of ``tp`` GPUs, where ``price_of`` tells one
    (``engine._price_fn``: a TP2 replica is not priced at a one-GPU VM's rate, q25); else its one price."""
    return price_of(gpu_id, tp) if getattr(price_of, "by_tp", False) else price_of(gpu_id)


def screen(ctx: Ctx, gpu_ids: list[str], price_of) -> tuple[list[Candidate], list[Candidate]]:
    """(candidates that meet the SLO at the peak, the best of those that fit but miss it), cheapest first."""
    ok: list[Candidate] = []
    near: list[Candidate] = []
    target = math.ceil(ctx.peak * (1 + HEADROOM))
    table = gpus_by_id()
    work = _workload_token(ctx)
    for gid in gpu_ids:
        gpu = table[gid]
        price = price_of(gpu.id)
        if price is None:
            continue
        engine = _engine(ctx, gpu)
        tokens = (work, _token((gpu, engine)))
        for weights, kv in batch_kv.with_fp8_kv(ctx, gpu, allowed_formats(ctx, gpu)):  # a job's KV in FP8 too
            for tp in TP_DEGREES:
                if tp > gpu.max_gpus_per_node:
                    break
                if ctx.model.num_attention_heads % tp:
                    continue
                setup = _screened(ctx, gpu, weights, kv, tp, engine, tokens)
                if setup is None:
                    continue
                price = _tp_price(price_of, gpu.id, tp)
                if price is None:  # no instance on sale holds the replica's GPUs in one machine (instance_fit)
                    continue
                mem, costs, best_tpot, best_ttft, fit = setup
                if ctx.is_batch:  # the job's steady rate at the load a batch engine runs (advisor.plan.batch_rate)
                    c, rate, tpot, ttft = fit
                    # finished with margin, setup included (batch_rate.DEADLINE_MARGIN), never just inside the deadline
                    replicas = batch_rate.replicas_needed(rate, ctx.total_requests or 1,
                                                          batch_rate.work_hours(ctx.batch_hours or 24))
                    cand = Candidate(gpu, weights, kv, tp, mem, costs, c, replicas, ttft, tpot,
                                     rate.output_tokens_per_s, price, best_ttft, best_tpot)  # fmt: skip
                    cand._peak = c * replicas
                    (ok if replicas <= max_replicas(ctx, tp) else near).append(cand)
                    continue
                c_max = fit
                if c_max < 1:
                    near.append(Candidate(gpu, weights, kv, tp, mem, costs, 0, 0, best_ttft, best_tpot, 0.0, price,
                                          best_ttft, best_tpot))  # fmt: skip
                    continue
                replicas = max(1, math.ceil(target / c_max))
                per = max(1, math.ceil(ctx.peak / replicas))
                tpot, ttft = _steady(costs, ctx, per, engine.max_num_batched_tokens)
                tok_s = per * 1000 / (tpot / P99_TPOT)
                cand = Candidate(gpu, weights, kv, tp, mem, costs, c_max, replicas, ttft, tpot, tok_s, price,
                                 best_ttft, best_tpot)  # fmt: skip
                cand._peak = ctx.peak
                (ok if replicas <= MAX_REPLICAS else near).append(cand)

    def cost_key(c: Candidate) -> tuple:
        return (round(c.total_gpus * c.price_mid, 6), c.total_gpus, QUALITY_ORDER.get(c.weights, 3), c.gpu.id, c.tp)

    ok.sort(key=cost_key)
    if ctx.is_batch:  # a job no setup finishes in time: the one that needs the fewest GPU-hours is the nearest
        near.sort(key=cost_key)
    else:
        near.sort(key=lambda c: (c.best_ttft_ms, c.total_gpus * c.price_mid, c.gpu.id, c.weights, c.tp))
    return ok, near


def workload(ctx: Ctx) -> SimWorkload:
    """The simulated users' prompt and output lengths: every predictor level's workload, and part of its cache key."""
    return _workload(ctx.prompt_avg, ctx.prompt_p95, ctx.output_avg, ctx.output_p95, ctx.max_context)


@functools.lru_cache(maxsize=64, typed=True)
def _workload(prompt_avg: int, prompt_p95: int, output_avg: int, output_p95: int, max_context: int) -> SimWorkload:
    """``workload`` from the five answers it reads, remembered (a frozen model: shared safely). A plan asks for it at
    every level it reads (scenario 12: ~740 times), and building the distributions was a twentieth of a plan whose
    levels were all simulated already (#27)."""

    def dist(avg: int, p95: int, cap: int) -> LengthDistribution:
        if p95 <= avg:
            return LengthDistribution.fixed(avg)
        r = min(p95 / avg, 3.5)
        disc = 1.645**2 - 2 * math.log(r)
        sigma = 1.645 - math.sqrt(max(disc, 0.0))
        cv = min(math.sqrt(math.exp(sigma**2) - 1), 3.0)
        return LengthDistribution(kind="lognormal", mean=avg, cv=cv, min=1, max=max(avg, min(cap, int(p95 * 1.5))))

    # Longest draws: what the context leaves beside the other side's p95, never below the stated p95 (a cap of
    # half the context cut a 3,000-token p95 prompt to 2,048 tokens in a 4,096-token context).
    p_cap = max(prompt_p95, max_context - output_p95)
    o_cap = max(output_p95, max_context - prompt_p95)
    return SimWorkload(prompt=dist(prompt_avg, prompt_p95, p_cap),
                       output=dist(output_avg, output_p95, o_cap), seed=0)  # fmt: skip


def limits(ctx: Ctx, cand: Candidate, cap: int | None = None) -> EngineLimits:
    """The candidate's engine as the predictor simulates it (``advisor.sim.costs.engine_limits``, what
    ``advisor predict`` and the Sizing page build): its KV blocks and batch settings, and the serving engine's
    per-request overhead, step sharing, admission reserve and step-ahead scheduling. ``cap``: the requests the
    serve command lets run at once (``--max-num-seqs``); None: the engine's default (256, 1,024 on big GPUs), what
    the sizing search explores a replica with. The KV blocks stay the screen's (sized at the default cap: on a
    big GPU a lower cap leaves vLLM up to ~1 % more KV cache, so the curve errs on the short side)."""
    settings, profile, factors = _engine(ctx, cand.gpu), serving_profile(ctx), _serving_factors(ctx.engine)
    mem = cand.memory
    key = (id(settings), id(profile), id(factors), mem.kv_tokens, mem.block_size, cap)
    hit = _LIMITS.get(key)
    if hit is not None and hit[0] is settings and hit[1] is profile and hit[2] is factors:
        return hit[3]
    engine = settings if cap is None else settings.model_copy(update={"max_num_seqs": cap})
    made = engine_limits(mem, engine, profile, factors)
    if len(_LIMITS) >= 4096:
        _LIMITS.clear()
    _LIMITS[key] = (settings, profile, factors, made)
    return made


# ``limits`` by what ``engine_limits`` reads: the very engine settings, profile and speed factors (all frozen; held
# here, so no id is reused while its entry lives: a replaced profile or an edited GPU's settings is another key), the
# memory's KV tokens and block size (ints) and the cap. A plan asks for the limits at every level it reads, simulated
# or not (the level cache's key): two copies and a dataclass a call were ~2 % of the plan test files (#27, round 2).
_LIMITS: dict[tuple, tuple[EngineSettings, EngineProfile, SpeedFactors, EngineLimits]] = {}


# A level's TTFT p99 needs about 100 measured requests to mean anything; at low concurrency each request costs
# `output` engine steps, so the plan (< 200 ms) cannot afford that many there. Levels measure as many requests
# as STEPS_PER_LEVEL engine steps allow (at least MIN_MEASURED, at most MAX_MEASURED), and the TTFT p99 shown
# is never below the analytic p99 (``analytic_ttft_p99_ms``): the p99 of a handful of samples is their maximum,
# which swings with the few prompt lengths drawn (issue 9 follow-up: 220 ms at 1 user, 143 ms at 8).
# TPOT p99 has the same trouble and no cheap cure: on q11's TP2 L20 replica the p99 of 10-24 requests read 53.9 ms
# at 5, 42.4 at 6, 58.2 at 10, against 52.4, 58.1, 68.4 over 200 requests, and even 100 requests swing by 20 ms
# (a p99 of 100 is their maximum). Levels are read through a running maximum instead (``levels_at``).
STEPS_PER_LEVEL = 800
MIN_MEASURED = 8
MAX_MEASURED = 128
STABLE_P99_SAMPLES = 100


def measured_requests(ctx: Ctx, c: int) -> int:
    """Requests one predictor level measures at concurrency ``c`` (see STEPS_PER_LEVEL)."""
    return max(MIN_MEASURED, min(MAX_MEASURED, STEPS_PER_LEVEL * max(1, c) // max(ctx.output_avg, 1)))


_P99_CACHE: dict[tuple, int] = {}


def prompt_p99_tokens(ctx: Ctx) -> int:
    """99th percentile of the prompt lengths the predictor draws (the same sampler, 20,000 draws, fixed seed)."""
    dist = workload(ctx).prompt
    key = (dist.kind, dist.mean, dist.min, dist.upper, dist.cv)
    if key not in _P99_CACHE:
        import numpy as np

        _P99_CACHE[key] = int(np.percentile(sample_lengths(dist, 20_000, np.random.default_rng(99)), 99))
    return _P99_CACHE[key]


def analytic_ttft_p99_ms(ctx: Ctx, cand: Candidate, c: int) -> float:
    """TTFT of the p99 prompt at concurrency ``c``: the server's time per request, then wait for the step under
    way (and the one already planned, on an engine that schedules a step ahead), then prefill in chunks beside the
    other ``c − 1`` users' decode steps (the first token comes with the last chunk, as in the predictor).
    For prompts longer than a step's budget, never below the p99 of the same wait plus the other users' prefill still
    ahead of it and its own (``advisor.plan.prefill_queue``): long prompts queue behind each other. Non-decreasing in ``c`` up to that
    draw's noise (every step only grows with the batch); the curve reads levels through a running maximum."""
    lim = limits(ctx, cand)
    chunk = lim.max_num_batched_tokens
    p, o = ctx.prompt_avg, ctx.output_avg
    others = max(0, c - 1)
    kv = others * (p + o / 2)
    mixed = min(chunk, others * p / max(o, 1))  # the others' prompt tokens entering per step
    wait = cand.costs.step_seconds(int(mixed), mixed * p / 2, others, kv) if others else 0.0
    if lim.schedule_ahead:  # an arrival during step n is admitted in step n + 2 (advisor.sim.engine)
        wait *= 2
    total, done, p99 = lim.request_overhead_s + wait, 0, prompt_p99_tokens(ctx)
    while done < p99:
        n = min(chunk, p99 - done)
        total += cand.costs.step_seconds(n, n * done + n * (n + 1) / 2, others, kv)
        done += n
    # ... and, for prompts longer than a step's budget, never below the p99 of an arrival that waits for the other
    # users' prompts still being prefilled (their chunks take whole steps before its own: advisor.plan.prefill_queue),
    # which grows with ``c``. Prompts that fit a step share it with the arrival's: the wait for the step under way
    # above stands for them, as before.
    if others and p > chunk:
        queued = lim.request_overhead_s + wait + queued_prefill_p99_s(cand.costs, lim, workload(ctx), c, kv)
        total = max(total, queued)
    return total * 1000.0  # the first token comes with the last prefill chunk


# Predictor levels by everything a level depends on: the step costs (model, GPU, format, TP: a frozen dataclass
# of numbers), the engine limits (KV blocks, batch budget), the workload (length distributions and seed), the
# concurrency and the requests measured. The simulator is deterministic (fixed seed), so a hit is exactly what a
# new run would give: a what-if that changes the budget, deadline, ICP status or user location re-plans without
# re-simulating hardware it has already simulated (the simulator was ~90 % of a plan's time).
LEVEL_CACHE_SIZE = 512
_LEVEL_CACHE: OrderedDict[tuple, LevelPrediction] = OrderedDict()
_LEVEL_LOCK = threading.Lock()  # plans run on worker threads; a test or the CLI may plan on another


def clear_level_cache() -> None:
    """Forget every simulated level and screened setup (the next plan works from scratch: the cold path)."""
    with _LEVEL_LOCK:
        _LEVEL_CACHE.clear()
    with _SCREEN_LOCK:
        _SCREEN_CACHE.clear()
        _TOKENS.clear()
        _STEP_COSTS.clear()
        _MEMORY.clear()
    _SHARED_MONOTONE.clear()
    _SHARED_KNEES.clear()


def simulate_at(ctx: Ctx, cand: Candidate, c: int, measure: int | None = None, cap: int | None = None) -> LevelPrediction:
    """One predictor level, its TTFT p99 floored at the analytic p99 when too few requests were measured; ``cap``:
    the engine's ``max_num_seqs`` as the serve command sets it (``limits``).

    Results are cached (see ``_LEVEL_CACHE``); treat the returned level as read-only."""
    n = measure if measure is not None else measured_requests(ctx, c)
    lim, work = limits(ctx, cand, cap), workload(ctx)
    key = (cand.costs, lim, work, c, n)
    with _LEVEL_LOCK:
        hit = _LEVEL_CACHE.get(key)
        if hit is not None:
            _LEVEL_CACHE.move_to_end(key)
            return hit
    checkpoint()  # a background plan (the wizard's prewarm) stops here when cancelled: each level is ~10-100 ms
    lv = _simulate_floored(ctx, cand, c, n, lim, work)
    with _LEVEL_LOCK:
        _LEVEL_CACHE[key] = lv
        while len(_LEVEL_CACHE) > LEVEL_CACHE_SIZE:
            _LEVEL_CACHE.popitem(last=False)
    return lv


def _simulate_floored(ctx: Ctx, cand: Candidate, c: int, n: int, lim: EngineLimits, work: SimWorkload) -> LevelPrediction:
    lv = simulate_concurrency(cand.costs, lim, work, c, measure=n)
    if n >= STABLE_P99_SAMPLES or lv.ttft_ms.p99 is None:
        return lv
    floor = analytic_ttft_p99_ms(ctx, cand, c)
    if lv.ttft_ms.p99 >= floor:
        return lv
    return lv.model_copy(update={"ttft_ms": lv.ttft_ms.model_copy(update={"p99": floor})})


def curve_levels(per_replica: int, *, beyond: bool = True) -> list[int]:
    """Concurrency levels of the latency curve: 1, ¼, ½ and 1 × the per-replica load (and 2 × with ``beyond``)."""
    levels = {1, max(1, per_replica // 4), max(1, per_replica // 2), max(1, per_replica)}
    if beyond:
        levels.add(max(2, per_replica * 2))
    return sorted(levels)


def monotone_ttft(points: list[LevelPrediction]) -> list[LevelPrediction]:
    """TTFT and TPOT p50…p99 made non-decreasing in concurrency (points sorted by concurrency): a running maximum,
    never lowered (``advisor.sim.monotone``; the name stays for the callers that knew it for TTFT alone)."""
    return monotone_latency(points)


def levels_at(ctx: Ctx, cand: Candidate, levels: list[int]) -> list[LevelPrediction]:
    """Predictor levels (cached on the candidate), TTFT and TPOT made non-decreasing across every level the
    candidate has simulated up to the highest asked for, not only those asked for: the claim's bisection
    (``capacity_probe``), the check at the load (``engine``) and the curve the memo prints then read one number per
    level (a level checked alone would otherwise keep a sample below a lower level's: q11's TPOT p99 at 6 per
    replica, 42.4 ms, under 53.9 ms at 5)."""
    for c in levels:
        if c not in cand.checked:
            cand.checked[c] = simulate_at(ctx, cand, c)
    top = max(levels, default=0)
    below = tuple(sorted(k for k in cand.checked if k <= top))
    shown = dict(zip(below, _monotone_below(cand, below), strict=True))
    return [shown[c] for c in levels]


def _monotone_below(cand: Candidate, below: tuple[int, ...]) -> list[LevelPrediction]:
    """``monotone_latency`` of the candidate's levels ``below`` (sorted), remembered: a plan reads the same levels
    through ``levels_at`` over a thousand times (the claim's bisection, the curve, the check at the load), and
    raising them again each time was two fifths of a plan whose levels were all simulated already. An entry is used
    only while every one of those levels is still the very object it was made from (``curve(known=...)`` may put
    another in ``cand.checked``), so it is exactly what working it out again gives."""
    made_from = tuple(cand.checked[k] for k in below)
    hit = cand.monotone_memo.get(below)
    if hit is not None and all(a is b for a, b in zip(hit[0], made_from, strict=True)):
        return hit[1]
    out = shared_monotone(made_from)
    cand.monotone_memo[below] = (made_from, out)
    return out


# ``monotone_latency`` and ``find_knee`` of the very level objects, shared between candidates: every re-plan (each
# offered fix, the owning and renting forms, a what-if) makes new candidates of the same setups, whose levels come
# from the level cache (the same objects), and raised them and found their knees again: a sixth of q40's plan when
# its levels were all simulated already (issue #27). Keyed on the levels' ids, the entry holding the levels
# themselves, so no id is reused while it lives: a hit is exactly what working it out again gives (both functions
# read nothing but their arguments). Bounded: emptied when full, and with the level cache. Read-only, like the levels.
SHARED_MEMO_SIZE = 4096
_SHARED_MONOTONE: dict[tuple[int, ...], tuple[tuple[LevelPrediction, ...], list[LevelPrediction]]] = {}
_SHARED_KNEES: dict[tuple, tuple[tuple[LevelPrediction, ...], Any]] = {}


def shared_monotone(levels: tuple[LevelPrediction, ...]) -> list[LevelPrediction]:
    """``monotone_latency(levels)`` (sorted by concurrency), remembered by the levels' identity (see above)."""
    key = tuple(map(id, levels))
    hit = _SHARED_MONOTONE.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], levels, strict=True)):
        return hit[1]
    out = monotone_latency(list(levels))
    if len(_SHARED_MONOTONE) >= SHARED_MEMO_SIZE:
        _SHARED_MONOTONE.clear()
    _SHARED_MONOTONE[key] = (levels, out)
    return out


def shared_knee(points: list[LevelPrediction], lim: EngineLimits):
    """``find_knee(points, lim)``, remembered by the points' identity and the limits (equal limits: the same knee)."""
    key = (tuple(map(id, points)), lim)
    hit = _SHARED_KNEES.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], points, strict=True)):
        return hit[1]
    knee = find_knee(points, lim)
    if len(_SHARED_KNEES) >= SHARED_MEMO_SIZE:
        _SHARED_KNEES.clear()
    _SHARED_KNEES[key] = (tuple(points), knee)
    return knee


def curve(ctx: Ctx, cand: Candidate, per_replica: int, known: dict[int, LevelPrediction] | None = None,
          extra: int | list[int] | None = None):
    """Predicted levels around the planned per-replica load (1, ¼, ½, 1 and 2 × that load, and ``extra``: the load
    per replica with the N+1 spare down, and the highest level found within the target; one level or several) and
    the knee.

    Levels already simulated while checking the plan (``cand.checked``, or ``known``) are reused."""
    if known:
        cand.checked.update(known)
    wanted = curve_levels(per_replica)
    extras = [extra] if isinstance(extra, int) else list(extra or [])
    if any(n and n not in wanted for n in extras):
        wanted = sorted({*wanted, *(n for n in extras if n)})
    points = levels_at(ctx, cand, wanted)
    return points, _knee_of(cand, points, limits(ctx, cand))


def _knee_of(cand: Candidate, points: list[LevelPrediction], lim: EngineLimits):
    """``find_knee(points, lim)``, remembered: a plan asks ``curve`` for the same candidate's same levels several
    hundred times (every claim and check at the load reads its knee; two thirds of scenario 12's 765 calls repeat one
    already made, issue 27). Used only while every point is still the very level object it was found from, and the
    limits are equal, so it is what finding it again gives; the knee is shared, read-only like the levels."""
    key = (tuple(p.concurrency for p in points), lim)
    hit = cand.knee_memo.get(key)
    if hit is not None and len(hit[0]) == len(points) and all(a is b for a, b in zip(hit[0], points, strict=True)):
        return hit[1]
    knee = shared_knee(points, lim)
    cand.knee_memo[key] = (tuple(points), knee)
    return knee


def capped_curve(ctx: Ctx, cand: Candidate, wanted: list[int], cap: int):
    """The curve's levels (``wanted``) and knee as the engine runs them with ``--max-num-seqs cap``: the serve
    command's cap, where the search (``levels_at``) explores a replica at the engine's default. A closed-loop level
    of ``c`` users never holds more than ``c`` requests, so a level at or below the cap is the search's own run (the
    cap never binds: the same steps); one above it is simulated with the cap, its users past the cap waiting for a
    seat. Read through the same running maximum as ``levels_at``, over the levels this engine has run."""
    raw = {k: lv for k, lv in cand.checked.items() if k <= cap}
    missing = [k for k in wanted if k <= cap and k not in raw]
    if missing:  # levels the search has not run yet (a caller that skipped it): run them as the search would
        levels_at(ctx, cand, missing)  # each raw run kept in cand.checked
        raw.update({k: cand.checked[k] for k in missing})
    raw.update({k: simulate_at(ctx, cand, k, cap=cap) for k in wanted if k > cap})
    top = max(wanted, default=0)
    ks = sorted(k for k in raw if k <= top)
    shown = dict(zip(ks, shared_monotone(tuple(raw[k] for k in ks)), strict=True))
    points = [shown[k] for k in wanted]
    return points, shared_knee(points, limits(ctx, cand, cap))


def sizing_request(ctx: Ctx, cand: Candidate) -> SizingRequest:
    return SizingRequest(
        model=ctx.model, gpu=cand.gpu, weights=cand.weights, kv_dtype=cand.kv_dtype, context=ctx.max_context,
        concurrency=max(1, cand.per_replica), gpus=cand.tp, engine=_engine(ctx, cand.gpu),
    )  # fmt: skip
