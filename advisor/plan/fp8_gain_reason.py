"""The figures that kept FP8 over BF16 on as many GPUs for what it gives on those cards, and the clause that says
them (s21-fp8pick21b; decided in ``fp8_gain``). A module of its own with no planning import: ``result`` holds the
figures in its layouts tried and renders the clause."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class Fp8Gain(BaseModel):
    """FP8 kept on as many GPUs for its speed or capacity: the figures that decided it (predicted P99, ms, at the
    peak's load per replica; capacities: requests one replica takes within the target, None where the capacity did
    not decide)."""

    model_config = ConfigDict(extra="forbid")

    higher: str  # the weights set aside
    lower: str  # the weights kept
    tp: int
    load: int  # requests a replica at the peak
    higher_tpot_ms: float
    lower_tpot_ms: float
    higher_ttft_ms: float
    lower_ttft_ms: float
    higher_capacity: int | None = None
    lower_capacity: int | None = None
    tpot_slo_ms: float | None = None


def why(g: Fp8Gain) -> dict[str, Any]:
    """The reason in one clause with both precisions' figures (a translatable phrase)."""
    p: dict[str, Any] = {"higher": g.higher, "lower": g.lower, "load": g.load, "ht": _ms(g.higher_tpot_ms),
                         "lt": _ms(g.lower_tpot_ms), "hf": f"{round(g.higher_ttft_ms):,}",
                         "lf": f"{round(g.lower_ttft_ms):,}"}
    if g.higher_capacity is not None and g.lower_capacity is not None:
        p["cap"] = {"tr": "fp8pick21.why.capacity", "higher": g.higher, "lower": g.lower,
                    "hc": g.higher_capacity, "lc": g.lower_capacity}
    else:
        p["cap"] = ""
    return {"tr": "fp8pick21.why.speed", **p}


def _ms(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}".rstrip("0").rstrip(".")


__all__ = ["Fp8Gain", "why"]
