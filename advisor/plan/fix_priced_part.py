"""A smaller-model fix re-planned on a publicly priced GPU where its own re-plan chose one priced only by a
placeholder (s33-numbers1, issue 25, blind review 23 on q40).

q40: "the 7B row on '2 × NVIDIA H20 96GB' costs up to 22,872 CNY, more than the 3B on A10 … 7B jumps to H20 at
placeholder prices. A 7B/14B option on publicly priced L20 should be shown." The re-plan ranks parts by the middle of
their prices, and a placeholder range (the H20's 1.2–2.6 USD an hour, grade U) can rank first on a middle no provider
has quoted. A fix is a figure the reader weighs against the budget, so it stands on a price someone published: the
cheapest sourced part that serves the smaller model without another blocker; the placeholder part is named beside it,
to quote. Unchanged where the chosen part is priced, or no priced part serves it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan.result import Fix

FIX_IDS = ("smaller_model",)


def on_priced_part(fix: Fix, r: Any, replan: Callable[[dict[str, Any]], Any],
                   allowed: list[str] | None = None) -> tuple[Any, Fix]:
    """(re-plan, fix) on the cheapest publicly priced part that serves the fix's model, where ``r`` (its re-plan)
    chose a part priced only by a placeholder; (r, fix) unchanged otherwise. ``allowed``: the GPUs the answers
    allow (their ``gpu_constraint``), which the priced part stays within."""
    choice = getattr(r, "gpu_choice", None)
    chosen = getattr(choice, "chosen", None)
    if fix.id not in FIX_IDS or choice is None or chosen is None or chosen.price_sourced:
        return r, fix
    priced = [a for a in choice.alternatives if a.price_sourced and (not allowed or a.gpu in allowed)]
    dearer: str | None = None  # the cheapest priced part that served it but cost more (said in page 1's table row)
    for alt in sorted(priced, key=lambda a: a.per_hour):
        change = {**fix.change, "gpu_constraint": [alt.gpu]}
        got = replan(change)
        if got is None or got.hardware.gpu != alt.gpu:
            continue
        if {x.id for x in got.findings if x.severity == "blocker"} - {"cost.budget_short"}:
            continue  # it misses the target or another rule on that part: not this fix
        if _dearer(got, r):
            # s35-sentences (blind review 26, q40: "14B on '10 × L20' at ¥64,368–¥77,376 costs more than 32B on
            # '6 × H20' at ¥23,517–¥68,616, so re-run 14B on H20"): a priced part dearer than even the top of the
            # placeholder's range is no truer figure, only a dearer one beside the larger model's on that part
            dearer = dearer or alt.gpu_name
            continue
        beside = {"tr": "numbers1_34.fix.placeholder_part", "n": chosen.gpus, "gpu": chosen.gpu_name}
        return got, fix.model_copy(update={"change": change, "params": {**fix.params, "placeholder": beside}})
    # no priced part serves it: the figure stands on the placeholder, and the fix says so
    only = {"tr": "numbers1_34.fix.placeholder_only", "gpu": chosen.gpu_name, "dearer": dearer or ""}
    return r, fix.model_copy(update={"params": {**fix.params, "placeholder": only}})


def _dearer(got: Any, r: Any) -> bool:
    """The priced part's month costs more at its low end than the placeholder-priced part's at its high end."""
    a = getattr(getattr(got, "costs", None), "recommended_monthly", None)
    b = getattr(getattr(r, "costs", None), "recommended_monthly", None)
    return a is not None and b is not None and a.low > b.high


def size_ladder(fixes: list[Fix], size_of: Callable[[Fix], float]) -> list[Fix]:
    """``fixes`` with the smaller-model fixes, in the slots they hold, ordered by the model's size, smallest first: a
    ladder the reader climbs (blind review 23, q40: "order by model size and cost"); the other fixes keep their
    place."""
    slots = [i for i, f in enumerate(fixes) if f.id in FIX_IDS]
    ladder = sorted((fixes[i] for i in slots), key=size_of)
    out = list(fixes)
    for i, f in zip(slots, ladder, strict=True):
        out[i] = f
    return out


__all__ = ["FIX_IDS", "on_priced_part", "size_ladder"]
