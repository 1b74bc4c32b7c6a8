"""The predicted concurrency → latency curve of a sizing request, as the Sizing page draws it: the request's own
prompt/output split (fixed lengths) on the engine limits the sizing core derives for the chosen GPUs and engine
settings, one level at a time so a newer request cancels it between levels.

Above both ``advisor.sizing`` (which must not know the simulator) and ``advisor.sim`` (the predictor)."""

from __future__ import annotations

import time
from typing import Any

from advisor.domain.sim import LengthDistribution, Prediction, SimWorkload
from advisor.domain.sizing import LikelyLatency, SizingRequest
from advisor.i18n import tr
from advisor.sim.costs import SimSetupError, build_setup
from advisor.sim.monotone import monotone_latency
from advisor.sim.predict import DEFAULT_LEVELS, find_knee, p99_measure, simulate_concurrency
from advisor.sizing.accuracy import architecture_group, likely_for_level, predictor_accuracy


class PredictionUnavailable(ValueError):
    """The request cannot be simulated (e.g. one request is longer than the whole KV cache)."""


def request_curve(request: SizingRequest, *, cancel: Any = None) -> Prediction:
    """Concurrency → latency/throughput and the knee for ``request``; the user's own concurrency is always one of
    the levels, so a caption can compare it with the overview. ``cancel``: checked between levels."""
    setup = build_setup(
        request.model, request.gpu, request.weights, gpus=request.gpus, kv_dtype=request.kv_dtype,
        context=min(request.context, request.model.max_context), engine=request.engine, factors=request.factors,
        profile="llama.cpp" if request.weights.lower().startswith("gguf") else request.engine_profile,
        shared_prefix_tokens=request.shared_prefix_tokens,
    )  # fmt: skip
    prompt, output = request.resolved_prompt_tokens, request.resolved_output_tokens
    if prompt + output > setup.limits.kv_tokens:
        raise PredictionUnavailable(tr("sizing.curve.too_long", tokens=prompt + output, capacity=setup.limits.kv_tokens))
    workload = SimWorkload(prompt=LengthDistribution.fixed(prompt), output=LengthDistribution.fixed(output))
    started = time.process_time()
    levels = []
    wanted = sorted(set(DEFAULT_LEVELS) | ({request.concurrency} if request.concurrency <= 1024 else set()))
    for concurrency in wanted:
        if cancel is not None:
            cancel.raise_if_cancelled()
        # P99s from enough requests where lengths vary (one rule: advisor.sim.predict.p99_measure)
        levels.append(simulate_concurrency(setup.costs, setup.limits, workload, concurrency,
                                           measure=p99_measure(workload, concurrency)))
    levels = monotone_latency(levels)  # a short sample's dip is noise: the plan's curve reads the same way
    return Prediction(
        levels=levels,
        knee=find_knee(levels, setup.limits),
        architecture=architecture_group(request.model),
        engine={
            "kv_tokens": setup.limits.kv_tokens, "max_num_seqs": setup.limits.max_num_seqs,
            # the workload simulated, for the caption (the overview states the same assumptions)
            "prompt_tokens": prompt, "output_tokens": output, "requested": request.concurrency,
            "engine_profile": setup.profile.id if setup.profile else "vllm",
            "request_overhead_ms": setup.limits.request_overhead_s * 1000,
            "prefix_tokens": request.shared_prefix_tokens,
        },  # fmt: skip
        cpu_seconds=time.process_time() - started,
    )


def likely_at_requested(prediction: Prediction) -> tuple[Any, LikelyLatency | None]:
    """The predicted level at the request's own concurrency and its P50 TTFT and TPOT as the ranges that held for public
    measurements in the regime the curve's knee puts it in (issue #28): what `advisor calc`, the Sizing page's
    overview and its plot caption state beside the expected error. (None, None) where the level is not on the curve."""
    at = next((lv for lv in prediction.levels if lv.concurrency == prediction.engine.get("requested")), None)
    if at is None:
        return None, None
    return at, likely_for_level(predictor_accuracy(), prediction.knee, at, prediction.architecture)


def likely_json(request: SizingRequest) -> dict[str, Any]:
    """``likely`` (the shape `advisor predict --json` gives each level) and ``likely_basis`` (the predicted level it
    scales, and the knee that set the regime) for ``request``; both None where the curve cannot be simulated."""
    try:
        prediction = request_curve(request)
    except (PredictionUnavailable, SimSetupError):  # nothing to simulate (does not fit, or one request is too long)
        return {"likely": None, "likely_basis": None}
    at, likely = likely_at_requested(prediction)
    basis = None if at is None else {
        "simulated": True, "concurrency": at.concurrency, "ttft_p50_ms": at.ttft_ms.p50, "tpot_p50_ms": at.tpot_ms.p50,
        "output_tokens_per_s": at.output_tokens_per_s, "knee_concurrency": prediction.knee.concurrency, "knee_reason": prediction.knee.reason,
    }  # fmt: skip
    return {"likely": likely.model_dump(mode="json") if likely else None, "likely_basis": basis}
