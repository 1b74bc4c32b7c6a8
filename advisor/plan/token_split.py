"""The GPU time of a served request split between prefill (reading the prompt) and decode (writing the answer), so
the cost per million tokens can be quoted for input and for output separately (issue 25 item 4, s15-text).

Method: in the steady state one replica at its planned concurrency ``c`` decodes ``c`` sequences a step and, to keep
up, prefills the prompt tokens that arrive meanwhile, ``c × prompt ÷ output`` of them a step. Each part is timed
alone on the setup's own step model (``StepCostModel.step_seconds``: compute-bound prefill, bandwidth-bound decode),
and the prefill share is prefill ÷ (prefill + decode). Costs a month × that share ÷ input tokens a month is the cost
per million input tokens; the rest over the output tokens, per million output tokens.
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
    per_step = arriving / steps
    prefill = cand.costs.step_seconds(int(round(per_step)), per_step * p / 2, 0, 0) * steps
    decode = cand.costs.step_seconds(0, 0, c, c * (p + o / 2))
    total = prefill + decode
    return round(prefill / total, 3) if total > 0 else None


__all__ = ["prefill_share"]
