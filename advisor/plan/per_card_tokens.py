"""The decode tokens one card serves within the target, for a placeholder-priced pick that takes fewer, faster
cards than the sourced setup it is priced against (blind review 19, q42 in both languages: the expert's reason for
the H20 is that it gives the most decode tokens per card, 4.0 TB/s of HBM against the L20's 0.86; the memo named
both bandwidths and called the load prefill-bound, 52 %, without joining the two).

Both figures come from the plan's own predictor: the chosen setup at the requests one replica takes within the
target (the level "What decides the size" quotes and the latency table shows: q42's 524 tokens/s at 28), the other
at the requests its replica takes within the target on its own curve (``claim_to_headroom``, the figure the dearer
clauses weigh), its KV cache's hold where that is less (q42's L20: 200 at 16). The screen's level was used before
and sits past the target where the KV cache is not what stops the other replica (blind review 20 / wave 2: q11's
L20 TP2 at 16, q32's L20 at 84, q36's A10 at 185 all missed it, so those memos lost the per-card sentence). The
other setup's split of GPU time (``token_split.decode_pct``) says whether bandwidth bounds it (decoding most of its
time); the chosen setup's bound is "What decides the size"'s, the sentence before "Why this GPU", which quotes its
split (q42: prefill compute, 52 %). Nothing is said where the other's level misses the target or the chosen card does
not serve more tokens (the figures would not back the sentence).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.sizing import Candidate


def _tokens_per_card(c: Ctx, k: Candidate, level: int) -> tuple[float, bool]:
    """(output tokens/s one card of ``k`` serves with ``level`` requests on its replica, as the latency table rounds
    a level's figure, whether that level meets the target)."""
    from advisor.plan import capacity_probe, sizing

    lv = sizing.levels_at(c, k, [level])[0]
    return round(lv.output_tokens_per_s, 1) / max(1, k.tp), capacity_probe.meets(c, lv)


def figures(c: Ctx, chosen: Candidate, other: Candidate, other_kv: int | None) -> dict[str, Any]:
    """The per-card fields ``GpuChoice.placeholder_pick`` carries (``per``, ``tok``, ``other_per``, ``other_tok``,
    ``other_decode``, ``kv_full``); {} where the figures do not show the chosen card serving more. ``other``: a copy
    of the other setup (the level run on it stays off the setup the option list names)."""
    if c.is_batch or not c.peak:
        return {}
    from advisor.plan.capacity import claim_to_headroom, claimed_capacity
    from advisor.plan.token_split import decode_pct

    per = claimed_capacity(c, chosen)
    within = claim_to_headroom(c, other)  # never above the screen's c_max
    other_per = within if other_kv is None else min(other_kv, within)
    if per <= 0 or other_per <= 0:
        return {}
    tok, ok = _tokens_per_card(c, chosen, per)
    other_tok, other_ok = _tokens_per_card(c, other, other_per)
    other_decode = decode_pct(c, other)
    if not (ok and other_ok) or tok <= other_tok or other_decode is None:
        return {}
    from advisor.plan.gpu_weigh import card_value

    # the chosen card's own bound, as "What decides the size" says it from the same split (blind review 20, q42:
    # "the H20's weak prefill is actually what binds"): the lead says why this card and what limits it, together
    return {"per": per, "tok": tok, "other_per": other_per, "other_tok": other_tok, "other_decode": other_decode,
            "kv_full": other_per == other_kv, "decode": decode_pct(c, chosen),
            "tflops": round(card_value("prefill_compute", chosen))}


def bound(kind: str, variant: str, figures_: dict[str, Any], decode: int | None) -> dict[str, Any]:
    """The limit that binds the chosen card, as "What decides the size" (the plan's binding constraint) names it,
    for the lead's sentence after the per-card tokens: {"bound": "prefill", "pct": prefill's share} where prefill
    decides (through the time per output token, or the first token), {"bound": "decode", "pct": decode's share}
    where decode bandwidth does; {} where the size rests on something else (the highest level predicted, a cap, a
    budget: q07/q19 "sized on the highest level predicted"), so the lead never names another limit than that
    section (blind review 20, q42)."""
    # "" and "above" (the level past the claim that misses): the target caps the replica (``prefill_stretch.note``)
    if kind == "decode_bandwidth" and variant in ("prefill", "above_prefill") and figures_.get("pct") is not None:
        return {"bound": "prefill", "pct": figures_["pct"]}
    if kind == "prefill_compute" and variant in ("", "above") and decode is not None:
        return {"bound": "prefill", "pct": 100 - decode}
    if kind == "decode_bandwidth" and variant in ("", "above") and decode is not None:
        return {"bound": "decode", "pct": decode}
    return {}


__all__ = ["bound", "figures"]
