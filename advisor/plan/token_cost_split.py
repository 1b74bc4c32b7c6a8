"""The cost per million tokens, input and output apart (s15-text; moved here by s21-costbasis21 so that
``capacity_per_million``, which now writes the split into ``--json``, and the memo's ``memo_text15`` both take it
from a module below them, with no import cycle).

The GPU cost a month is split by GPU time: prefill's share of it over the input tokens, the rest over the output
tokens, on the tokens the figures divide (the setup's capacity × utilisation where rebased, else the month's own).
"""

from __future__ import annotations

from typing import Any

Pair = tuple[tuple[float, float], tuple[float, float]]


def basis_tokens(costs: Any) -> tuple[float, float] | None:
    """(input, output) tokens a month the cost per million divides: the capacity's where rebased, else the
    month's volume (a batch: the job's tokens)."""
    b = costs.per_million_basis
    if b:  # a vanishing utilisation rounds the capacity's tokens to none: no split to make (unknown, not a ratio)
        return (float(b["input_tokens"]), float(b["output_tokens"])) if b["input_tokens"] and b["output_tokens"] \
            else None
    tin, tout = costs.input_tokens_per_month, costs.output_tokens_per_month
    if not tin or not tout:
        return None
    return float(tin), float(tout)


def per_million_split(costs: Any) -> Pair | None:
    """(input low, high), (output low, high) per million tokens, the GPU cost split by GPU time, on the basis the
    figures divide (the setup's capacity × utilisation, advisor.plan.capacity_per_million); None when the plan has
    no split (no setup, no token volume)."""
    share, out_m = costs.prefill_gpu_share, costs.cost_per_million_output_tokens
    tokens = basis_tokens(costs)  # the capacity's tokens where rebased (s20-costtoken20), else the month's
    if share is None or out_m is None or tokens is None:
        return None
    return _split(share, out_m, *tokens)


def _split(share: float, out_m: Any, tin: float, tout: float) -> Pair:
    # out_m × output tokens = the whole cost: prefill's share of it over the input tokens, the rest over the output
    ratio = tout / tin
    return ((out_m.low * ratio * share, out_m.high * ratio * share),
            (out_m.low * (1 - share), out_m.high * (1 - share)))


def volume_split(costs: Any) -> Pair | None:
    """The same split at the month's own volume (``Costs.cost_per_million_output_tokens_volume``, answered or
    estimated); None where the month has no tokens or the plan has no split."""
    share, out_m = costs.prefill_gpu_share, costs.cost_per_million_output_tokens_volume
    tin, tout = costs.input_tokens_per_month, costs.output_tokens_per_month
    if share is None or out_m is None or not tin or not tout:
        return None
    return _split(share, out_m, tin, tout)


__all__ = ["basis_tokens", "per_million_split", "volume_split"]
