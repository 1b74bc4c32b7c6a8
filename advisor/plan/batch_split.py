"""The GPU time of an offline batch job split between prefill (its prompts) and decode (its answers): the ONE split
the memo quotes for a job, taken from the step the job's GPU-hours come from (``batch_rate``), and never below the
prefill floor the sizing reason states (``batch_floor``).

Why a job has its own split (issue 25, blind re-check 11b, q28): the serving split (``token_split``) charges a
prompt what it adds to decode steps that run anyway. A job's steady step mixes a thin slice of prefill with every
resident sequence's decode, and the prefill compute then covers the weight read the decode alone would have paid,
so "what prefill adds" came to 56 % of 281 GPU-hours, about 157, beside a stated prefill floor of 224 GPU-hours
(the prompts' compute at the GPU's achieved rate): two figures for the same work that cannot both be read as
"the prefill's hours". In a mixed step the two phases overlap, and the overlap can be charged to one of them only;
it goes to the phase whose floor limits the job (``batch_floor.BatchFloors.limit``: the sizing reason's "sets the
floor"), which is charged its own time alone in the step's shape, and the other phase what it adds to that step.
So the limiting floor is at most its share of the job's GPU-hours, as a reader checks it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.plan import batch_floor, batch_rate
from advisor.plan.sizing import _engine


@dataclass(frozen=True)
class JobSplit:
    prefill_share: float  # 0–1, of the job's GPU time
    job_gpu_hours: float  # the whole job on the setup's layout (its replicas' hours × GPUs per replica)
    limit: str  # "prefill" or "decode": the phase charged its own time alone

    @property
    def prefill_gpu_hours(self) -> float:
        return self.job_gpu_hours * self.prefill_share

    @property
    def decode_gpu_hours(self) -> float:
        return self.job_gpu_hours * (1 - self.prefill_share)


def job_split(ctx: Any, cand: Any) -> JobSplit | None:
    """The job's split on ``cand`` (its replica shape and KV cache), None without a job or a rate."""
    p, o, requests = int(ctx.prompt_avg or 0), int(ctx.output_avg or 0), int(ctx.total_requests or 0)
    if not ctx.is_batch or p <= 0 or o <= 0 or requests <= 0:
        return None
    seqs = batch_rate.batch_concurrency(cand.memory.kv_tokens, p, o)
    rate = batch_rate.batch_rate(cand.costs, p, o, seqs, _engine(ctx, cand.gpu).max_num_batched_tokens or 8192)
    if rate.step_s <= 0 or rate.requests_per_s <= 0:
        return None
    r = rate.requests_per_step
    decoding = max(1, math.floor(r * o))
    # the step as batch_rate times it, with one phase taken out: each phase's own time in the same step
    prefill_alone = cand.costs.step_seconds(int(round(r * p)), r * p * p / 2, 0, 0)
    decode_alone = cand.costs.step_seconds(0, 0, decoding, decoding * (p + o / 2))
    floors = batch_floor.batch_floors(ctx, cand)
    limit = floors.limit if floors is not None else ("prefill" if prefill_alone >= decode_alone else "decode")
    prefill_s = prefill_alone if limit == "prefill" else max(0.0, rate.step_s - decode_alone)
    share = max(0.0, min(1.0, prefill_s / rate.step_s))
    return JobSplit(prefill_share=share, job_gpu_hours=requests / rate.requests_per_s * cand.tp / 3600, limit=limit)


__all__ = ["JobSplit", "job_split"]
