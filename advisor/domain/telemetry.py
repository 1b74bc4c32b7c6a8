"""Telemetry readings: one GPU at one instant (``GpuSample``) and one server ``/metrics`` scrape (``ServerSample``).

Times ``t_s`` are on the project clock (``advisor.telemetry.clock.now_s``), the same clock the benchmark
stamps requests with. A field a GPU or exporter cannot report is ``None`` and its reason is listed in
``na`` (field name → reason code such as ``not_supported``); a missing number is never a made-up zero.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

MiB = 1024**2

TelemetryState = Literal[
    "ok",  # NVML answered and at least one GPU is visible
    "no_driver",  # libnvidia-ml not found or the kernel driver is not loaded
    "no_gpu",  # the driver runs but reports zero GPUs (e.g. a container started without --gpus)
    "permission_denied",  # NVML refused us (device nodes not readable)
    "driver_error",  # any other NVML failure at start (version mismatch, …)
    "no_bindings",  # the nvidia-ml-py package itself is missing
    "gpu_lost",  # every GPU we were sampling fell off the bus
]

GpuSource = Literal["nvml", "dcgm", "nvitop", "simulated"]
ServerKind = Literal["vllm", "sglang", "tgi", "llamacpp", "dcgm", "nvitop", "unknown"]

NaReason = Literal["not_supported", "no_permission", "function_not_found", "not_available", "error", "not_requested"]


class GpuProcess(BaseModel):
    """A process holding GPU memory. ``pid`` is in the driver's (host) PID namespace."""

    model_config = ConfigDict(extra="forbid")

    pid: int = Field(ge=0)
    used_memory_bytes: int | None = Field(None, ge=0, description="None where the driver cannot say (MIG, WDDM)")
    pid_visible: bool = Field(
        True, description="False when this PID does not exist here: we run in a container and see other PIDs"
    )


class GpuSample(BaseModel):
    """One device (a physical GPU or a MIG instance) at one instant."""

    model_config = ConfigDict(extra="forbid")

    t_s: float = Field(description="project clock (monotonic seconds) when the reading was taken")
    source: GpuSource = "nvml"
    simulated: bool = Field(False, description="True for readings from the simulated server; always shown labelled")
    host: str | None = Field(None, description="host name from a remote exporter; None for this machine")
    index: str = Field(description="'0', '1', … for GPUs; '0:1' for MIG instance 1 of GPU 0")
    uuid: str | None = None
    name: str | None = None
    status: Literal["ok", "lost"] = Field("ok", description="'lost': the GPU fell off the bus; fields are N/A")
    is_mig: bool = False
    mig_parent_uuid: str | None = None

    gpu_util_pct: float | None = Field(
        None, ge=0, le=100, description="share of the sample period in which ANY kernel ran (not how busy the SMs are)"
    )
    memory_util_pct: float | None = Field(
        None, ge=0, le=100, description="share of the sample period the memory controller was reading or writing"
    )
    memory_used_bytes: int | None = Field(None, ge=0, description="allocated by processes (reserved not included)")
    memory_free_bytes: int | None = Field(None, ge=0)
    memory_total_bytes: int | None = Field(None, ge=0)
    memory_reserved_bytes: int | None = Field(None, ge=0, description="held back by the driver/firmware; shown apart")
    memory_api: Literal["v2", "v1", "exporter"] | None = Field(
        None, description="v1 (old drivers) counts driver-reserved memory as used"
    )
    power_w: float | None = Field(None, ge=0)
    power_limit_w: float | None = Field(None, ge=0)
    energy_mj: float | None = Field(None, ge=0, description="energy counter since driver load, millijoules")
    temperature_c: float | None = None
    sm_clock_mhz: float | None = Field(None, ge=0)
    mem_clock_mhz: float | None = Field(None, ge=0)
    clock_event_reasons: list[str] | None = Field(
        None, description="why clocks are held down now (power_cap, hw_thermal_slowdown, gpu_idle, …)"
    )
    pcie_link_gen: int | None = None
    pcie_link_width: int | None = None
    pcie_tx_kib_s: float | None = None
    pcie_rx_kib_s: float | None = None
    nvlink_active_links: int | None = None
    processes: list[GpuProcess] | None = None
    na: dict[str, NaReason] = Field(default_factory=dict, description="field → why it is N/A")

    @classmethod
    def lenient(cls, **values: Any) -> GpuSample:
        """Build a sample, turning each reading that fails validation (a glitch such as 101 %) into an N/A.

        Identity fields (``t_s``, ``index``) must be valid; a bad reading must not cost the others.
        """
        na = dict(values.pop("na", {}) or {})
        for _ in range(len(values) + 1):
            try:
                return cls(na=na, **values)
            except ValidationError as exc:
                bad = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
                bad -= {"t_s", "index", "na"}
                if not bad:
                    raise
                for name in bad:
                    values.pop(name, None)
                    na[name] = "error"
        raise ValueError("unreachable")  # pragma: no cover

    def memory_used_fraction(self) -> float | None:
        if self.memory_used_bytes is None or not self.memory_total_bytes:
            return None
        return self.memory_used_bytes / self.memory_total_bytes


