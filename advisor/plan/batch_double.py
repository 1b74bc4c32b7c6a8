"""Twice the replicas as the plan itself, for a batch job whose deadline the predictor's own error could eat (the
eleventh blind review: q06 "at a more realistic 30–40 % MFU, 4 cards miss 72 h, so lead with the 8-card option
(about 3 % more cost, 42 h slack) rather than leaving it as an aside"; q28 "I would sign the 16-GPU variant (+5 %,
28 h slack), not the 10.9 h plan").

A batch is billed by the GPU-hour: with ``H`` hours of work on ``R`` replicas and ``s`` hours of setup each, twice
the replicas bill ``R·(H + 2s)`` replica-hours instead of ``R·(H + s)`` (advisor.plan.batch_slack). The rate that
sizes ``R`` is predicted, not measured: prefill runs at the GPU's matrix rate × an MFU the predictor states as a
range (``SpeedFactors.mfu_range``, 0.35–0.65 around 0.5). Policy (grade U, a planning choice, not a source): the
plan runs twice the replicas when that costs at most ``COST_SHARE`` more and the minimum layout, at the slow end of
that range, would not finish inside the deadline (setup included). Where the doubled job no longer fits the budget,
or twice the replicas pass the plan's quota, the minimum stays. The memo says both layouts (``sizing.batch_doubled``).
"""

from __future__ import annotations

from advisor.domain.sizing import SpeedFactors
from advisor.plan import batch_rate
from advisor.plan.context import Ctx
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _money, finding, rule

# the most the doubled job may cost over the minimum one (the high end of the setup range): a cheap insurance
COST_SHARE = 0.10
# the candidate's note that says the plan doubled it; the replicas of the minimum layout follow the colon
NOTE = "batch_doubled"


def _slow_costs(ctx: Ctx, cand):
    """The candidate's step costs at the slow end of the predictor's stated range (MFU and MBU at their low ends),
    as ``advisor calc``'s "slow" estimate builds them."""
    from advisor.plan.sizing import serving_profile
    from advisor.sim.costs import factors_for
    from advisor.sizing.roofline import StepCostModel

    f = factors_for(serving_profile(ctx), SpeedFactors())
    return StepCostModel.build(ctx.model, cand.weights, cand.kv_dtype, cand.gpu, cand.tp, f,
                               mfu=f.mfu_range[0], mbu=f.mbu_range[0]), f


def slow_hours(ctx: Ctx, cand, replicas: int) -> tuple[float | None, int, int]:
    """(hours ``replicas`` replicas of ``cand`` take at the slow end of the predicted rate, the MFU assumed (%), its
    low end (%))."""
    from advisor.plan import sizing

    costs, f = _slow_costs(ctx, cand)
    engine = sizing._engine(ctx, cand.gpu)
    seqs = batch_rate.batch_concurrency(cand.memory.kv_tokens, ctx.prompt_avg, ctx.output_avg)
    budget = engine.max_num_batched_tokens or 8192  # resolved: always set (8192 is the sizing's own floor)
    rate = batch_rate.batch_rate(costs, ctx.prompt_avg, ctx.output_avg, seqs, budget)
    return (batch_rate.hours_needed(rate, ctx.total_requests or 0, replicas), round(100 * f.mfu),
            round(100 * f.mfu_range[0]))


def _work_hours(ctx: Ctx, cand, replicas: int) -> float | None:
    rps = cand.tokens_per_s_replica / max(ctx.output_avg, 1) * replicas
    return (ctx.total_requests or 0) / rps / 3600 if rps > 0 else None


def cost_ratio(work: float) -> float:
    """The doubled job's cost over the minimum one's, at the high end of the setup range: (H + 2s)/(H + s)."""
    s = batch_rate.setup_hours()[1]
    return (work + 2 * s) / (work + s)


def doubled(ctx: Ctx, cand):
    """A copy of ``cand`` on twice its replicas where the policy takes it (module docstring), else None."""
    from advisor.plan import gpu_choice, sizing

    if not ctx.is_batch or not ctx.total_requests or not ctx.batch_hours or cand is None:
        return None
    if any(n.startswith(NOTE) for n in cand.notes) or 2 * cand.replicas > sizing.max_replicas(ctx, cand.tp):
        return None
    work = _work_hours(ctx, cand, cand.replicas)
    if work is None or cost_ratio(work) > 1 + COST_SHARE:
        return None
    slow = slow_hours(ctx, cand, cand.replicas)[0]
    if slow is None or slow + batch_rate.setup_hours()[1] <= ctx.batch_hours:
        return None  # the minimum layout finishes in time even at the slow end: its slack is not thin
    out = gpu_choice._copy(cand)
    out.notes.append(f"{NOTE}:{cand.replicas}")
    out.replicas = 2 * cand.replicas
    out._peak = out.c_max * out.replicas
    return out


def minimum_replicas(cand) -> int | None:
    """The replicas of the minimum layout a doubled plan started from; None when the plan was not doubled."""
    for n in getattr(cand, "notes", []):
        if n.startswith(NOTE + ":"):
            return int(n.split(":", 1)[1])
    return None


@rule("sizing.batch_doubled", "cost")
def batch_doubled(f: Facts) -> Finding | None:
    """A batch the plan runs on twice the replicas the deadline needs: both layouts' hours, slack and cost, the slow
    end of the predicted rate that the minimum would miss the deadline at, and the policy."""
    c, ch = f.ctx, f.chosen
    small = minimum_replicas(ch)
    costs = None if f.cost is None else f.cost.costs
    job = None if costs is None else costs.recommended_monthly
    if small is None or job is None or not c.batch_hours or not f.batch_hours_needed:
        return None
    s_lo, s_hi = batch_rate.setup_hours()
    hours2 = f.batch_hours_needed
    hours = hours2 * ch.replicas / small
    slow, mfu, mfu_low = slow_hours(c, ch, small)
    slow2 = slow_hours(c, ch, ch.replicas)[0]
    if slow is None or slow2 is None:
        return None
    # the minimum job's cost from the doubled one's (the inverse of batch_slack's ratio at each end of the setup)
    lo = job.low * (hours + s_lo) / (hours + 2 * s_lo)
    hi = job.high * (hours + s_hi) / (hours + 2 * s_hi)
    # the job's cost at that slow end: each replica billed its slow hours and setup, not the plan's (q06, blind
    # reviews 21 and 22: "38.6 h on 8 replicas is about ¥4,700–5,300", the memo printed the plan-rate ¥3,454–3,985)
    slow_lo = job.low * (slow2 + s_lo) / (hours2 + s_lo)
    slow_hi = job.high * (slow2 + s_hi) / (hours2 + s_hi)
    cost2 = {"tr": "arith33.batch.slow_cost", "slow": f"{_money(slow_lo, f)}–{_money(slow_hi, f)}",
             "plan": f"{_money(job.low, f)}–{_money(job.high, f)}"}
    return finding("sizing.batch_doubled", replicas=ch.replicas, small=small, tp=ch.tp, gpu=ch.gpu.name,
                   hours=round(hours, 1), hours2=round(hours2, 1), slack=round(c.batch_hours - hours - s_hi, 1),
                   slack2=round(c.batch_hours - hours2 - s_hi, 1), deadline=c.batch_hours,
                   slow=round(slow, 1), slow2=round(slow2, 1), mfu=mfu, mfu_low=mfu_low,
                   cost=f"{_money(lo, f)}–{_money(hi, f)}", cost2=cost2,
                   more=max(1, round(100 * (job.high / hi - 1))))  # fmt: skip
