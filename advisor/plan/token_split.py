"""The GPU time of a served request split between prefill (reading the prompt) and decode (writing the answer), so
the cost per million tokens can be quoted for input and for output separately (issue 25 item 4, s15-text).

Method: one replica at its planned concurrency ``c`` decodes ``c`` sequences a step; each request's answer costs
its ``1/c`` part of ``output`` such decode steps, and its prompt the time it adds to the steps it is prefilled in
(in chunks of the engine's token budget, beside the ``c`` decodes), both timed on the setup's own step model
(``StepCostModel``). The decode steps run anyway, so their weight reads and fixed overhead are decode's; a prompt
costs what it adds. The prefill share is the prompt's part of one request's GPU time. The cost a month × that
share ÷ input tokens a month is the cost per million input tokens; the rest over the output tokens, per million
output tokens. (A prompt is prefilled in chunks, not spread a few tokens over every step: spread thin, its tokens
would ride free on the decode steps' weight reads and the split would show almost no prefill.)

An offline batch job is split by ``batch_split`` instead (the step its GPU-hours come from, the overlap of its mixed
steps charged to the phase whose floor limits it). This is the ONE split of a setup's GPU time: the GPU weighing (``decode_pct``: which resource a card is
weighed by) and the long-prompt finding read it from here, so the memo never states two splits of the same time
(q23, seventh blind review: "67 % decode in the sizing section but 82 % prefill in the cost section").
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan.batch_split import job_split


def prefill_share(ctx: Any, cand: Any) -> float | None:
    """Prefill's share (0–1) of the GPU time of the chosen setup at its planned load; None without a workload."""
    from advisor.plan.sizing import _engine

    p, o = int(ctx.prompt_avg or 0), int(ctx.output_avg or 0)
    if p <= 0 or o <= 0:
        return None
    # a job: its own split, from the step its GPU-hours come from
    if getattr(ctx, "is_batch", False) and getattr(ctx, "total_requests", None):
        return _job_share(ctx, cand)
    c = max(1, int(cand.per_replica or 1))
    chunk = max(1, int(_engine(ctx, cand.gpu).max_num_batched_tokens or 8192))
    kv = c * (p + o / 2)  # the KV the c running requests read a step, each half-way through its answer
    costs = cand.costs
    decode_step = costs.step_seconds(0, 0, c, kv)
    decode = o * decode_step / c
    prefill, done = 0.0, 0
    while done < p:  # the prompt's chunks, each beside the c decodes: what each adds to a decode step
        n = min(chunk, p - done)
        prefill += max(0.0, costs.step_seconds(n, n * done + n * (n + 1) / 2, c, kv) - decode_step)
        done += n
    total = prefill + decode
    if total <= 0:
        return None
    # whole percents, so every sentence that quotes the split (prefill p %, decode 100 − p %) prints the same figures
    return round(prefill / total, 2)

def _job_share(ctx: Any, cand: Any) -> float | None:
    """``batch_split``'s share in whole percents, the phase charged alone rounded up (its floor never reads above its
    share of the job's GPU-hours), the other down."""
    split = job_split(ctx, cand)
    if split is None:
        return None
    pct = 100 * split.prefill_share
    return (math.ceil(pct - 1e-9) if split.limit == "prefill" else math.floor(pct + 1e-9)) / 100


def decode_pct(ctx: Any, cand: Any) -> int | None:
    """Decode's share (%) of the setup's GPU time at the planned load, 100 − ``prefill_share``'s: the figure the GPU
    weighing and the long-prompt finding quote; None without a workload."""
    share = prefill_share(ctx, cand)
    return None if share is None else round(100 - 100 * share)


def weighted_share(parts: list[tuple[float | None, float | None]]) -> float | None:
    """Prefill's share of several setups' GPU cost together: each setup's share weighted by what it costs, given as
    (share, cost) pairs (s15-polish: a mainland + overseas plan split both nodes' costs by the mainland node's share).
    The cost per million input tokens is then Σ cost × share ÷ all input tokens, as for one setup. None when a share
    or a cost is unknown."""
    if not parts or any(s is None or c is None for s, c in parts):
        return None
    total = sum(float(c or 0.0) for _s, c in parts)
    if total <= 0:
        return None
    return round(sum(float(s or 0.0) * float(c or 0.0) for s, c in parts) / total, 3)


__all__ = ["decode_pct", "prefill_share", "weighted_share"]