class ServerSample(BaseModel):
    """One scrape of a server's or exporter's ``/metrics``.

    ``gauges`` use our canonical names (``kv_cache_usage`` as a 0–1 fraction, ``requests_running``,
    ``requests_waiting``, ``batch_size`` …); ``counters`` are the raw cumulative values and ``rates`` their
    per-second rates between this scrape and the previous one (``generation_tokens_per_s`` …).
    """

    model_config = ConfigDict(extra="forbid")

    t_s: float
    url: str
    ok: bool
    error: str | None = None
    kind: ServerKind = "unknown"
    kinds: list[ServerKind] = Field(default_factory=list, description="all kinds found on this endpoint")
    simulated: bool = False
    scrape_ms: float | None = Field(None, ge=0)
    gauges: dict[str, float] = Field(default_factory=dict)
    counters: dict[str, float] = Field(default_factory=dict)
    rates: dict[str, float] = Field(default_factory=dict)

    @property
    def kv_cache_usage(self) -> float | None:
        return self.gauges.get("kv_cache_usage")


class StepWindow(BaseModel):
    """A benchmark step's time window (project clock) and the output tokens it produced."""

    model_config = ConfigDict(extra="forbid")

    label: str = Field(description="e.g. the step's concurrency, '8'")
    start_s: float
    end_s: float
    output_tokens: int = Field(ge=0)


class StepEnergy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str
    energy_j: float | None
    joules_per_output_token: float | None
    method: Literal["energy_counter", "power_integral", "none"]
    devices: int = Field(ge=0, description="GPUs whose energy is summed")


class DeviceMemorySummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: str
    name: str | None
    host: str | None = None
    total_bytes: int | None
    peak_used_bytes: int | None
    mean_used_bytes: float | None
    mean_gpu_util_pct: float | None
    peak_power_w: float | None
    mean_power_w: float | None


class TelemetrySummary(BaseModel):
    """Figures for a run summary; ``notes`` are i18n keys explaining what the numbers mean."""

    model_config = ConfigDict(extra="forbid")

    devices: list[DeviceMemorySummary] = Field(default_factory=list)
    kv_cache_peak: float | None = None
    kv_cache_mean: float | None = None
    preemptions: float | None = Field(None, description="preemptions counted by the server during the run")
    throttling: dict[str, float] = Field(
        default_factory=dict, description="clock-event reason → share of samples (0–1) where it was active"
    )
    steps: list[StepEnergy] = Field(default_factory=list)
    gpu_lost: list[str] = Field(default_factory=list, description="indices of GPUs lost during the run")
    notes: list[str] = Field(default_factory=list)
    simulated: bool = False
