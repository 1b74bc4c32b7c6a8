"""A time-per-output-token limit on a load whose GPU time is mostly prefill, said as such (issue 25, round 13, q04:
"labels its sizing 'decode-bound' while its own table shows 74 % of GPU time on prefill").

The binding sentence "Decode bandwidth decides: at 20 each output token takes 113 ms p99" is the predictor's reading
of the target that fails first. With long prompts, vLLM's scheduler runs prefill chunks in the same steps as the
decoding requests (chunked prefill), so each step, and each output token, takes longer than the decode's memory
read alone; where prefill takes most of the GPU time at the planned load (the cost table's split), the sentence
says so, with that share, instead of leaving "decode" to read against the table: it opens on prefill compute, a
limit of its own (round 13), where it used to open on decode bandwidth and add a note.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import BindingConstraint

MOSTLY = 0.5  # prefill's share of the GPU time at the planned load from which it, not decoding, dominates


def note(bc: BindingConstraint | None, is_batch: bool, prefill_share: float | None) -> BindingConstraint | None:
    """``bc`` opening on prefill compute where a per-token limit sits on a mostly-prefill load (round 13, q04/q42:
    "Decode bandwidth decides" followed by a note that prefill takes 74 % read as a contradiction): the sentence
    names prefill as the limit, through the time per output token, with the cost table's share."""
    if bc is None or is_batch or bc.kind != "decode_bandwidth" or prefill_share is None or prefill_share < MOSTLY:
        return bc
    if bc.variant not in ("", "above"):  # another reading of the same limit (unprobed levels): a sentence after it
        extra: dict[str, Any] = {"tr": "lead23.binding.prefill_stretch", "pct": round(prefill_share * 100)}
        return bc.model_copy(update={"then": [*bc.then, extra]})
    variant = f"{bc.variant}_prefill" if bc.variant else "prefill"
    return bc.model_copy(update={"variant": variant, "figures": {**bc.figures, "pct": round(prefill_share * 100)}})


__all__ = ["MOSTLY", "note"]
