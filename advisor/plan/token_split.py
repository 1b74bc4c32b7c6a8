"""The GPU time of a served request split between prefill (reading the prompt) and decode (writing the answer), so
the cost per million tokens can be quoted for input and for output separately (issue 25 item 4, s15-text).

Method: in the steady state one replica at its planned concurrency ``c`` decodes ``c`` sequences a step and, to keep
up, prefills the prompt tokens that arrive meanwhile, ``x = c × prompt ÷ output`` of them a step. One such step is
timed on the setup's own step model (``StepCostModel``). Its attention is each side's own (prefill: the prompt's
causal pairs, compute-bound; decode: the KV cache read, bandwidth-bound); the rest (the linear layers, whose
arithmetic grows with the tokens and whose weight read is shared by every token of the step, the all-reduces and
the fixed overhead) is shared per token, x : c. The prefill share is prefill's part of the step's time. The cost a
month × that share ÷ input tokens a month is the cost per million input tokens; the rest over the output tokens,
per million output tokens.
"""

from __future__ import annotations

from typing import Any


def prefill_share(ctx: Any, cand: Any) -> float | None:
    """Prefill's share (0–1) of the GPU time of the chosen setup at its planned load; None without a workload."""
    from advisor.plan.sizing import _engine

    p, o = int(ctx.prompt_avg or 0), int(ctx.output_avg or 0)
    if p <= 0 or o <= 0:
        return None
    c = max(1, int(cand.per_replica or 1))
    chunk = max(1, int(_engine(ctx, cand.gpu).max_num_batched_tokens or 8192))
    arriving = c * p / o  # prompt tokens prefilled per decode step, on average
    steps = max(1.0, arriving / chunk)  # more than one step's budget: timed as so many full chunks
    x = arriving / steps
    pairs, kv = x * p / 2, c * (p + o / 2)
    costs = cand.costs
    step = costs.step_seconds(int(round(x)), pairs, c, kv)
    prefill_attention = max(costs.op_parts(int(round(x)), pairs, 0, 0)[1])
    decode_attention = max(costs.op_parts(0, 0, c, kv)[1])
    shared = max(0.0, step - prefill_attention - decode_attention)  # linear layers, all-reduce, overhead
    prefill = prefill_attention + shared * x / (x + c)
    total = prefill_attention + decode_attention + shared
    return round(prefill / total, 3) if total > 0 else None


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


__all__ = ["prefill_share", "weighted_share"]
