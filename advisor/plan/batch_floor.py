"""The physical floors of an offline batch job: the GPU-hours its prefill and its decode need at the very least.

Prefill floor: every prompt token passes through the model's linear layers once (2 FLOPs per active parameter) and
attends to the tokens before it (causal pairs); at the rate the GPU's matrix units really reach (the sizing core's
measured GEMM rate, else peak × MFU) on one GPU, with nothing else in the step, that is

    prefill GPU-hours = (prompt tokens × linear FLOPs per token + causal pairs × attention FLOPs per pair)
                        ÷ (achieved FLOP/s per GPU) ÷ 3600

Decode floor: each decode step re-reads the weights (and the batch's KV cache) to produce one token per sequence,
so the answers' GPU-hours fall as the batch grows; the floor is the best batch that fits, over the tensor-parallel
groups a server takes and the KV formats the answers accept (an FP8 KV cache halves its bytes when FP8 is
acceptable), each holding as many sequences as its KV cache takes (batch_rate.batch_concurrency):

    decode GPU-hours = answer tokens ÷ sequences × decode step seconds × GPUs per replica ÷ 3600

The larger floor is what limits the job: no setup of this GPU finishes it in fewer GPU-hours. A plan's own setup
needs more than either (its steps mix both, and its batch may be smaller than the best one), and the memo says
why when its batch is small: the KV cache room beside the weights, and what would raise it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.domain.gpu import GpuSpec
from advisor.plan import batch_kv, batch_rate, sizing
from advisor.plan.context import Ctx
from advisor.plan.printed_factors import TOL, sig
from advisor.sizing import TP_DEGREES
from advisor.sizing.quant import get_format
from advisor.sizing.roofline import StepCostModel, compute_dtype

# A plan's batch is called small (and what would raise it said) when its job needs this many times its larger floor
# or more: below that, the mixed prefill/decode steps and all-reduces explain the gap, not the batch size.
SMALL_BATCH_COST = 1.5


@dataclass(frozen=True)
class DecodeSetup:
    """One replica shape the decode floor was tried on."""

    tp: int
    weights: str
    kv_dtype: str
    seqs: int  # sequences its KV cache holds at once
    gpu_hours: float  # the job's answers on it, decode alone
    job_gpu_hours: float  # the whole job on it (prefill and decode mixed in its steps, batch_rate)


@dataclass(frozen=True)
class BatchFloors:
    gpu: GpuSpec
    prompt_tokens: int
    output_tokens: int
    prefill_flop: float
    achieved_tflops: float  # per GPU, the linear layers' rate on one GPU
    peak_tflops: float  # per GPU, dense tensor peak in the compute dtype
    compute_dtype: str
    prefill_gpu_hours: float
    decode: DecodeSetup  # the best batch that fits
    tried: tuple[DecodeSetup, ...]  # every shape tried, for "what would raise the batch"

    @property
    def limit(self) -> str:
        """ "prefill" or "decode": the larger floor."""
        return "prefill" if self.prefill_gpu_hours >= self.decode.gpu_hours else "decode"


def _kv_formats(ctx: Ctx, gpu: GpuSpec) -> list[tuple[str, str]]:
    """The (weights, KV) pairs the plan's screen tries for a job: those the answers allow, and an FP8 KV cache beside
    each where FP8 is acceptable and the GPU has FP8 units (batch_kv)."""
    return batch_kv.with_fp8_kv(ctx, gpu, sizing.allowed_formats(ctx, gpu))


def _decode_setups(ctx: Ctx, gpu: GpuSpec) -> list[DecodeSetup]:
    engine = sizing._engine(ctx, gpu)
    tokens = (sizing._workload_token(ctx), sizing._token((gpu, engine)))
    answers = (ctx.total_requests or 0) * ctx.output_avg
    context = ctx.prompt_avg + ctx.output_avg / 2
    out = []
    for weights, kv in _kv_formats(ctx, gpu):
        for tp in TP_DEGREES:
            if tp > gpu.max_gpus_per_node:
                break
            if ctx.model.num_attention_heads % tp:
                continue
            setup = sizing._screened(ctx, gpu, weights, kv, tp, engine, tokens)
            if setup is None:
                continue
            mem, costs = setup[0], setup[1]
            seqs = batch_rate.batch_concurrency(mem.kv_tokens, ctx.prompt_avg, ctx.output_avg)
            step = costs.decode_step_seconds(seqs, context)
            rate = batch_rate.batch_rate(
                costs, ctx.prompt_avg, ctx.output_avg, seqs, engine.max_num_batched_tokens or 8192
            )
            job = (
                (ctx.total_requests or 0) / rate.requests_per_s * tp / 3600
                if rate.requests_per_s > 0
                else 0.0
            )
            out.append(DecodeSetup(tp, weights, kv, seqs, answers / seqs * step * tp / 3600, job))
    return out


def batch_floors(ctx: Ctx, cand: sizing.Candidate) -> BatchFloors | None:
    """The floors of ``ctx``'s job on ``cand``'s GPU at ``cand``'s weight format; None when no shape holds it."""
    if not ctx.is_batch or not ctx.total_requests:
        return None
    gpu = cand.gpu
    tried = _decode_setups(ctx, gpu)
    if not tried:
        return None
    one = StepCostModel.build(ctx.model, cand.weights, cand.kv_dtype, gpu, 1)
    p = ctx.prompt_avg
    requests = ctx.total_requests
    linear = requests * p * one.linear_flops_per_token
    attention = requests * p * (p + 1) / 2 * one.attn_flops_per_pair
    seconds = linear / one.flops_per_s + attention / one.attn_flops_per_s
    return BatchFloors(
        gpu=gpu, prompt_tokens=requests * p, output_tokens=requests * ctx.output_avg, prefill_flop=linear + attention,
        achieved_tflops=one.flops_per_s / 1e12, peak_tflops=one.peak_flops_per_s / 1e12,
        compute_dtype=compute_dtype(get_format(cand.weights), gpu), prefill_gpu_hours=seconds / 3600,
        decode=min(tried, key=lambda s: s.gpu_hours), tried=tuple(tried),
    )  # fmt: skip


