"""Measured tensor-parallel all-reduce times (resources/gpus/allreduce.json), interpolated by message size.

vLLM's custom all-reduce on an 8-GPU NVLink node takes ~5 µs for small messages, and for the 1-8 MB a decode batch
of a few hundred tokens sends, about twice what a latency + bandwidth formula says (NVIDIA's aiconfigurator timings,
copied by bench/allreduce_rates.py). GPUs of a measured class use the table; the rest keep the formula.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from functools import cache
from math import exp, log
from typing import NamedTuple

from advisor.domain.gpu import GpuSpec
from advisor.resources import resource_path


class AllReduceTimes(NamedTuple):
    """One GPU class and TP degree's measured times, sizes ascending, with their logarithms ready: the simulator
    prices an all-reduce every engine step."""

    sizes: tuple[float, ...]  # message bytes
    seconds: tuple[float, ...]
    log_sizes: tuple[float, ...]
    log_seconds: tuple[float, ...]


@cache
def _table() -> dict[str, dict[str, AllReduceTimes]]:
    raw = json.loads(resource_path("gpus", "allreduce.json").read_text(encoding="utf-8"))["measured"]
    out: dict[str, dict[str, AllReduceTimes]] = {}
    for link, by_tp in raw.items():
        for tp, pts in by_tp.items():
            sizes, seconds = tuple(float(m) for m, _ in pts), tuple(us * 1e-6 for _, us in pts)
            out.setdefault(link, {})[tp] = AllReduceTimes(sizes, seconds, tuple(map(log, sizes)), tuple(map(log, seconds)))
    return out


def link_class(gpu: GpuSpec) -> str | None:
    """The measured class a GPU's NVLink node belongs to, or None (PCIe, slower NVLink, other vendors)."""
    if gpu.interconnect != "nvlink":
        return None
    link = gpu.interconnect_bytes_per_s or 0.0
    if gpu.architecture == "Hopper" and link >= 800e9:
        return "hopper_nvlink"
    if gpu.architecture == "Ampere" and link >= 500e9:
        return "ampere_nvlink"
    return None


def measured_points(gpu: GpuSpec, gpus: int) -> AllReduceTimes | None:
    """The times measured for this GPU class at this TP degree; None if none."""
    cls = link_class(gpu)
    return _table().get(cls, {}).get(str(gpus)) if cls else None


def allreduce_seconds(times: AllReduceTimes, message_bytes: float) -> float:
    """One all-reduce of ``message_bytes``: log-log between measured sizes, the smallest size's time below them,
    proportional to size beyond the largest."""
    sizes = times.sizes
    if message_bytes <= sizes[0]:
        return times.seconds[0]
    if message_bytes >= sizes[-1]:
        return times.seconds[-1] * message_bytes / sizes[-1]
    i = bisect_left(sizes, message_bytes)
    ls0, ls1, lt0, lt1 = times.log_sizes[i - 1], times.log_sizes[i], times.log_seconds[i - 1], times.log_seconds[i]
    return exp(lt0 + (lt1 - lt0) * (log(message_bytes) - ls0) / (ls1 - ls0))
