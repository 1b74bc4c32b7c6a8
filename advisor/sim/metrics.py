"""/metrics of the simulated server: vLLM's metric names read live from the engine, and DCGM-exporter
names for the simulated GPUs, labelled simulated="true"."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from advisor.sim.responses import OWNED_BY

if TYPE_CHECKING:
    from advisor.sim.server import SimApp

MiB = 1024**2
GiB = 1024**3


def slip_summary(values: deque[float]) -> dict[str, float]:
    if not values:
        return {"chunks": 0, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    vals = sorted(values)
    n = len(vals)
    return {"chunks": n, "p50_ms": vals[n // 2] * 1000, "p99_ms": vals[min(n - 1, int(n * 0.99))] * 1000,
            "max_ms": vals[-1] * 1000}


def buckets_125(max_value: int) -> list[float]:
    out: list[float] = []
    exp = 0
    while True:
        for m in (1, 2, 5):
            v = m * 10**exp
            if v > max_value:
                return out
            out.append(float(v))
        exp += 1


class LiveCollector:
    """Gauges and counters read from the engine at scrape time (vLLM names; DCGM names labelled simulated)."""

    def __init__(self, sim: SimApp) -> None:
        self.sim = sim

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        sim = self.sim
        eng = sim.rt.engine
        cfg = sim.config
        lv = [cfg.model_name, "0"]
        labels = ["model_name", "engine"]

        def gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
            g = GaugeMetricFamily(name, doc, labels=labels)
            g.add_metric(lv, value)
            return g

        def counter(name: str, doc: str, value: float) -> CounterMetricFamily:
            c = CounterMetricFamily(name, doc, labels=labels)
            c.add_metric(lv, value)
            return c

        usage = eng.blocks_used / eng.limits.kv_blocks
        yield gauge("vllm:num_requests_running", "Number of requests in model execution batches.", len(eng.running))
        yield gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.", len(eng.waiting) + len(eng._arrivals))
        yield gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", usage)
        yield gauge("vllm:gpu_cache_usage_perc", "GPU KV-cache usage. 1 means 100 percent usage.", usage)
        yield counter("vllm:num_preemptions", "Cumulative number of preemption from the engine.", eng.preemptions)
        yield counter("vllm:prompt_tokens", "Number of prefill tokens processed.", eng.prompt_tokens_computed)
        yield counter("vllm:generation_tokens", "Number of generation tokens processed.", eng.generation_tokens)
        success = CounterMetricFamily(
            "vllm:request_success", "Count of successfully processed requests.", labels=[*labels, "finished_reason"]
        )
        for reason, n in sim.finished_by_reason.items():
            success.add_metric([*lv, reason], n)
        yield success
        info = GaugeMetricFamily(
            "vllm:cache_config_info", "Information of the LLMEngine CacheConfig",
            labels=["block_size", "num_gpu_blocks", "gpu_memory_utilization", "engine", "simulated"],
        )  # fmt: skip
        info.add_metric(
            [str(eng.limits.block_size), str(eng.limits.kv_blocks), f"{cfg.gpu.gpu_memory_utilization:g}", "0", "true"], 1
        )
        yield info
        yield from self._dcgm()

    def _dcgm(self) -> Iterator[Any]:
        """DCGM-exporter names and labels; ``simulated="true"`` and Hostname say where they come from."""
        sim = self.sim
        gpu = sim.config.gpu
        util = sim.rt.utilisation()
        labels = ["gpu", "UUID", "device", "modelName", "Hostname", "simulated"]
        rows = [
            [str(i), f"GPU-00000000-0000-4000-8000-sim{i:09d}", f"nvidia{i}", gpu.name, OWNED_BY, "true"]
            for i in range(gpu.count)
        ]
        # vLLM reserves gpu_memory_utilization of the memory at start-up, whatever the load.
        used = gpu.memory_bytes * gpu.gpu_memory_utilization + 0.5 * GiB
        used = min(used, gpu.memory_bytes)
        idle_w = 0.12 * gpu.tdp_watts
        busy_w = 0.85 * gpu.tdp_watts
        power = idle_w + (busy_w - idle_w) * util
        uptime = time.monotonic() - sim.started_mono
        busy_s = sim.rt.busy_total_s
        energy_mj = (idle_w * uptime + (busy_w - idle_w) * busy_s) * 1000.0
        _, dec, _ = sim.rt.last_step_parts
        mem_util = util * (0.8 if dec else 0.3)

        def family(name: str, doc: str, value: float, kind: type = GaugeMetricFamily) -> Any:
            fam = kind(name, doc, labels=labels)
            for row in rows:
                fam.add_metric(row, value)
            return fam

        yield family("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", round(util * 100))
        yield family("DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", round(mem_util * 100))
        yield family("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", round(used / MiB))
        yield family("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", round((gpu.memory_bytes - used) / MiB))
        yield family("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", round(power, 1))
        yield family(
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "Total energy consumption since boot (in mJ).", round(energy_mj),
            CounterMetricFamily,
        )  # fmt: skip
        yield family("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", round(34 + 40 * util))
        yield family("DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", 1980 if util > 0 else 345)
        yield family("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active.", round(util, 4))
