"""The memo's charts as data (Qt-free): series, axis labels, markers. ``ui/memo_charts.py`` paints them.

Two charts, both computed from a :class:`~advisor.plan.result.PlanResult`:

- ``latency``: the predicted TTFT P99 (and TPOT P99) against concurrency for the recommended hardware, the
  knee marked, the TTFT target as a horizontal line, the peak concurrency as a vertical one;
- ``cost``: cumulative cost over the project's months, cloud against bare metal, the break-even month marked.

Labels are in the memo's language (``advisor.i18n.translate``); numbers keep their units in the axis titles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.i18n import translate

SeriesRole = Literal["primary", "secondary", "tertiary", "measured"]


class Series(BaseModel):
    model_config = ConfigDict(frozen=True)

    label: str
    points: list[tuple[float, float]]
    role: SeriesRole = "primary"
    dashed: bool = False


class Marker(BaseModel):
    """A point (x and y), a vertical line (x only) or a horizontal line (y only), with a short label."""

    model_config = ConfigDict(frozen=True)

    label: str
    x: float | None = None
    y: float | None = None
    role: SeriesRole = "primary"


class ChartData(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    x_label: str
    y_label: str
    series: list[Series]
    markers: list[Marker] = Field(default_factory=list)
    x_log2: bool = Field(False, description="concurrency axes double per tick (1, 2, 4, …)")
    caption: str = ""

    def is_empty(self) -> bool:
        return not any(len(s.points) >= 2 for s in self.series)


def _get(obj: Any, name: str, default: Any = None) -> Any:
    """Attribute or key: the engine's result is pydantic, but a plain dict (its JSON) works as well."""
    if obj is None:
        return default
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _p99(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    return _get(value, "p99")


def latency_chart(result: Any, lang: str, *, measured: Sequence[Any] = ()) -> ChartData | None:
    """Predicted TTFT/TPOT P99 per concurrency level, knee and SLO marked; measured steps added when given."""
    prediction = _get(result, "prediction") or _get(_get(result, "capacity"), "prediction")
    levels = _get(prediction, "levels") or []
    ttft = [(float(_get(lv, "concurrency")), p) for lv in levels
            if _get(lv, "concurrency") and (p := _p99(_get(lv, "ttft_ms"))) is not None]
    tpot = [(float(_get(lv, "concurrency")), p) for lv in levels
            if _get(lv, "concurrency") and (p := _p99(_get(lv, "tpot_ms"))) is not None]
    if len(ttft) < 2:
        return None
    series = [
        Series(label=translate(lang, "memo.chart.latency.ttft_p99"), points=ttft, role="primary"),
    ]
    if len(tpot) >= 2:
        series.append(Series(label=translate(lang, "memo.chart.latency.tpot_p99"), points=tpot, role="secondary",
                             dashed=True))
    for run in measured:
        pts = [(float(c), float(v)) for c, v in _get(run, "ttft_p99_by_concurrency", []) if v is not None]
        if len(pts) >= 2:
            series.append(Series(label=translate(lang, "memo.chart.latency.measured", run=_get(run, "label")
                                                  or _get(run, "run_id")), points=pts, role="measured"))
    markers: list[Marker] = []
    knee = _get(_get(prediction, "knee"), "concurrency")
    if knee:
        at = next((p for c, p in ttft if c == float(knee)), None)
        markers.append(Marker(label=translate(lang, "memo.chart.latency.knee", c=int(knee)), x=float(knee), y=at))
    slo = _get(_get(_get(result, "answers"), "latency_slo"), "ttft_p99_ms")
    if slo:
        markers.append(Marker(label=translate(lang, "memo.chart.latency.slo", ms=_num(slo)), y=float(slo),
                              role="tertiary"))
    peak = _get(_get(result, "answers"), "peak_concurrency")
    peak = _get(peak, "high", peak) if isinstance(peak, dict) or hasattr(peak, "high") else peak
    if isinstance(peak, int | float) and peak > 0:
        markers.append(Marker(label=translate(lang, "memo.chart.latency.peak", c=int(peak)), x=float(peak),
                              role="secondary"))
    return ChartData(
        id="latency", title=translate(lang, "memo.chart.latency.title"),
        x_label=translate(lang, "memo.chart.latency.x"), y_label=translate(lang, "memo.chart.latency.y"),
        series=series, markers=markers, x_log2=True,
        caption=translate(lang, "memo.chart.latency.caption"),
    )


def cost_chart(result: Any, lang: str) -> ChartData | None:
    """Cumulative cost per month, cloud against bare metal, from the result's cost curves; break-even marked."""
    costs = _get(result, "costs")
    curves = _get(costs, "cumulative") or _get(costs, "curves") or {}
    currency = _get(costs, "currency") or "CNY"
    series = []
    roles: dict[str, SeriesRole] = {"cloud": "primary", "bare_metal": "secondary", "cloud_reserved": "tertiary"}
    for key in ("cloud", "cloud_reserved", "bare_metal"):
        values = _get(curves, key)
        if not values:
            continue
        pts = [(float(m), float(v)) for m, v in _points(values)]
        if len(pts) >= 2:
            series.append(Series(label=translate(lang, f"memo.chart.cost.{key}"), points=pts, role=roles[key],
                                 dashed=key == "cloud_reserved"))
    if not series:
        return None
    markers = []
    month = _get(costs, "break_even_months")
    if isinstance(month, int | float) and month > 0:
        markers.append(Marker(label=translate(lang, "memo.chart.cost.break_even", months=_num(month)),
                              x=float(month), role="tertiary"))
    return ChartData(
        id="cost", title=translate(lang, "memo.chart.cost.title"),
        x_label=translate(lang, "memo.chart.cost.x"), y_label=translate(lang, "memo.chart.cost.y", currency=currency),
        series=series, markers=markers,
        caption=translate(lang, "memo.chart.cost.caption"),
    )


def _points(values: Any) -> list[tuple[float, float]]:
    """[(month, amount)], or [amount per month from month 0], or [{month, amount|cumulative}]."""
    out = []
    for i, v in enumerate(values):
        if isinstance(v, int | float):
            out.append((float(i), float(v)))
        elif isinstance(v, list | tuple) and len(v) == 2:
            out.append((float(v[0]), float(v[1])))
        else:
            m = _get(v, "month", i)
            a = _get(v, "cumulative", _get(v, "amount"))
            if a is not None:
                out.append((float(m), float(a)))
    return out


def _num(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 10 else f"{v:.1f}".rstrip("0").rstrip(".")


def memo_charts(result: Any, lang: str, *, measured: Sequence[Any] = ()) -> dict[str, ChartData]:
    """Every chart the memo shows, by id (``latency``, ``cost``), skipping those without data."""
    out = {}
    for chart in (latency_chart(result, lang, measured=measured), cost_chart(result, lang)):
        if chart is not None and not chart.is_empty():
            out[chart.id] = chart
    return out
