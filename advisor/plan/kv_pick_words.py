"""Why this GPU's closing sentence where the KV pick chose the card (advisor.plan.kv_pick): the words alone, apart
from the pick, so that ``result.GpuChoice`` can say them without importing the planner (the layering test's cycle
check: result → kv_pick → gpu_choice → result)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

Render = Callable[[str, str, dict[str, Any]], str]


def _pct(v: float) -> str:
    """A premium as said: one decimal under 10 % (0.1 %), whole above (as kv_limit says the card's)."""
    return f"{v:.1f}" if abs(v) < 10 else f"{round(v)}"


def text(choice: Any, lang: str, render: Render) -> str:
    """The sentence "Why this GPU" ends with where this rule chose the GPU (empty otherwise). ``render`` is
    ``result.render``, handed in by the choice that calls this (no import cycle)."""
    d = getattr(choice, "kv_pick", None)
    if not d:
        return ""
    more = float(d["more_pct"])
    if more <= 0:
        cost: dict[str, Any] = {"tr": "kvpick36.cost.none"}
    elif d["basis"] in ("budget", "slow") and d.get("budget") is not None:
        cost = {"tr": "kvpick36.cost.budget", "more": _pct(more), "budget": f"{math.floor(d['budget']):,}",
                "currency": d["currency"]}
    else:
        cost = {"tr": "kvpick36.cost.margin", "more": _pct(more), "limit": d["limit_pct"]}
    sep = "" if lang == "zh_CN" else " "
    if d["basis"] == "slow":  # a card priced by a stand-in, taken as the cheaper one is also slow (review 35, q13)
        return sep + render(lang, "prc44.kvpick.slow", {
            "gpu": d["gpu_name"], "other": d["other"], "context": f"{d['context']:,}", "other_full": d["other_full"],
            "other_load": d["other_load"], "full": d["full"], "load": d["load"], "cost": cost})
    return sep + render(lang, "kvpick36.why", {
        "gpu": d["gpu_name"], "other": d["other"], "weights": d["weights"], "kv": d["kv_dtype"],
        "context": f"{d['context']:,}",
        "other_full": d["other_full"], "other_load": d["other_load"], "full": d["full"], "load": d["load"],
        "carry": {"tr": "kvpick36.carry.down" if d["down"] else "kvpick36.carry.peak"}, "cost": cost})


__all__ = ["Render", "text"]
