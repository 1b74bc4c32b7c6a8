"""The predictor's own error, measured: what a newcomer should expect of every predicted TTFT and TPOT.

``resources/engines/accuracy.json`` is written by ``bench/predictor_accuracy.py --write`` from the held-out public
measurements (with cached-prompt TTFTs left out), so the figure shown next to a prediction is the one in
docs/predictor-accuracy.md, never a number typed by hand. A test re-scores the CSV and compares.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from advisor.domain.engine_profiles import get_profile
from advisor.domain.gpu import GpuSpec
from advisor.domain.sizing import (
    ArchitectureGroup,
    LatencySpan,
    LikelyLatency,
    LikelyRange,
    LoadKey,
    PredictorAccuracy,
    Regime,
)
from advisor.resources import resource_path

ACCURACY_FILE = ("engines", "accuracy.json")


@cache
def predictor_accuracy() -> PredictorAccuracy | None:
    """The held-out error figures, or None where the file is missing (a checkout that never ran the bench)."""
    path = resource_path(*ACCURACY_FILE)
    if not path.is_file():
        return None
    return PredictorAccuracy.model_validate_json(path.read_text(encoding="utf-8"))


def load_of(concurrency: int | None = None, *, request_rate: bool = False) -> LoadKey | None:
    """The load a prediction is for, as accuracy.json files its figures (None: a whole curve of loads)."""
    if request_rate:
        return "request_rate"
    if concurrency is None:
        return None
    return "concurrency_1" if concurrency <= 1 else ("concurrency_2_16" if concurrency <= 16 else "concurrency_17_plus")


def accuracy_sentence(
    accuracy: PredictorAccuracy | None, *, engine: str | None = None, gpu: GpuSpec | None = None, load: LoadKey | None = None
) -> str:
    """The expected error in words (current language), or "" where no figure is on record. Given the load the
    prediction is for, it leads with the error measured at that load (the errors differ several-fold between one
    request and a saturated server) and gives the overall figure after it. Given the prediction's engine profile
    and GPU, it also says when no measurement behind the figure ran on that engine or GPU: there the figure is a
    hope, not a measurement."""
    if accuracy is None:
        return ""
    from advisor.i18n import tr
    from advisor.units import format_percent

    at = accuracy.at_load(load)
    fig = at or accuracy  # the figure at this load, else the overall one (both: measurements, ttft, tpot)
    text = tr(
        "sizing.accuracy_load" if at else "sizing.accuracy", n=fig.measurements, sources=accuracy.sources,
        ttft=format_percent(fig.ttft.median), ttft_p90=format_percent(fig.ttft.p90),
        tpot=format_percent(fig.tpot.median), tpot_p90=format_percent(fig.tpot.p90),
        load=tr(f"sizing.load.{at.load}") if at else "", n_all=accuracy.measurements,
        ttft_all=format_percent(accuracy.ttft.median), tpot_all=format_percent(accuracy.tpot.median),
    )  # fmt: skip
    if engine and accuracy.engines and engine not in accuracy.engines:
        text += tr("sizing.accuracy_unchecked_engine", engine=get_profile(engine).label)
    if gpu is not None and accuracy.gpus and gpu.id not in accuracy.gpus:
        text += tr("sizing.accuracy_unchecked_gpu", gpu=gpu.name)
    return text + tr("sizing.accuracy_doc", doc=accuracy.doc)


def regime_at(
    knee_concurrency: int | None, *, concurrency: int | None = None, request_rate: float | None = None,
    knee_request_rate: float | None = None,
) -> Regime:
    """Below the predicted knee or past it, by the rule bench/predictor_accuracy.py sorts the public measurements
    with: more users than the knee (or a request rate above the knee's) is past it; no knee, below it."""
    if request_rate is not None:
        return "saturated" if knee_request_rate is not None and request_rate > knee_request_rate else "below_knee"
    if concurrency is None or knee_concurrency is None:
        return "below_knee"
    return "saturated" if concurrency > knee_concurrency else "below_knee"


def architecture_group(model: Any) -> ArchitectureGroup:
    """The group whose TPOT range a model's prediction is stated with (``model``: a ModelSpec): a mixture-of-experts
    decode step reads a load-dependent set of experts through fused-MoE kernels, a dense one reads every weight once
    (bench/predictor_accuracy.py's TPOT_GROUP_REASON)."""
    return "moe" if model.is_moe else "dense"


def likely_latency(
    accuracy: PredictorAccuracy | None, regime: Regime, *, ttft_ms: float | None, tpot_ms: float | None,
    architecture: ArchitectureGroup | None = None,
) -> LikelyLatency | None:
    """The predicted TTFT and TPOT as the ranges that held for public measurements in the same regime (None where
    no range is on record); TPOT's from the model's architecture group where that group has its own range."""
    at = accuracy.in_regime(regime) if accuracy else None
    if at is None:
        return None

    def span(value: float | None, rng: LikelyRange | None) -> LatencySpan | None:
        if value is None or rng is None:
            return None
        # the range printed beside a prediction must contain it (issue #25): factors drawn from a biased regime could
        # both lie above (or below) 1, so the span reaches to the prediction itself; widening only adds coverage, so
        # "held for N %" stays true
        low, high = min(rng.low, 1.0), max(rng.high, 1.0)
        return LatencySpan(low=value * low, high=value * high, held=rng.coverage, measurements=at.measurements)

    ttft, tpot = span(ttft_ms, at.ttft_range), span(tpot_ms, at.range_for("tpot", architecture))
    if ttft is None and tpot is None:
        return None
    return LikelyLatency(regime=regime, ttft_ms=ttft, tpot_ms=tpot)


def likely_sentence(likely: LikelyLatency | None, *, concurrency: int | None = None, rate: float | None = None) -> str:
    """One line a newcomer can plan with: "At 64 users (past the knee: the engine decides) TTFT is likely 0.9–4.2 s
    and TPOT 40–110 ms; ranges that held for 82 % of public measurements in that regime." ("" without a range)."""
    if likely is None:
        return ""
    from advisor.i18n import tr
    from advisor.units import format_ms, format_percent

    parts = []
    if likely.ttft_ms:
        parts.append(tr("sizing.likely.ttft", low=format_ms(likely.ttft_ms.low), high=format_ms(likely.ttft_ms.high)))
    if likely.tpot_ms:
        parts.append(tr("sizing.likely.tpot", low=format_ms(likely.tpot_ms.low), high=format_ms(likely.tpot_ms.high)))
    held = min(s.held for s in (likely.ttft_ms, likely.tpot_ms) if s)
    load = tr("sizing.likely.at_rate", rate=f"{rate:g}") if rate is not None else tr("sizing.likely.at_users", n=concurrency or 1)
    return tr(f"sizing.likely.{likely.regime}", load=load, ranges=tr("sizing.likely.join").join(parts),
              held=format_percent(held))


def speculative_basis_note(speculative: Any, *, simulated: bool) -> str:
    """What a likely range and the expected error rest on when the request uses speculative decoding ("" without
    it): every scored measurement (bench/predictor_accuracy.py) ran without speculation, so they are stated as that
    basis, not as a range measured with it. ``simulated``: the curve itself was simulated with speculation
    (`advisor predict`), else it is the curve without it (`advisor calc`, whose speculative row gives the figures)."""
    if speculative is None:
        return ""
    from advisor.i18n import tr

    return tr("likely28_predict29.speculative_predict" if simulated else "likely28_predict29.speculative_calc")


def likely_for_level(
    accuracy: PredictorAccuracy | None, knee: Any, level: Any, architecture: ArchitectureGroup | None = None
) -> LikelyLatency | None:
    """A predicted curve level's p50 TTFT and TPOT as likely ranges, in the regime its knee puts it in (``knee`` and
    ``level``: advisor.domain.sim's Knee and LevelPrediction; ``architecture``: the model's group, see
    architecture_group)."""
    regime = regime_at(knee.concurrency, concurrency=level.concurrency, request_rate=level.request_rate,
                       knee_request_rate=knee.request_rate)  # fmt: skip
    return likely_latency(accuracy, regime, ttft_ms=level.ttft_ms.p50, tpot_ms=level.tpot_ms.p50,
                          architecture=architecture)
