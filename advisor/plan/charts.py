"""The memo's charts as data (Qt-free): series, axis labels, markers. ``ui/memo_charts.py`` paints them.

Two charts, both computed from a :class:`~advisor.plan.result.PlanResult`:

- ``latency``: the predicted TTFT P99 (and TPOT P99) against concurrency for the recommended hardware, the
  knee marked, the TTFT target as a horizontal line, the peak concurrency as a vertical one;
- ``cost``: cumulative cost over the project's months, cloud against bare metal, the break-even month marked.

Labels are in the memo's language (``advisor.i18n.translate``); numbers keep their units in the axis titles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.i18n import translate
from advisor.plan.evidence import RunEvidence, plan_evidence
from advisor.plan.knee_cap import chart_knee_key
from advisor.plan.memo_forms import chosen_owned
from advisor.plan.result import PlanResult

SeriesRole = Literal["primary", "secondary", "tertiary", "measured", "neutral"]  # neutral: a reference line, grey


class Series(BaseModel):
    model_config = ConfigDict(frozen=True)

    label: str
    points: list[tuple[float, float]]
    role: SeriesRole = "primary"
    dashed: bool = False
    band: list[tuple[float, float, float]] = Field(default_factory=list, description="(x, low, high): a range")


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
    lang: str = Field("en", description="the labels' language; tick numbers follow it (万/亿 in Chinese, k/M in English)")

    def is_empty(self) -> bool:
        return not any(len(s.points) >= 2 for s in self.series)


def latency_chart(result: PlanResult, lang: str, *, measured: Sequence[RunEvidence] = ()) -> ChartData | None:
    """Predicted TTFT/TPOT P99 per concurrency level, knee and SLO marked; measured steps added when given."""
    curve = result.latency_curve
    ttft = [(float(p.concurrency), p.ttft_p99_ms) for p in curve.points if p.ttft_p99_ms is not None]
    tpot = [(float(p.concurrency), p.tpot_p99_ms) for p in curve.points if p.tpot_p99_ms is not None]
    if len(ttft) < 2:
        return None
    series = [Series(label=translate(lang, "memo.chart.latency.ttft_p99"), points=ttft, role="primary")]
    if len(tpot) >= 2:
        series.append(Series(label=translate(lang, "memo.chart.latency.tpot_p99"), points=tpot, role="secondary",
                             dashed=True))
    # only what a real server measured for this plan's model and GPU is drawn as measured (never a simulated run)
    for run in plan_evidence(result, list(measured)).measured:
        pts = [(float(c), float(v)) for c, v in run.ttft_p99_by_concurrency if v is not None and c > 0]
        if len(pts) >= 2:
            series.append(Series(label=translate(lang, "memo.chart.latency.measured", run=run.label or run.run_id),
                                 points=pts, role="measured"))
    markers: list[Marker] = []
    knee = curve.knee_concurrency
    if knee:
        at = next((y for x, y in ttft if x == float(knee)), None)
        markers.append(Marker(label=translate(lang, chart_knee_key(result), c=knee), x=float(knee), y=at))
    if curve.slo_ttft_p99_ms:
        markers.append(Marker(label=translate(lang, "memo.chart.latency.slo", ms=_num(curve.slo_ttft_p99_ms)),
                              y=float(curve.slo_ttft_p99_ms), role="tertiary"))
    per_replica = result.capacity.concurrency_per_replica or result.capacity.peak_concurrency
    if per_replica > 0:
        markers.append(Marker(label=translate(lang, "memo.chart.latency.peak", c=per_replica), x=float(per_replica),
                              role="neutral"))  # not TPOT's colour: it is a load, not a latency
    return ChartData(
        id="latency", title=translate(lang, "memo.chart.latency.title"),
        x_label=translate(lang, "memo.chart.latency.x"), y_label=translate(lang, "memo.chart.latency.y"),
        series=series, markers=markers, x_log2=True, lang=lang,
        caption=translate(lang, "memo.chart.latency.caption" if curve.simulated else "memo.chart.latency.caption_measured"),
    )


def cost_chart(result: PlanResult, lang: str) -> ChartData | None:
    """Cumulative cost per month, cloud against bare metal (middle of each range, the range as a band)."""
    costs = result.costs
    cloud = [(float(p.month), (p.cloud_low + p.cloud_high) / 2) for p in result.cost_series]
    cloud_band = [(float(p.month), p.cloud_low, p.cloud_high) for p in result.cost_series]
    metal = [(float(p.month), (p.bare_metal_low + p.bare_metal_high) / 2) for p in result.cost_series
             if p.bare_metal_low is not None and p.bare_metal_high is not None]
    metal_band = [(float(p.month), p.bare_metal_low, p.bare_metal_high) for p in result.cost_series
                  if p.bare_metal_low is not None and p.bare_metal_high is not None]
    series = []
    if len(cloud) >= 2:
        series.append(Series(label=translate(lang, "memo.chart.cost.cloud"), points=cloud, band=cloud_band,
                             role="primary"))
    owning = _owning_form_series(result, lang)  # the recommended on-premises or hybrid form, as it is costed
    if owning is not None:  # it is the owning line (colocated bare metal, not chosen, is left out)
        metal = owning.points
        series.append(owning)
    elif len(metal) >= 2:
        series.append(Series(label=translate(lang, "memo.chart.cost.bare_metal"), points=metal, band=metal_band,
                             role="secondary"))
    if not series:
        return None
    markers = []
    cross = crossing(cloud, metal)
    if cross is not None:
        label = translate(lang, "memo.chart.cost.break_even", months=_num(cross[0]))
        markers.append(Marker(label=label, x=cross[0], y=cross[1], role="tertiary"))
    return ChartData(
        id="cost", title=translate(lang, "memo.chart.cost.title"),
        x_label=translate(lang, "memo.chart.cost.x"),
        y_label=translate(lang, "memo.chart.cost.y", currency=costs.currency),
        series=series, markers=markers, lang=lang,
        caption=translate(lang, _cost_caption(cloud, metal, cross), months=len(cloud) - 1),
    )


def _owning_form_series(result: PlanResult, lang: str) -> Series | None:
    o = chosen_owned(result)
    if o is None:
        return None
    months = range(0, result.costs.horizon_months + 1)
    lo = [(float(m), o.capex.low + o.running_monthly.low * m) for m in months]
    hi = [(float(m), o.capex.high + o.running_monthly.high * m) for m in months]
    # the team's own GPUs, nothing bought: not "own server (bought)" (s15-text)
    key = "memo.text15.chart.fleet" if o.fleet_gpus and not o.gpus_bought else f"memo.chart.cost.{result.deployment_form}"
    return Series(label=translate(lang, key),
                  points=[(m, (a + b) / 2) for (m, a), (_, b) in zip(lo, hi, strict=True)],
                  band=[(m, a, b) for (m, a), (_, b) in zip(lo, hi, strict=True)], role="secondary")


def _cost_caption(cloud: Sequence[tuple[float, float]], metal: Sequence[tuple[float, float]],
                  cross: tuple[float, float] | None) -> str:  # fmt: skip
    """What the lines say: where they cross, or (when they do not) which stays cheaper — never "where they cross"
    under two lines that never meet."""
    if cross is not None:
        return "memo.chart.cost.caption"
    if len(cloud) < 2 or len(metal) < 2:
        return "memo.chart.cost.caption_one_form"
    return "memo.chart.cost.caption_cloud_cheaper" if cloud[-1][1] <= metal[-1][1] else "memo.chart.cost.caption_metal_cheaper"


def crossing(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> tuple[float, float] | None:
    """The first x where curve ``a`` (renting) climbs above curve ``b`` (owning), linearly interpolated."""
    bx = dict(b)
    prev: tuple[float, float] | None = None
    for x, ya in a:
        if x not in bx:
            continue
        diff = ya - bx[x]
        if prev is not None and prev[1] < 0 <= diff:
            x0, d0 = prev
            frac = -d0 / (diff - d0) if diff != d0 else 0.0
            at = x0 + frac * (x - x0)
            y0 = dict(a)[x0]
            return at, y0 + frac * (ya - y0)
        prev = (x, diff)
    return None


def _num(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 10 else f"{v:.1f}".rstrip("0").rstrip(".")


def repeats_table(chart: ChartData) -> bool:
    """The latency chart with nothing measured on it: every point it draws is a cell of the memo's latency table,
    printed right above it, and the knee, the target and the load per replica it marks are that section's sentence
    (session 26, issue 25: a typical memo in 4 pages; the chart took 37 mm of every memo). A printed memo leaves it
    out; a measured run drawn beside the prediction is what no table shows, so that chart is printed.

    The cost chart of a one-off job (a batch billed once: one line from nothing at the start to the job's cost a
    month on) draws the cost table's "the whole job" row and nothing else, 35 mm of the memo (session 30, q06 and
    q28 back to 3 pages); a chart with a second way of paying or a monthly bill has a shape no row gives."""
    if chart.id == "cost":
        return _one_off_job(chart)
    return chart.id == "latency" and not any(s.role == "measured" for s in chart.series)


def _one_off_job(chart: ChartData) -> bool:
    """One series of two points: nothing spent at month 0, the whole cost at the end, and no marker on it."""
    if len(chart.series) != 1 or chart.markers:
        return False
    points = chart.series[0].points
    return len(points) == 2 and points[0][1] == 0


def memo_charts(result: PlanResult, lang: str, *, measured: Sequence[RunEvidence] = ()) -> dict[str, ChartData]:
    """Every chart the memo shows, by id (``latency``, ``cost``), skipping those without data."""
    from advisor.plan.memo_text15 import chart_gpu_names, is_npu, npu_chart

    out = {}
    for chart in (latency_chart(result, lang, measured=measured), cost_chart(result, lang)):
        if chart is not None and not chart.is_empty():
            chart = chart_gpu_names(chart, lang)  # 华为昇腾 910B in Chinese, not "Huawei Ascend 910B"
            out[chart.id] = npu_chart(chart, lang) if is_npu(result) else chart  # Ascend: NPU, not GPU
    return out
