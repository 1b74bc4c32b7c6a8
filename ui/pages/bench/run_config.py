"""The run's configuration from the target and workload panels (field-level ``ValueError`` for what is missing),
the concurrency levels it will step through, and the "auto" client-process count."""

from __future__ import annotations

import os
from typing import Any

from advisor.bench import report
from advisor.bench.presets import DEFAULT_PRESET, get_preset
from advisor.domain.bench import BenchConfig, LengthDist
from advisor.i18n import tr
from ui.pages.bench.target_panel import TargetPanel
from ui.pages.bench.workload_panel import WorkloadPanel

# Where the load runs (measured in bench/gui_bench_lag.py, docs/measure.md): from this many streams the load goes
# to spawned client processes (when there are cores for them), so the GUI thread and the load do not share one
# interpreter lock.
AUTO_PROCESSES_FROM = 64
AUTO_PROCESSES = 2
AUTO_MIN_CPUS = 4  # the client processes need cores of their own: on 2 cores they made both lag and ITL error worse


def auto_client_processes(highest_concurrency: int, cpus: int | None = None) -> int:
    """The "auto" client-process count: 2 from 64 streams when the machine has ≥ 4 cores, else 1 (in a thread)."""
    cpus = cpus if cpus is not None else (os.cpu_count() or 1)
    return AUTO_PROCESSES if highest_concurrency >= AUTO_PROCESSES_FROM and cpus >= AUTO_MIN_CPUS else 1


def build_config(target: TargetPanel, w: WorkloadPanel) -> BenchConfig:
    """The run's configuration from the fields (raises ValueError with a field-level message)."""
    url = target.target_url()
    if not url:
        raise ValueError(target.no_target_text())
    model = target.served_model()
    if not model:
        raise ValueError(tr("bench.page.error.no_model"))
    preset = get_preset(w.preset_box.currentData() or DEFAULT_PRESET)
    pm, om = w.prompt_mean.value(), w.output_mean.value()
    prompt = LengthDist(kind="lognormal", mean=pm, std=pm * preset.prompt_std / preset.prompt_mean, min=8,
                        max=max(pm, preset.prompt_max * pm // preset.prompt_mean))  # fmt: skip
    output = LengthDist(kind="lognormal", mean=om, std=om * preset.output_std / preset.output_mean, min=1,
                        max=max(om, preset.output_max * om // preset.output_mean))  # fmt: skip
    shape = w.shape_box.currentData()
    highest = {
        "fixed": w.concurrency.value(),
        "soak": w.concurrency.value(),
        "ramp": w.max_concurrency.value(),
        "rate": w.max_concurrency.value(),
    }.get(shape, 1)
    procs = w.client_processes.value() or auto_client_processes(highest)
    sched: dict[str, Any] = {"kind": shape, "client_processes": procs, "warmup_requests": 1}
    if shape == "fixed":
        sched.update(concurrency=[w.concurrency.value()], requests=w.requests.value())
    elif shape == "ramp":
        sched.update(concurrency=[1], max_concurrency=w.max_concurrency.value(), requests=w.requests.value())
    elif shape == "soak":
        d = w.duration.value()
        sched.update(concurrency=[w.concurrency.value()], duration_s=d, window_s=max(5.0, min(60.0, d / 10)))
    elif shape == "rate":
        sched.update(rate=w.rate.value(), max_concurrency=w.max_concurrency.value(), requests=w.requests.value())
    slo = {"ttft_ms": w.ttft_slo.value() or None, "tpot_ms": w.tpot_slo.value() or None, "percentile": 99}
    label = ""
    if target.is_sim():
        spec = target.sim.spec()
        label = report.sim_label(spec.model, spec.gpu, spec.weights, spec.gpus, spec.time_scale)
    workload = {"prompt_tokens": prompt, "output_tokens": output, "dataset": w.dataset_path, "ignore_eos": True}
    return BenchConfig(endpoint={"url": url, "model": model, "use_keyring": False}, workload=workload,
                       schedule=sched, slo=slo, label=label)  # fmt: skip


def plan_levels(config: BenchConfig) -> list[int]:
    """The concurrency levels the run steps through (the live view's progress)."""
    sch = config.schedule
    if sch.kind == "single":
        return [1]
    if sch.kind == "ramp":
        levels, c = [], 1
        while c <= sch.max_concurrency:
            levels.append(c)
            c *= 2
        return levels
    if sch.kind == "rate":
        return [sch.max_concurrency]
    return list(sch.concurrency)
