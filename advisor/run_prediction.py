"""A measured run beside its prediction: the capacity predictor's curve for the setup a benchmark run measured.

It sits above both the benchmark layer (which must not know the simulator) and the simulator (which knows nothing of
stored runs): the Benchmark page's result view and the tests call it with a run's setup and steps.
"""

from __future__ import annotations

from typing import Any

from advisor.bench.presets import sim_workload
from advisor.catalog import get_gpu, resolve_model
from advisor.sim.costs import build_setup
from advisor.sim.predict import DEFAULT_LEVELS, predict_curve

STEP_REQUESTS_SIMULATED = 4096  # most requests of one measured step that are replayed for its prediction


def predicted_curve(
    model: str,
    gpu: str,
    weights: str | None = None,
    gpus: int = 1,
    workload: Any = None,
    levels: list[int] | None = None,
    time_scale: float = 1.0,
    steps: list[dict[str, Any]] | None = None,
) -> Any:
    """The predictor's concurrency curve for the same model, GPU and workload (a :class:`Prediction`).

    ``time_scale``: the simulated server's own (durations × scale, rates ÷ scale), so a run against a sped-up
    simulator is compared with the same speed-up. ``steps``: the run's closed-loop steps (their concurrency,
    requests sent and start stagger); each level is then predicted as that step ran — its requests, its stagger,
    its start-up and drain — not as a steady state, so measured and predicted throughput count the same thing."""
    m = resolve_model(model)
    setup = build_setup(m, get_gpu(gpu), m.weights_or_native(weights), gpus=gpus)
    sim_w = sim_workload(workload) if workload is not None else None
    sent = {int(s["concurrency"]): int(s.get("requests_ok", 0)) + int(s.get("requests_failed", 0))
            for s in steps or [] if s.get("concurrency") and not s.get("target_rate")}  # fmt: skip
    # bounded: a soak step of 100,000 requests would cost ~25 CPU s to replay; 4,096 show its steady shape
    sent = {c: min(n, STEP_REQUESTS_SIMULATED) for c, n in sent.items() if n > 0}
    # the step's stagger ran in the server's time: undo the speed-up before simulating in real time
    stagger = {int(s["concurrency"]): float(s.get("start_stagger_s") or 0.0) / time_scale
               for s in steps or [] if s.get("concurrency") in sent}  # fmt: skip
    prediction = predict_curve(setup.costs, setup.limits, sim_w, levels or list(DEFAULT_LEVELS), measure=64,
                               stagger_s=stagger or None, step_requests=sent or None)  # fmt: skip
    if time_scale != 1.0:
        for lv in prediction.levels:
            for name in ("ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"):
                pct = getattr(lv, name)
                for stat in ("mean", "p50", "p90", "p95", "p99"):
                    value = getattr(pct, stat, None)
                    if value is not None:
                        setattr(pct, stat, value * time_scale)
            lv.output_tokens_per_s /= time_scale
            lv.requests_per_s /= time_scale
    return prediction
