"""One run's configuration from what a person chose, for every caller: ``advisor bench`` turns its flags into
:class:`RunChoices`, the Benchmark page its fields, the A/B comparison each side, and all call :func:`build_config`
(issue #27: the page had its own copy, which had drifted from the command line's). The concurrency levels a schedule steps through
(:func:`run_levels`) are the runner's own: the live view's progress reads the same list the runner runs.

Pure and Qt-free: no I/O; a bad choice raises ``ValueError`` (or pydantic's ``ValidationError``, field by field).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from advisor.domain.bench import BenchConfig, LengthDist, ScheduleConfig, ScheduleKind
from advisor.i18n import tr

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


def soak_window_s(duration_s: float) -> float:
    """A soak's drift window: a tenth of the soak, between 5 s and 60 s (ten windows to fit a trend through)."""
    return max(5.0, min(60.0, duration_s / 10))


@dataclass(frozen=True)
class RunChoices:
    """What a person chose for one run, as plain values. ``None`` leaves a number to the engine's default.

    ``levels``: the concurrency of each step — a fixed run's levels, a soak's one level, a ramp's own levels
    (``None`` for a ramp: doubling from 1 up to ``max_concurrency``). ``client_processes``: ``None`` is "auto"
    (:func:`auto_client_processes` of the run's highest level). ``duration_s``: time per step (fixed, ramp),
    the soak's length, or the open loop's total.
    """

    url: str
    model: str
    shape: ScheduleKind = "fixed"
    levels: tuple[int, ...] | None = None
    requests: int | None = None
    duration_s: float | None = None
    max_concurrency: int | None = None
    rate: float | None = None
    burstiness: float = 1.0
    warmup_requests: int = 1
    client_processes: int | None = None
    continue_past_knee: bool = False
    stagger: bool = True
    min_step_s: float | None = None
    # what is sent
    prompt_tokens: LengthDist | dict[str, Any] | None = None
    output_tokens: LengthDist | dict[str, Any] | None = None
    dataset: str | None = None
    language: str = "en"
    ignore_eos: bool = False
    seed: int = 0
    # where and how
    api: str = "chat"
    transport: str = "raw"
    timeout_s: float = 600.0
    read_timeout_s: float | None = None
    use_keyring: bool = False
    api_key_env: str | None = None
    # the objectives
    slo_ttft_ms: float | None = None
    slo_tpot_ms: float | None = None
    slo_e2e_ms: float | None = None
    slo_percentile: int = 95
    max_error_rate: float = 0.05
    label: str = ""


def _schedule(c: RunChoices) -> dict[str, Any]:
    sched: dict[str, Any] = {"kind": c.shape, "warmup_requests": c.warmup_requests, "burstiness": c.burstiness,
                             "continue_past_knee": c.continue_past_knee, "stagger": c.stagger}
    for key in ("requests", "duration_s", "max_concurrency", "min_step_s"):
        value = getattr(c, key)
        if value is not None:
            sched[key] = value
    if c.shape in ("fixed", "ramp", "soak") and c.levels:
        sched["concurrency"] = list(c.levels[:1] if c.shape == "soak" else c.levels)
    if c.shape == "soak":
        if not c.duration_s:
            raise ValueError(tr("bench.run.soak_needs_duration"))
        sched["window_s"] = soak_window_s(c.duration_s)
    elif c.shape == "rate":
        sched["rate"] = c.rate
    return sched


def build_config(c: RunChoices) -> BenchConfig:
    """The run's configuration (pydantic checks every field and names the one that is wrong)."""
    sched = _schedule(c)
    if c.client_processes is None:  # auto: from the run's highest level, as the runner will step through them
        sched["client_processes"] = auto_client_processes(max(run_levels(ScheduleConfig.model_validate(sched))))
    else:
        sched["client_processes"] = c.client_processes
    endpoint: dict[str, Any] = {"url": c.url, "model": c.model, "api": c.api, "transport": c.transport,
                                "timeout_s": c.timeout_s, "use_keyring": c.use_keyring}
    if c.read_timeout_s is not None:
        endpoint["read_timeout_s"] = c.read_timeout_s
    if c.api_key_env:
        endpoint["api_key_env"] = c.api_key_env
    workload: dict[str, Any] = {"dataset": c.dataset, "language": c.language, "ignore_eos": c.ignore_eos,
                                "seed": c.seed}
    if c.prompt_tokens is not None:
        workload["prompt_tokens"] = c.prompt_tokens
    if c.output_tokens is not None:
        workload["output_tokens"] = c.output_tokens
    slo = {"ttft_ms": c.slo_ttft_ms, "tpot_ms": c.slo_tpot_ms, "e2e_ms": c.slo_e2e_ms,
           "percentile": c.slo_percentile, "max_error_rate": c.max_error_rate}
    return BenchConfig.model_validate({"endpoint": endpoint, "workload": workload, "schedule": sched, "slo": slo,
                                       "label": c.label})


def run_levels(schedule: ScheduleConfig) -> list[int]:
    """The concurrency of each step the runner runs (a ramp may stop before its last): one stream for a single
    request, doubling from 1 to ``max_concurrency`` for a ramp on its default levels, the in-flight cap of an
    open loop, the soak's one level, else the levels given."""
    if schedule.kind == "single":
        return [1]
    if schedule.kind == "ramp" and schedule.concurrency == [1]:
        levels, c = [], 1
        while c <= schedule.max_concurrency:
            levels.append(c)
            c *= 2
        return levels
    if schedule.kind == "rate":
        return [schedule.max_concurrency]
    if schedule.kind == "soak":
        return [schedule.concurrency[0]]
    return list(schedule.concurrency)


def ramp_step_requests(schedule: ScheduleConfig, concurrency: int) -> tuple[int, int]:
    """A ramp step's (least, most) requests: it may end as stable once it has the least (and has run its minimum
    duration), and ends at the most. A step of concurrency c needs at least c requests, or c is never reached."""
    c = concurrency
    most = max(schedule.requests, c) if schedule.requests else max(schedule.min_requests_per_step, 8 * c)
    return min(most, max(schedule.min_requests_per_step, 2 * c)), most


def step_requests(schedule: ScheduleConfig, concurrency: int) -> int | None:
    """The requests of a fixed or single-request step (None: it runs for ``duration_s`` instead)."""
    if schedule.requests:
        return max(schedule.requests, concurrency)
    if schedule.duration_s:
        return None
    return 3 if schedule.kind == "single" else max(10, 4 * concurrency)
