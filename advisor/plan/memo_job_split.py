"""The cost row's split of an offline batch job's GPU time, said in GPU-hours beside the percents (issue 25, blind
re-check 11b, q28): the sizing reason states the prefill floor in GPU-hours ("at least 224 GPU-hours"), and a
reader multiplies the row's percent by the job's GPU-hours to compare; the row now does that sum itself, from the
same split (``batch_split``, through ``costs.prefill_gpu_share``) and the same GPU-hours as the capacity table
(``memo_batch``: the job's hours × its GPUs). The phase charged its own time alone is named as such, the other as
what it adds to those steps, so the non-limiting phase's smaller figure does not read as below its own floor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan.result import PlanResult


def job_gpu_hours(result: PlanResult) -> float | None:
    """The job's GPU-hours as the capacity table states them (hours of work × GPUs); None without them."""
    hours, gpus = result.capacity.batch_hours, result.hardware.total_gpus
    return hours * gpus if hours and gpus else None


def value_key(share: float) -> str:
    """The row's text: prefill charged alone where it takes half the time or more (``batch_split``: the phase charged
    alone is always at least half), else decode."""
    return "sizenums22.cost.per_million_job_prefill" if share >= 0.5 else "sizenums22.cost.per_million_job_decode"


def hours(job_h: float | None, share: float, num: Callable[..., str]) -> dict[str, Any]:
    """The GPU-hour figures the job's row names (none for a served setup)."""
    if job_h is None:
        return {}
    return {"job_h": num(round(job_h)), "prefill_h": num(round(job_h * share)),
            "decode_h": num(round(job_h * (1 - share)))}  # fmt: skip


__all__ = ["hours", "job_gpu_hours", "value_key"]
