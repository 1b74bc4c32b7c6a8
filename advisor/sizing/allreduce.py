"""Measured tensor-parallel all-reduce times (resources/gpus/allreduce.json), interpolated by message size.

vLLM's custom all-reduce on an 8-GPU NVLink node takes ~5 µs for small messages, and for the 1-8 MB a decode batch
of a few hundred tokens sends, about twice what a latency + bandwidth formula says (NVIDIA's aiconfigurator timings,
copied by bench/allreduce_rates.py). GPUs of a measured class use the table; the rest keep the formula.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from functools import cache
from math import log

from advisor.domain.gpu import GpuSpec
from advisor.resources import resource_path


@cache
def _table() -> dict[str, dict[str, tuple[tuple[float, float], ...]]]:
    raw = json.loads(resource_path("gpus", "allreduce.json").read_text(encoding="utf-8"))["measured"]
    return {link: {tp: tuple((m, us * 1e-6) for m, us in pts) for tp, pts in by_tp.items()} for link, by_tp in raw.items()}


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


def measured_points(gpu: GpuSpec, gpus: int) -> tuple[tuple[float, float], ...] | None:
    """(message bytes, seconds) measured for this GPU class at this TP degree, smallest first; None if none."""
    cls = link_class(gpu)
    return _table().get(cls, {}).get(str(gpus)) if cls else None


def allreduce_seconds(points: tuple[tuple[float, float], ...], message_bytes: float) -> float:
    """One all-reduce of ``message_bytes``: log-log between measured sizes, the smallest size's time below them,
    proportional to size beyond the largest."""
    sizes = [m for m, _ in points]
    if message_bytes <= sizes[0]:
        return points[0][1]
    if message_bytes >= sizes[-1]:
        return points[-1][1] * message_bytes / sizes[-1]
    i = bisect_left(sizes, message_bytes)
    (m0, t0), (m1, t1) = points[i - 1], points[i]
    w = log(message_bytes / m0) / log(m1 / m0)
    return t0 * (t1 / t0) ** w
