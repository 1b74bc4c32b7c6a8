"""Run-summary figures from telemetry samples: pure functions, no I/O.

- per device: peak and mean memory used, mean "utilisation", peak and mean power;
- the server's KV cache usage (peak, mean) — the load figure that GPU memory cannot give, because
  vLLM/SGLang pre-allocate their KV cache at start;
- energy per output token of each benchmark step (``StepWindow``): from the GPU energy counter when
  every GPU has one, else by integrating power over time; GPUs are summed (tensor parallel);
- which clock-event (throttle) reasons were active, as a share of samples;
- ``notes``: i18n keys that explain what the numbers mean, chosen by what the samples show.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from advisor.domain.telemetry import (
    DeviceMemorySummary,
    GpuSample,
    ServerSample,
    StepEnergy,
    StepWindow,
    TelemetrySummary,
)
from advisor.telemetry.nvml import SLOWDOWN_REASONS

Point = tuple[float, float]
PREALLOCATION_SHARE = 0.8  # memory "used" above this share of total at any time looks like pre-allocation


def _device_key(s: GpuSample) -> tuple[str, str]:
    return (s.host or "", s.index)


def _by_device(samples: Iterable[GpuSample]) -> dict[tuple[str, str], list[GpuSample]]:
    out: dict[tuple[str, str], list[GpuSample]] = defaultdict(list)
    for s in samples:
        if s.status == "ok":
            out[_device_key(s)].append(s)
    for series in out.values():
        series.sort(key=lambda s: s.t_s)
    return out


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def device_summaries(samples: Iterable[GpuSample]) -> list[DeviceMemorySummary]:
    out = []
    for (_host, index), series in sorted(_by_device(samples).items()):
        used = [float(s.memory_used_bytes) for s in series if s.memory_used_bytes is not None]
        util = [s.gpu_util_pct for s in series if s.gpu_util_pct is not None]
        power = [s.power_w for s in series if s.power_w is not None]
        totals = [s.memory_total_bytes for s in series if s.memory_total_bytes is not None]
        out.append(
            DeviceMemorySummary(
                index=index,
                name=series[-1].name,
                host=series[-1].host,
                total_bytes=max(totals) if totals else None,
                peak_used_bytes=int(max(used)) if used else None,
                mean_used_bytes=_mean(used),
                mean_gpu_util_pct=_mean(util),
                peak_power_w=max(power) if power else None,
                mean_power_w=_mean(power),
            )
        )
    return out


def kv_cache_stats(samples: Iterable[ServerSample]) -> tuple[float | None, float | None]:
    values = [s.gauges["kv_cache_usage"] for s in samples if s.ok and "kv_cache_usage" in s.gauges]
    if not values:
        return None, None
    return max(values), sum(values) / len(values)


def counter_increase(samples: Iterable[ServerSample], counter: str) -> float | None:
    """How much a server counter grew over the samples (per URL, restarts handled, summed over URLs)."""
    per_url: dict[str, list[Point]] = defaultdict(list)
    for s in samples:
        if s.ok and counter in s.counters:
            per_url[s.url].append((s.t_s, s.counters[counter]))
    if not per_url:
        return None
    total = 0.0
    for points in per_url.values():
        points.sort()
        for (_, a), (_, b) in zip(points, points[1:], strict=False):
            total += b - a if b >= a else b  # a drop means a restart: the counter began again from 0
    return total


def throttling_seen(samples: Iterable[GpuSample]) -> dict[str, float]:
    """Clock-event reason → share of samples (0–1) in which it was active; only reasons seen at all."""
    counted = 0
    hits: dict[str, int] = defaultdict(int)
    for s in samples:
        if s.status != "ok" or s.clock_event_reasons is None:
            continue
        counted += 1
        for reason in s.clock_event_reasons:
            hits[reason] += 1
    return {reason: n / counted for reason, n in sorted(hits.items())} if counted else {}


# -- energy -------------------------------------------------------------------------------------


def _value_at(points: Sequence[Point], t: float) -> float:
    """Linear interpolation inside the points (callers keep t within their time range)."""
    if t <= points[0][0]:
        return points[0][1]
    for (t0, v0), (t1, v1) in zip(points, points[1:], strict=False):
        if t0 <= t <= t1:
            return v0 if t1 == t0 else v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    return points[-1][1]


def _covered(points: Sequence[Point], start: float, end: float) -> tuple[float, float] | None:
    lo, hi = max(start, points[0][0]), min(end, points[-1][0])
    return (lo, hi) if hi > lo else None


def _counter_energy_j(points: Sequence[Point], start: float, end: float) -> float | None:
    """Energy from a millijoule counter, scaled up when the samples cover only part of the window."""
    if len(points) < 2:
        return None
    cov = _covered(points, start, end)
    if cov is None:
        return None
    delta_mj = _value_at(points, cov[1]) - _value_at(points, cov[0])
    if delta_mj < 0:  # counter reset (driver reload): use power instead
        return None
    return delta_mj / 1000.0 * (end - start) / (cov[1] - cov[0])


def _power_energy_j(points: Sequence[Point], start: float, end: float) -> float | None:
    """Trapezoid integral of power (W) over the window, on the piecewise-linear power curve."""
    if len(points) < 2:
        return None
    cov = _covered(points, start, end)
    if cov is None:
        return None
    lo, hi = cov
    inner = [(t, p) for t, p in points if lo < t < hi]
    curve = [(lo, _value_at(points, lo)), *inner, (hi, _value_at(points, hi))]
    joules = sum((t1 - t0) * (p0 + p1) / 2.0 for (t0, p0), (t1, p1) in zip(curve, curve[1:], strict=False))
    return joules * (end - start) / (hi - lo)


def energy_per_output_token(samples: Iterable[GpuSample], windows: Sequence[StepWindow]) -> list[StepEnergy]:
    """Joules per output token of each step, all (non-MIG) GPUs summed.

    MIG instances are skipped: their power and energy are the parent GPU's, which is counted once.
    """
    devices = {k: v for k, v in _by_device(samples).items() if not v[0].is_mig}
    energy_series = {k: [(s.t_s, s.energy_mj) for s in v if s.energy_mj is not None] for k, v in devices.items()}
    power_series = {k: [(s.t_s, s.power_w) for s in v if s.power_w is not None] for k, v in devices.items()}
    out = []
    for w in windows:
        total: float | None = None
        method = "none"
        if devices:
            counter = [_counter_energy_j(energy_series[k], w.start_s, w.end_s) for k in devices]
            if all(e is not None for e in counter):
                total, method = sum(counter), "energy_counter"  # type: ignore[arg-type]
            else:
                power = [_power_energy_j(power_series[k], w.start_s, w.end_s) for k in devices]
                if all(e is not None for e in power):
                    total, method = sum(power), "power_integral"  # type: ignore[arg-type]
        per_token = total / w.output_tokens if total is not None and w.output_tokens > 0 else None
        out.append(
            StepEnergy(
                label=w.label,
                energy_j=total,
                joules_per_output_token=per_token,
                method=method,
                devices=len(devices) if total is not None else 0,
            )
        )
    return out


# -- notes and the summary ----------------------------------------------------------------------


def notes_for(gpu: Sequence[GpuSample], server: Sequence[ServerSample], throttling: dict[str, float]) -> list[str]:
    notes: list[str] = []
    ok = [s for s in gpu if s.status == "ok"]
    if any(s.gpu_util_pct is not None for s in ok):
        notes.append("telemetry.note.utilization_meaning")
    kinds = {k for s in server for k in s.kinds}
    high = any((s.memory_used_fraction() or 0.0) >= PREALLOCATION_SHARE for s in ok)
    if high or kinds & {"vllm", "sglang"}:
        notes.append("telemetry.note.preallocation")
    if any(s.ok and "kv_cache_usage" in s.gauges for s in server):
        notes.append("telemetry.note.kv_cache")
    if any((s.memory_reserved_bytes or 0) > 0 for s in ok):
        notes.append("telemetry.note.reserved_memory")
    if any(s.memory_api == "v1" for s in ok):
        notes.append("telemetry.note.memory_v1")
    if any(p.pid_visible is False for s in ok for p in (s.processes or [])):
        notes.append("telemetry.note.container_pids")
    if any(share > 0 for reason, share in throttling.items() if reason in SLOWDOWN_REASONS):
        notes.append("telemetry.note.throttling")
    if any(s.status == "lost" for s in gpu):
        notes.append("telemetry.note.gpu_lost")
    if any(s.simulated for s in gpu) or any(s.simulated for s in server):
        notes.append("telemetry.note.simulated")
    return notes


def summarize(
    gpu: Sequence[GpuSample], server: Sequence[ServerSample], windows: Sequence[StepWindow] = ()
) -> TelemetrySummary:
    throttling = throttling_seen(gpu)
    peak, mean = kv_cache_stats(server)
    lost = sorted({s.index for s in gpu if s.status == "lost"})
    return TelemetrySummary(
        devices=device_summaries(gpu),
        kv_cache_peak=peak,
        kv_cache_mean=mean,
        preemptions=counter_increase(server, "preemptions"),
        throttling=throttling,
        steps=energy_per_output_token(gpu, windows),
        gpu_lost=lost,
        notes=notes_for(gpu, server, throttling),
        simulated=any(s.simulated for s in gpu) or any(s.simulated for s in server),
    )
