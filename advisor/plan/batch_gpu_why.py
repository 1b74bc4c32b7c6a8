"""Why this GPU for a job on rented GPUs: the runner-up, per GPU and for the whole job (issue #25, blind review 23,
q28 zh: "the job is prefill-bound, yet the memo never explains why H20 (placeholder price, sold only through sales)
beats L20, which has a listed price and 239 TFLOPS FP8").

A service's memo weighs the GPUs in its sizing section (``gpu_choice``); a job's had nothing. Here the screen's next
GPU that also finishes within the deadline is set beside the chosen one at the size the deadline needs (before any
doubling for margin): the requests a GPU finishes an hour (the predictor's rate), the sequences a replica holds at
once, the FP8 (or BF16) dense compute a prompt's prefill runs on, the GPU-hours the job takes on each, and the price
a GPU-hour of the chosen part may reach before the runner-up's job costs less (its mid price × the GPU-hours
ratio). The chosen part's price range is in the cost table; the sentence says whether that range lies under the
break-even.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.gpu_choice import placeholder_priced
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule

PREFILL_BOUND = 0.5  # the prompts' prefill takes at least half the job's GPU time (the cost table's split)


def _per_gpu_hour(k: Any, output_avg: int) -> float:
    """Requests one GPU of setup ``k`` finishes an hour (the predictor's tokens/s a replica, over its GPUs)."""
    return k.tokens_per_s_replica / max(output_avg, 1) * 3600 / max(k.tp, 1)


def _tflops(k: Any) -> float:
    g = k.gpu
    return float(g.fp8_tflops_dense if k.weights == "fp8" and g.fp8_tflops_dense else g.bf16_tflops_dense)


def runner_up(f: Facts) -> Any | None:
    """The next GPU the screen found finishing within the deadline, not the chosen one's part."""
    ch = f.chosen
    if ch is None:
        return None
    return next((k for k in f.batch_others if k.gpu.id != ch.gpu.id and k.price_mid > 0), None)


@rule("sizing.batch_gpu_choice", "sizing")
def batch_gpu_choice(f: Facts) -> Finding | None:
    """A job on rented GPUs with a runner-up GPU: the two per GPU and per job, and the chosen part's break-even price."""
    c, ch = f.ctx, f.chosen
    other = runner_up(f)
    if ch is None or other is None or not c.is_batch or f.form != "cloud" or not c.total_requests or f.cost is None:
        return None
    share = f.cost.costs.prefill_gpu_share
    if share is None or share < PREFILL_BOUND:  # the sentence argues from the prompts' compute: a prefill-bound job
        return None
    r1, r2 = _per_gpu_hour(ch, c.output_avg), _per_gpu_hour(other, c.output_avg)
    if r1 <= 0 or r2 <= 0:
        return None
    h1, h2 = c.total_requests / r1, c.total_requests / r2  # the job's GPU-hours on each
    conv = f.cost.conv
    other_price = other.price_mid * conv
    even = other_price * h2 / h1  # the chosen part's price a GPU-hour at which both jobs cost the same
    sym = "¥" if c.currency == "CNY" else "$"
    price = f.cost.costs.cloud_per_gpu_hour  # the chosen part's range, in the answers' currency (cost table)
    where = "" if price is None else {
        "tr": "steps34.batchgpu.under" if price.high <= even else "steps34.batchgpu.over" if price.low >= even
        else "steps34.batchgpu.straddles", "low": f"{sym}{price.low:,.2f}", "high": f"{sym}{price.high:,.2f}"}
    return finding("sizing.batch_gpu_choice", variant=None if r1 >= r2 else "cheaper",
                   gpu=ch.gpu.name, other=other.gpu.name, rate=f"{r1:,.0f}", other_rate=f"{r2:,.0f}",
                   seqs=ch.c_max, other_seqs=other.c_max, tflops=f"{_tflops(ch):,.0f}",
                   other_tflops=f"{_tflops(other):,.0f}", hours=f"{h1:,.0f}", other_hours=f"{h2:,.0f}",
                   other_price=f"{sym}{other_price:,.2f}", even=f"{sym}{even:,.2f}", where=where,
                   # the runner-up as the part to run the job on while a sales-only part's delivery is unknown
                   # (salesdl35, review 24 q28): its id, the GPUs the deadline needs on it, a listed (sourced) price
                   other_id=other.gpu.id, other_gpus=other.total_gpus, other_work=f"{sym}{other_price * h2:,.0f}",
                   other_listed=f.book is not None and not placeholder_priced(f.region, other, f.book))


__all__ = ["batch_gpu_choice", "runner_up"]
