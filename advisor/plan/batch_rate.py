"""How fast one replica works through an offline batch: the step-cost model at the load a batch engine runs.

An offline job keeps every replica full: the queue never empties, so the engine holds as many sequences as its KV
cache takes (an engineer raises ``--max-num-seqs`` to that for a batch; vLLM's default of 256 is a serving cap)
and each step decodes all of them while chunked prefill admits the prompts of the requests that finished.

Steady state, by token accounting (Little's law on the engine's steps): with ``c`` sequences resident, each
decoding for ``o`` steps, ``c / o`` requests finish per step and as many prompts of ``p`` tokens are prefilled in
it; the step's token budget ``B`` (``--max-num-batched-tokens``) caps the requests per step at ``B / (p + o)``.
One step therefore runs ``r = min(c / o, B / (p + o))`` prompts' worth of prefill beside ``r · o`` decoding
sequences whose contexts average ``p + o / 2`` tokens, and lasts what the sizing core's roofline says
(``StepCostModel.step_seconds``: compute-bound linear layers at the measured GEMM rate, KV reads at the
bandwidth, tensor-parallel all-reduces, fixed overhead). The replica finishes ``r / step`` requests a second.
There is no separate TTFT term: the prefill is inside the steps (adding a request's TTFT on top counted its
prompt twice), and no p99 factor: a batch is judged by its mean rate.

Checked against published offline-throughput runs (tests/core/test_batch_rate.py): NVIDIA's TensorRT-LLM
performance overview (trtllm-bench throughput, every request queued at once, Llama 3.3 70B FP8 weights).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.sizing.roofline import StepCostModel

# A job with a hard deadline is sized to finish with margin: the estimate is a model (the throughput measured on the
# real setup may be lower), a replica may fail and restart, and the setup (instances started, weights downloaded,
# engine warmed) comes before the first request. The job's hours PLUS the longest setup must fit in this share of
# the deadline, so the billed hours stay at least DEADLINE_MARGIN of the deadline short of it (a plan that finished
# 500,000 loan files in 46.5 of 48 hours, 48.5 h billed with setup, was sent back by a reviewer).
DEADLINE_MARGIN = 0.2

# Most sequences one replica is planned to hold, whatever its KV cache takes: vLLM's largest default
# max_num_seqs (1,024 on big GPUs); beyond it the step's decode batch, not the memory, stops growing usefully.
MAX_BATCH_SEQS = 1024


@dataclass(frozen=True)
class BatchRate:
    """One replica's steady state on an offline job."""

    concurrency: int  # sequences resident (what the KV cache holds, at most MAX_BATCH_SEQS)
    requests_per_step: float
    step_s: float
    requests_per_s: float
    output_tokens_per_s: float
    prompt_tokens_per_s: float
    bound: str  # "sequences": the resident sequences limit it; "token_budget": the step's token budget does


def batch_concurrency(kv_tokens: int, prompt_avg: int, output_avg: int) -> int:
    """Sequences the KV cache holds at once, each reserving its whole prompt + answer (no preemption)."""
    return max(1, min(MAX_BATCH_SEQS, kv_tokens // max(prompt_avg + output_avg, 1)))


def batch_rate(costs: StepCostModel, prompt_avg: int, output_avg: int, concurrency: int, token_budget: int) -> BatchRate:
    """Steady-state rate of one replica holding ``concurrency`` sequences (see the module docstring)."""
    p, o = max(prompt_avg, 1), max(output_avg, 1)
    by_seqs, by_budget = concurrency / o, token_budget / (p + o)
    r = min(by_seqs, by_budget)
    decoding = max(1, math.floor(r * o))
    prefill = r * p
    # prompts prefilled from their start in this step: r whole prompts' causal pairs (p² / 2 each)
    step = costs.step_seconds(int(round(prefill)), r * p * p / 2, decoding, decoding * (p + o / 2))
    rps = r / step if step > 0 else 0.0
    return BatchRate(concurrency=concurrency, requests_per_step=r, step_s=step, requests_per_s=rps,
                     output_tokens_per_s=rps * o, prompt_tokens_per_s=rps * p,
                     bound="sequences" if by_seqs <= by_budget else "token_budget")  # fmt: skip


def setup_hours() -> tuple[float, float]:
    """(low, high) hours of setup before a batch job's first request (a sourced estimate in resources/plan)."""
    from advisor.plan.data import factor_range

    return factor_range("batch_setup_hours")


def work_hours(deadline: float) -> float:
    """Hours the job itself may run so that it finishes with margin: the deadline less DEADLINE_MARGIN of it, less
    the longest setup (0 when the setup alone eats the deadline: nothing finishes it)."""
    return max(0.0, deadline * (1 - DEADLINE_MARGIN) - setup_hours()[1])


def deadline_for(job_hours: float) -> float:
    """The shortest deadline a job of ``job_hours`` meets with margin (``work_hours`` inverted), whole hours."""
    return float(math.ceil((job_hours + setup_hours()[1]) / (1 - DEADLINE_MARGIN)))


def replicas_needed(rate: BatchRate, requests: int, hours: float) -> int:
    """Replicas that finish ``requests`` within ``hours`` of work at this rate (a huge count when no hours are
    left: no number of replicas finishes it)."""
    if hours <= 0:
        return 10**9
    need = requests / (hours * 3600.0)
    return max(1, math.ceil(need / rate.requests_per_s)) if rate.requests_per_s > 0 else 0


def hours_needed(rate: BatchRate, requests: int, replicas: int) -> float | None:
    """Hours ``replicas`` replicas take for ``requests`` requests; None when the rate is nil."""
    if rate.requests_per_s <= 0 or replicas <= 0:
        return None
    return requests / (rate.requests_per_s * replicas) / 3600.0
