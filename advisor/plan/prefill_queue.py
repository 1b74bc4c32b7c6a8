"""The TTFT p99 a plan level is floored at: its own prompt's prefill, after the other users' prefill still ahead of it.

A plan level measures few requests where answers are long (``advisor.plan.sizing.measured_requests``: 8 at one to
eight users for q10's 800-token answers), too few for a p99, so the plan floors the simulated p99 at this figure.
It used to price only the p99 prompt's own chunks beside the others' decode steps — the same 16.2 s from one user
to eight for q10's 60,000–120,000-token prompts, whose p95 prompt alone prefills in 14.6 s (issue #28, eighth blind
review). But a request's chunks are scheduled only after those of the prompts already being prefilled: vLLM V1's
``Scheduler.schedule`` spends the step's token budget on the RUNNING requests first ("First, schedule the RUNNING
requests", a partly prefilled prompt among them) and only then on the WAITING queue ("Next, schedule the WAITING
requests"; vllm/v1/core/sched/scheduler.py), and the simulator does the same (``advisor.sim.engine``, step 3).
So a long prompt that arrives while others are prefilling waits for what is left of theirs.

Why the simulated level does not show it: its closed loop sends a user's next request at the step its answer ends,
a decode step, and with prompts of a few chunks against hundreds of decode steps an answer almost never ends during
another's prefill (q10 on TP 4: 0.9 % of 3,000 simulated arrivals at two users queued more than 0.5 s). Real users
send when they are ready, at any moment, so an arrival finds another prompt being prefilled for the share of the
time prefill takes. The floor applies (``advisor.plan.sizing.analytic_ttft_p99_ms``) where the average prompt is
longer than a step's budget, so that a prefill ahead holds whole steps; shorter prompts share the arrival's step and
keep the wait for the step under way the floor had before.

What it leaves out: a user waiting in the queue holds its whole prompt, not a uniform share, and the share ρ counts
only prefill time, not the wait before it, so under a high prefill load it reads low. For q10 on TP 4 (simulated, not
measured): the closed loop's p99 is 16.2 s at 2, 4 and 8 users, this floor 24.4 / 24.7 / 25.0 s, and Poisson arrivals
at the closed loop's own throughput (``simulate_rate``, 600 requests) 47 / 96 / 154 s — real users, who wait for an
answer before they ask again, lie between the loop and the open stream.

How much is ahead, drawn the way the closed loop has it: each of the ``c − 1`` other users is, at a random moment,
prefilling with probability ρ = its prefill time ÷ one closed-loop cycle (all ``c`` users' prefills, which run one
after another and hold every decoding user's step, plus one answer's decode steps), and a prompt being prefilled has a uniform share of its chunks left. The p99 is taken over ``DRAWS`` such arrivals, each
with its own prompt drawn from the workload, all from fixed seeds (one per other user, so a level with one more user
sees the same others plus one). Time for tokens is the prefill time of a single prompt, ``prefill_s(L)``, timed
chunk by chunk with ``StepCosts.step_seconds`` beside the others' decode; what is left of another user's prompt
costs ``prefill_s(L) − prefill_s(L − left)`` — its last chunks' steps for a long prompt, and only the extra tokens'
share of a step shared with ours for a short one (they fit the same budget). Nothing here is fitted.
"""

from __future__ import annotations

import numpy as np

from advisor.domain.sim import SimWorkload
from advisor.sim.engine import EngineLimits, StepCosts
from advisor.sim.predict import sample_lengths

DRAWS = 4000  # arrivals per level: the p99 rests on the 40 highest
SEED = 28  # fixed: the floor is deterministic, like the simulator it floors
GRID = 256  # prompt lengths timed exactly between the shortest and longest draw; interpolated in between


def prefill_table(costs: StepCosts, lim: EngineLimits, longest: int, others: int, kv: float) -> tuple[np.ndarray, np.ndarray]:
    """(lengths, seconds): the time to prefill one prompt of each length in ``max_num_batched_tokens`` chunks, each
    chunk's step beside ``others`` decoding sequences reading ``kv`` tokens of KV cache."""
    chunk = max(1, lim.max_num_batched_tokens)
    lengths = np.unique(np.concatenate([np.linspace(0, longest, GRID).astype(np.int64),
                                        np.arange(0, longest + 1, chunk), [longest]]))  # fmt: skip
    seconds = np.empty(lengths.size)
    for i, length in enumerate(lengths.tolist()):
        total, done = 0.0, 0
        while done < length:
            n = min(chunk, length - done)
            total += costs.step_seconds(n, n * done + n * (n + 1) / 2, others, int(kv))
            done += n
        seconds[i] = total
    # no prompt tokens: the step the others' decode runs anyway, so that tokens ahead that share a step with ours
    # cost only their share of it (prefill_s(L) − prefill_s(0) is never a whole extra step for a short prompt)
    seconds[0] = costs.step_seconds(0, 0.0, others, int(kv)) if others else 0.0
    return lengths, seconds


def queued_prefill_p99_s(costs: StepCosts, lim: EngineLimits, work: SimWorkload, c: int, kv: float) -> float:
    """The 99th percentile of (prefill still ahead + own prefill) in seconds for an arrival among ``c`` users."""
    others = max(0, c - 1)
    own = sample_lengths(work.prompt, DRAWS, np.random.default_rng(SEED), side="prompt")
    longest = int(max(work.prompt.upper, own.max()))
    lengths, seconds = prefill_table(costs, lim, longest, others, kv)

    def prefill_s(tokens: np.ndarray) -> np.ndarray:
        return np.interp(tokens, lengths, seconds)

    total = prefill_s(own)
    if others:
        mean_prefill = float(prefill_s(sample_lengths(work.prompt, DRAWS, np.random.default_rng(SEED + 1), side="prompt")).mean())
        decode = work.output.mean * costs.step_seconds(0, 0.0, c, int(kv))
        # ρ: the share of a user's cycle spent prefilling. Prefill chunks run one prompt after another (each takes
        # the step's budget), and every user's decode waits through the other users' chunk steps, so one cycle
        # lasts about all c users' prefills plus one answer's decode steps.
        share = mean_prefill / max(c * mean_prefill + decode, 1e-12)
        for j in range(others):
            rng = np.random.default_rng([SEED, j])
            prompt = sample_lengths(work.prompt, DRAWS, rng, side="prompt")
            left = np.rint(prompt * rng.random(DRAWS))
            ahead = prefill_s(prompt) - prefill_s(prompt - left)
            total = total + np.where(rng.random(DRAWS) < share, ahead, 0.0)
    return float(np.percentile(total, 99))
