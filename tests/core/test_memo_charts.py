"""The memo's chart data (Qt-free): series from the plan, markers, labels in both languages."""

from pathlib import Path

import pytest

from advisor import i18n
from advisor.plan.charts import cost_chart, crossing, latency_chart, memo_charts
from advisor.plan.evidence import MeasuredLevel, RunEvidence
from advisor.plan.result import CostPoint, LatencyCurve, PlanResult

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "memo"


def _result() -> PlanResult:
    return PlanResult.model_validate_json((FIXTURES / "plan_result.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_latency_chart_follows_the_predicted_curve(lang):
    result = _result()
    chart = latency_chart(result, lang)
    curve = result.latency_curve
    ttft = chart.series[0]
    assert ttft.points == [(float(p.concurrency), p.ttft_p99_ms) for p in curve.points]
    assert chart.x_log2 and chart.x_label == i18n.translate(lang, "memo.chart.latency.x")
    assert chart.y_label == i18n.translate(lang, "memo.chart.latency.y")
    slo = [m for m in chart.markers if m.x is None]
    assert [m.y for m in slo] == [curve.slo_ttft_p99_ms]


def test_the_knee_is_marked_on_the_curve():
    result = _result()
    curve = result.latency_curve.model_copy(update={"knee_concurrency": 32})
    chart = latency_chart(result.model_copy(update={"latency_curve": curve}), "en")
    [knee] = [m for m in chart.markers if m.x is not None and m.y is not None]
    assert knee.x == 32.0 and knee.y == next(p.ttft_p99_ms for p in curve.points if p.concurrency == 32)
    assert "32" in knee.label


def test_measured_runs_join_the_latency_chart():
    # a real server's run of the plan's model (Qwen3 8B) on the plan's GPU (L20)
    run = RunEvidence(run_id="r1", label="ramp", status="completed", date="2026-12-01", model="Qwen/Qwen3-8B",
                      gpu_names=["NVIDIA L20"], requests_ok=30, levels=[
        MeasuredLevel(concurrency=c, requests_ok=10, requests_failed=0, ttft_p99_ms=100.0 * c, tpot_p99_ms=20.0,
                      output_tokens_per_s=10.0 * c) for c in (1, 2, 4)])
    chart = latency_chart(_result(), "zh_CN", measured=[run])
    measured = [s for s in chart.series if s.role == "measured"]
    assert [s.points for s in measured] == [[(1.0, 100.0), (2.0, 200.0), (4.0, 400.0)]]
    assert measured[0].label == i18n.translate("zh_CN", "memo.chart.latency.measured", run="ramp")
    # the same figures from the simulated server, from another GPU, or from an interrupted run are not "measured"
    for other in (run.model_copy(update={"simulated": True, "time_scale": 1.0}),
                  run.model_copy(update={"gpu_names": ["NVIDIA L40S"]}),
                  run.model_copy(update={"status": "interrupted"})):
        chart = latency_chart(_result(), "zh_CN", measured=[other])
        assert [s for s in chart.series if s.role == "measured"] == []


def test_cost_chart_draws_ranges_and_marks_break_even_where_the_lines_cross():
    series = [CostPoint(month=m, cloud_low=900.0 * m, cloud_high=1100.0 * m, bare_metal_low=4500.0 + 400 * m,
                        bare_metal_high=5500.0 + 600 * m) for m in range(13)]
    result = _result().model_copy(update={"cost_series": series})
    chart = cost_chart(result, "en")
    cloud, metal = chart.series
    assert cloud.points[3] == (3.0, 3000.0) and cloud.band[3] == (3.0, 2700.0, 3300.0)
    assert metal.points[0] == (0.0, 5000.0)
    [mark] = chart.markers
    assert mark.x == pytest.approx(10.0) and mark.y == pytest.approx(10000.0)  # 1000 m = 5000 + 500 m
    assert chart.y_label == i18n.translate("en", "memo.chart.cost.y", currency=result.costs.currency)


def test_no_break_even_when_renting_stays_cheaper():
    assert crossing([(0, 0), (1, 10), (2, 20)], [(0, 100), (1, 105), (2, 110)]) is None
    assert crossing([(0, 0), (1, 10)], [(0, 5), (1, 5)]) == pytest.approx((0.5, 5.0))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_cost_caption_says_what_the_lines_do(lang):
    """"Where the lines cross…" only under lines that cross; else which form stays cheaper over the horizon."""
    def caption(metal_start: float, metal_slope: float, with_metal: bool = True) -> str:
        series = [CostPoint(month=m, cloud_low=900.0 * m, cloud_high=1100.0 * m,
                            bare_metal_low=metal_start + metal_slope * m if with_metal else None,
                            bare_metal_high=metal_start + metal_slope * m if with_metal else None) for m in range(13)]
        return cost_chart(_result().model_copy(update={"cost_series": series}), lang).caption

    assert caption(5000, 500) == i18n.translate(lang, "memo.chart.cost.caption")
    assert caption(50000, 2000) == i18n.translate(lang, "memo.chart.cost.caption_cloud_cheaper", months=12)
    assert caption(-100, 100) == i18n.translate(lang, "memo.chart.cost.caption_metal_cheaper", months=12)
    assert caption(0, 0, with_metal=False) == i18n.translate(lang, "memo.chart.cost.caption_one_form")


def test_a_plan_without_gpus_has_no_charts():
    result = _result().model_copy(update={"latency_curve": LatencyCurve(), "cost_series": []})
    assert memo_charts(result, "en") == {}
    assert set(memo_charts(_result(), "en")) == {"latency", "cost"}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_charts_carry_their_language_for_the_numbers(lang):
    """The painter writes tick numbers the language's way (万/亿 in Chinese), so each chart says which it is."""
    assert {chart.lang for chart in memo_charts(_result(), lang).values()} == {lang}