def _more_seqs(fl: BatchFloors, cand: sizing.Candidate, seqs: int, plan_h: float) -> list[dict[str, Any]]:
    """What would hold more sequences than the plan's replica: an FP8 KV cache at its size, more GPUs per replica.
    Wider replicas that hold more but cost the whole job more GPU-hours than the plan's are said so, with the plan's
    figure, and, where they are the decode floor's layout, that floor named as their decode alone (q29, seventh blind
    review: "the TP4 figure (24,660 GPU-h despite 228 sequences) is confusing next to the 5,761 GPU-h decode
    bound")."""
    out: list[dict[str, Any]] = []
    same = {(s.tp, s.weights, s.kv_dtype): s for s in fl.tried}
    fp8 = same.get((cand.tp, cand.weights, "fp8"))
    if cand.kv_dtype != "fp8" and fp8 is not None and fp8.seqs > seqs:
        out.append({"tr": "plan.batch15.more.fp8_kv", "n": fp8.seqs, "job_h": round(fp8.job_gpu_hours)})
    wider = [
        s for s in fl.tried if s.tp > cand.tp and s.weights == cand.weights and s.kv_dtype == cand.kv_dtype
    ]
    if wider:
        w = min(wider, key=lambda s: s.tp)
        if w.seqs > seqs and w.job_gpu_hours >= plan_h:
            floor = fl.decode == w
            out.append({"tr": "agree18.batch.more.wider_dearer", "tp": w.tp, "n": w.seqs,
                        "job_h": round(w.job_gpu_hours), "plan_h": round(plan_h),
                        "floor": {"tr": "agree18.batch.more.wider_floor", "decode_h": round(w.gpu_hours)}
                        if floor else ""})  # fmt: skip
        elif w.seqs > seqs:
            out.append(
                {"tr": "plan.batch15.more.wider", "tp": w.tp, "n": w.seqs, "job_h": round(w.job_gpu_hours)}
            )
    return out


def _power_of_ten(v: float) -> str:
    """2.7905e21 → "2.79 × 10²¹" (a FLOP count in PFLOP read as "2,790,549 PFLOP"); three figures, so that it over the
    printed rate gives the printed GPU-hours (q29: "2.8 × 10²¹" at "120 TFLOPS" beside 6,487 h, blind review 22)."""
    if v <= 0:
        return "0"
    exp = len(str(int(v))) - 1
    digits = str(exp).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))
    return f"{v / 10**exp:.3g} × 10{digits}"


def _rate_text(flop: float, tflops: float) -> str:
    """The rate per GPU at the figures that make the printed FLOP over it the printed hours (119.5, not "120": 0.4 %
    off the quotient)."""
    mant = float(_power_of_ten(flop).split(" ")[0])
    exact = flop / 10 ** (len(str(int(flop))) - 1) / tflops
    for d in range(3, 7):
        t = sig(tflops, d)
        if abs(mant / float(t.replace(",", "")) / exact - 1) <= TOL:
            return t
    return sig(tflops, 6)


