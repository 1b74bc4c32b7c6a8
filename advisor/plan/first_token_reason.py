"""The figures that kept a lower precision on as many GPUs for its first token, and the clause that says them
(s21-tie21; decided in ``first_token_tie``). A module of its own with no planning import: ``result`` holds the
figures in its layouts tried and renders the clause."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class FirstTokenTie(BaseModel):
    """A lower precision kept on as many GPUs for its first token: the figures that decided it (ms, predicted P99)."""

    model_config = ConfigDict(extra="forbid")

    verdict: Literal["breaks", "near"]
    slo_ms: float
    rtt_ms: int  # the slowest round trip on file that the plan adds to every first token (0: none on file)
    higher: str  # the weights set aside
    lower: str  # the weights kept
    tp: int
    higher_ttft_ms: float  # at the peak, the load per replica the plan runs
    lower_ttft_ms: float
    higher_down_ms: float | None = None  # with one replica down (None: no spare)
    lower_down_ms: float | None = None
    error: float | None = None  # near: the predictor's median TTFT error at the deciding load (a share)


def why(t: FirstTokenTie) -> dict[str, Any]:
    """The reason in one clause with both precisions' figures (a translatable phrase)."""
    both = t.higher_down_ms is not None and t.lower_down_ms is not None and (
        _ms(t.higher_down_ms) != _ms(t.higher_ttft_ms) or _ms(t.lower_down_ms) != _ms(t.lower_ttft_ms))
    p: dict[str, Any] = {"higher": t.higher, "lower": t.lower, "slo": _ms(t.slo_ms), "h": _ms(t.higher_ttft_ms),
                         "l": _ms(t.lower_ttft_ms), "rtt": t.rtt_ms}
    if t.rtt_ms:
        p.update(ht=_ms(t.higher_ttft_ms + t.rtt_ms), lt=_ms(t.lower_ttft_ms + t.rtt_ms))
    if both:  # the first figure said carries "with one replica down", the second only its number
        assert t.higher_down_ms is not None and t.lower_down_ms is not None
        first, second = ("ld", "hd") if t.verdict == "near" else ("hd", "ld")
        downs = {"hd": t.higher_down_ms + t.rtt_ms, "ld": t.lower_down_ms + t.rtt_ms}
        p[first] = {"tr": "tie21.down.long", "ms": _ms(downs[first])}
        p[second] = {"tr": "tie21.down.short", "ms": _ms(downs[second])}
    else:
        p["hd"] = p["ld"] = ""
    if t.verdict == "near":
        p["err"] = round((t.error or 0.0) * 100)
    return {"tr": f"tie21.why.{t.verdict}" + ("_rtt" if t.rtt_ms else ""), **p}


def _ms(x: float) -> str:
    return f"{round(x):,}"


__all__ = ["FirstTokenTie", "why"]
