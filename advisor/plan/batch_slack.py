"""Twice the replicas for a batch job that costs little against its budget (issue 25, the fifth blind review): a
batch is billed by the GPU-hour, so doubling the replicas halves the job's hours for only the extra replicas' setup
hours. q06's claims job (4 × L20, 55 h of a 72-hour deadline, ¥1.4–3.8k against ¥60k) was sent back with "running
6–8 cards for a day or more of slack would be the cheaper insurance than a 20 % margin".

The arithmetic, exact for the plan's own rate model (each replica works at the same rate; ``batch_rate``): with
``H`` hours of work on ``R`` replicas and ``s`` hours of setup each, the job bills ``R·(H + s)`` replica-hours; on
``2R`` it bills ``2R·(H/2 + s) = R·(H + 2s)``, so the cost grows by ``(H + 2s)/(H + s)`` at each end of the setup
range. Registered in ``advisor.plan.rules``' registry; texts in ``resources/i18n/*/batchslack16.json``.
"""

from __future__ import annotations

from advisor.plan.batch_double import minimum_replicas
from advisor.plan.batch_rate import setup_hours
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _money, finding, rule
from advisor.plan.sizing import max_replicas

# offered when the job, doubled, still costs no more than this share of the budget (a cheap insurance, not a plan
# that now needs its budget stretched), and when the plan's own slack is under half the deadline
BUDGET_SHARE = 0.5
SLACK_SHARE = 0.5


@rule("sizing.batch_more_replicas", "cost")
def batch_more_replicas(f: Facts) -> Finding | None:
    """A batch job with a deadline whose cost, on twice the replicas, stays under half its budget while its slack is
    under half the deadline: twice the replicas, the hours, the slack and the cost said."""
    c, ch = f.ctx, f.chosen
    costs = None if f.cost is None else f.cost.costs
    if not c.is_batch or ch is None or costs is None or not c.batch_hours or not c.budget_amount:
        return None
    if minimum_replicas(ch) is not None:  # the plan runs twice the replicas already (batch_double)
        return None
    job, billed, work = costs.recommended_monthly, costs.billed_hours, f.batch_hours_needed
    if job is None or billed is None or not work or 2 * ch.replicas > max_replicas(c, ch.tp):
        return None
    s_lo, s_hi = setup_hours()
    lo = job.low * (work + 2 * s_lo) / (work + s_lo)
    hi = job.high * (work + 2 * s_hi) / (work + s_hi)
    slack = c.batch_hours - billed.high
    if hi > c.budget_amount * BUDGET_SHARE or slack >= c.batch_hours * SLACK_SHARE:
        return None
    hours2 = work / 2
    return finding("sizing.batch_more_replicas", replicas=2 * ch.replicas, tp=ch.tp, gpu=ch.gpu.name,
                   hours=round(work, 1), hours2=round(hours2, 1), slack=round(slack, 1),
                   slack2=round(c.batch_hours - hours2 - s_hi, 1), deadline=c.batch_hours,
                   cost=f"{_money(job.low, f)}–{_money(job.high, f)}", cost2=f"{_money(lo, f)}–{_money(hi, f)}",
                   more=round(100 * (hi / job.high - 1)), budget=_money(c.budget_amount, f))  # fmt: skip