def floor_phrases(ctx: Ctx, cand: sizing.Candidate, seqs: int) -> list[dict[str, Any]]:
    """The floors in words (which is larger and by how much), then, when the plan's replica holds fewer sequences
    than the best batch, why and what would raise it: ``{"tr": key, …}`` phrases for BindingConstraint.then."""
    fl = batch_floors(ctx, cand)
    if fl is None:
        return []
    d = fl.decode
    figures = {
        "gpu": fl.gpu.name, "prompt_tokens": fl.prompt_tokens, "output_tokens": fl.output_tokens,
        "prefill_h": round(fl.prefill_gpu_hours), "flop": _power_of_ten(fl.prefill_flop),
        "tflops": _rate_text(fl.prefill_flop, fl.achieved_tflops), "peak": round(fl.peak_tflops), "dtype": fl.compute_dtype.upper(),
        "mfu": round(100 * fl.achieved_tflops / fl.peak_tflops) if fl.peak_tflops else 0,
        "decode_h": round(d.gpu_hours), "decode_seqs": d.seqs, "decode_tp": d.tp, "decode_kv": d.kv_dtype.upper(),
        # the best batch is a floor over every layout: where it is not the plan's, the plan's own replica is named
        # beside it (q28 read "111 sequences a replica on 2 × L20" beside a plan of 1 × L20 replicas holding 14)
        "not_plan": "" if (d.tp, d.kv_dtype, d.seqs) == (cand.tp, cand.kv_dtype, seqs) else {
            "tr": "plan.batch16.not_plan", "tp": cand.tp, "gpu": fl.gpu.name, "seqs": seqs},
    }  # fmt: skip
    # the best batch named by its shape where it is another layout's; where it is the plan's own replica, the
    # sentence before gives its shape and what it holds at once (q06, q28: said twice; session 30)
    figures["best"] = {"tr": "pages30.best_batch_plan"} if figures["not_plan"] == "" else {
        "tr": "pages30.best_batch", **{k: figures[k] for k in ("decode_seqs", "decode_tp", "gpu", "decode_kv",
                                                              "not_plan")}}
    out: list[dict[str, Any]] = [{"tr": f"plan.batch15.floor.{fl.limit}", **figures}]
    # the plan's batch is "small" where it costs: fewer sequences than the best batch AND a job well above its floor
    plan_h = _plan_gpu_hours(ctx, cand, seqs)
    small = seqs < d.seqs and plan_h > SMALL_BATCH_COST * max(fl.prefill_gpu_hours, d.gpu_hours)
    split = _layout_split(ctx, cand, seqs, plan_h) if fl.limit == "prefill" else None
    # said only where it agrees with the floor: the layout's prefill hours no fewer than the floor's
    if split is not None and split["other_h"] >= round(fl.prefill_gpu_hours):
        out.append(split | {"why": {"tr": f"{SPLIT_KEY}.why_short"} if small else {"tr": f"{SPLIT_KEY}.why", "seqs": seqs}})
    if small:
        more = _more_seqs(fl, cand, seqs, plan_h)
        # where its KV cache is FP8 already, said so: the small batch is what is left after that was tried (q29)
        kv = {"tr": "kvlimit28.fp8_already"} if cand.kv_dtype == "fp8" else ""
        out.append({"tr": "plan.batch15.small_batch", "tp": cand.tp, "gpu": fl.gpu.name, "seqs": seqs, "kv": kv,
                    "more": more or {"tr": "plan.batch15.more.none"}})  # fmt: skip
    return out


SPLIT_KEY = "small36_batch.layout_split"


def _layout_split(ctx: Ctx, cand: sizing.Candidate, seqs: int, plan_h: float) -> dict[str, Any] | None:
    """Where prefill sets the floor but the plan's own layout spends most of its GPU-hours decoding (its KV memory
    holds few sequences a replica), the split of the job's hours on that layout: review 25, q29 ("'Prefill compute
    sets the floor' is true, but on the plan's TP2 layout decode takes the larger share of the 15,837 hours"). The
    decode share is the step model's own: a mixed step's time less the same step without its prefill chunk (as
    ``speculative_costs`` splits a step), over the whole step; None where decode is not the larger share."""
    if plan_h <= 0:
        return None
    engine = sizing._engine(ctx, cand.gpu)
    rate = batch_rate.batch_rate(cand.costs, ctx.prompt_avg, ctx.output_avg, seqs, engine.max_num_batched_tokens or 8192)
    if rate.step_s <= 0:
        return None
    p, o = max(ctx.prompt_avg, 1), max(ctx.output_avg, 1)
    decoding = max(1, int(rate.requests_per_step * o))  # the decode rows of batch_rate's step
    share = cand.costs.step_seconds(0, 0, decoding, decoding * (p + o / 2)) / rate.step_s
    if share <= 0.5:
        return None
    decode_h = round(plan_h * share)
    return {"tr": SPLIT_KEY, "tp": cand.tp, "gpu": cand.gpu.name, "plan_h": round(plan_h), "decode_h": decode_h,
            "other_h": round(plan_h) - decode_h}


def _plan_gpu_hours(ctx: Ctx, cand: sizing.Candidate, seqs: int) -> float:
    """The whole job's GPU-hours on the plan's replica shape at ``seqs`` sequences (batch_rate)."""
    engine = sizing._engine(ctx, cand.gpu)
    rate = batch_rate.batch_rate(
        cand.costs, ctx.prompt_avg, ctx.output_avg, seqs, engine.max_num_batched_tokens or 8192
    )
    return (
        (ctx.total_requests or 0) / rate.requests_per_s * cand.tp / 3600 if rate.requests_per_s > 0 else 0.0
    )
