"""Slow sizing work for the worker thread: plain functions of (token, inputs), no Qt.

The catalog table sizes the request on every GPU of the catalog (two ``size()`` calls each); the
latency curve asks the predictor (advisor.sim) when it is installed. Both check the cancel token
between GPUs / levels, so a newer request supersedes them within one step.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Any

from advisor.domain.gpu import GpuSpec
from advisor.domain.sizing import SizingRequest
from advisor.sizing import size


@dataclass(frozen=True)
class CatalogRow:
    gpu_id: str
    gpu_name: str
    memory_bytes: int
    fits_now: bool  # at the requested GPU count
    gpus_needed: int | None  # smallest tensor-parallel degree that fits (None: not within one node)
    max_concurrency: int  # at gpus_needed (or the requested count when nothing fits)
    tokens_per_s_total: float
    tokens_per_s_user: float
    ttft_ms: float
    user_defined: bool


def catalog_rows(token: Any, request: SizingRequest, gpus: list[GpuSpec]) -> list[CatalogRow]:
    rows = []
    for gpu in gpus:
        token.raise_if_cancelled()
        try:
            here = size(request.model_copy(update={"gpu": gpu}))
            needed = here.min_gpus
            at = here
            if needed is not None and needed != request.gpus:
                at = size(request.model_copy(update={"gpu": gpu, "gpus": needed}))
        except (ValueError, ArithmeticError):
            continue  # a GPU the model cannot be placed on at all: leave it out rather than fail the table
        rows.append(
            CatalogRow(
                gpu_id=gpu.id,
                gpu_name=gpu.name,
                memory_bytes=gpu.memory_bytes,
                fits_now=here.verdict == "fits",  # memory, and an engine that accepts the setup (as the overview)
                gpus_needed=needed,
                max_concurrency=at.memory.max_concurrency,
                tokens_per_s_total=at.perf.decode_tokens_per_s_total.value,
                tokens_per_s_user=at.perf.decode_tokens_per_s.value,
                ttft_ms=(at.perf.ttft_ms or at.perf.prefill_ms).value,  # as the overview: prefill + serving overhead
                user_defined=gpu.user_defined,
            )
        )
    return rows


def find_predictor() -> bool:
    """True when the simulator (advisor.sim) is installed: the curve tab then shows predictions."""
    try:
        importlib.import_module("advisor.sim.costs")
        importlib.import_module("advisor.sim.predict")
    except ImportError:
        return False
    return True


class PredictionUnavailable(ValueError):
    """The request cannot be simulated (e.g. one request is longer than the whole KV cache)."""


def predict_curve(token: Any, request: SizingRequest) -> Any:
    """Concurrency → latency/throughput curve and knee for this request, one level at a time (cancellable).

    The workload is the request's own prompt/output split (fixed lengths), on the engine limits the
    sizing core derives for the chosen GPUs and engine settings.
    """
    from advisor.domain.sim import LengthDistribution, Prediction, SimWorkload
    from advisor.i18n import tr
    from advisor.sim.costs import build_setup
    from advisor.sim.predict import DEFAULT_LEVELS, find_knee, simulate_concurrency

    setup = build_setup(
        request.model, request.gpu, request.weights, gpus=request.gpus, kv_dtype=request.kv_dtype,
        context=min(request.context, request.model.max_context), engine=request.engine, factors=request.factors,
        profile="llama.cpp" if request.weights.lower().startswith("gguf") else request.engine_profile,
        shared_prefix_tokens=request.shared_prefix_tokens,
    )  # fmt: skip
    prompt, output = request.resolved_prompt_tokens, request.resolved_output_tokens
    if prompt + output > setup.limits.kv_tokens:
        raise PredictionUnavailable(tr("ui.curve.too_long", tokens=prompt + output, capacity=setup.limits.kv_tokens))
    workload = SimWorkload(prompt=LengthDistribution.fixed(prompt), output=LengthDistribution.fixed(output))
    started = time.process_time()
    levels = []
    # the user's own concurrency is always one of the points, so the caption can compare it with the overview
    wanted = sorted(set(DEFAULT_LEVELS) | ({request.concurrency} if request.concurrency <= 1024 else set()))
    for concurrency in wanted:
        token.raise_if_cancelled()
        levels.append(simulate_concurrency(setup.costs, setup.limits, workload, concurrency))
    return Prediction(
        levels=levels,
        knee=find_knee(levels, setup.limits),
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
