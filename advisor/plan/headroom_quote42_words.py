"""The words of ``headroom_quote42`` apart from its rule, so that ``result.GpuChoice`` says them without importing
the planner (the layering test's cycle check, as ``kv_pick_words``)."""

from __future__ import annotations

from typing import Any


def params(d: dict[str, Any]) -> dict[str, Any]:
    return {"n": d["gpus"], "gpu": d["gpu_name"], "chosen": d["chosen_name"], "more": f"{d['more_pct']:.1f}",
            "cost": f"{d['per_hour']:,.2f}", "chosen_cost": f"{d['chosen_per_hour']:,.2f}",
            "currency": d["currency"], "fit": d["full_fit"], "load": d["load"], "chosen_fit": d["chosen_full"],
            "chosen_load": d["chosen_load"], "context": f"{d['context']:,}",
            "region": {"tr": f"plan.region.{d['region']}"}}


def clause(d: dict[str, Any] | None, lang: str, render: Any) -> str:
    """The sentence "Why this GPU" ends with (empty where no card qualifies)."""
    if not d:
        return ""
    return ("" if lang == "zh_CN" else " ") + render(lang, "reg42.why.standin_headroom", params(d))



__all__ = ["clause", "params"]
