"""The one NVML wrapper (the nvitop way): lazy, locked init; every unsupported field is an explicit N/A.

All NVML calls go through the module attribute ``pynvml`` (looked up at call time), so tests swap in a
fake at exactly that boundary (``monkeypatch.setattr(nvml, "pynvml", fake)``) and the same code runs
unchanged on a real GPU. The fake raises the real ``pynvml.NVMLError_*`` classes.

What the numbers mean (and why some popular readings mislead):

- memory: read with the v2 API (``nvmlMemory_v2``). The v1 call counts driver/firmware-reserved memory as
  "used"; v2 reports it apart as ``memory_reserved_bytes``. vLLM and SGLang pre-allocate ~90 % of memory
  for their KV cache at start, so "used" says nothing about load — read the server's KV cache usage.
- ``gpu_util_pct``: the share of the sample period in which at least one kernel was running. One tiny
  kernel on one SM counts as 100 %; it is not how busy the SMs are.
- process PIDs are in the host's PID namespace; inside a container they do not match our PIDs.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.domain.telemetry import GpuProcess, GpuSample, NaReason, TelemetryState
from advisor.telemetry.clock import now_s

try:  # The swappable boundary: every NVML call below is ``pynvml.<name>``.
    import pynvml
except ImportError:  # nvidia-ml-py not installed: a clear state, not a crash
    pynvml = None

_log = logging.getLogger(__name__)

# NVML keeps its own init reference count; this lock makes our init/shutdown pairs atomic across threads.
_INIT_LOCK = threading.Lock()
# Readers still open at interpreter exit are shut down then (weak: an unused reader can be collected).
_OPEN_READERS: weakref.WeakSet[NvmlReader] = weakref.WeakSet()


@atexit.register
def _shutdown_at_exit() -> None:
    for reader in list(_OPEN_READERS):
        reader.close()

# Clock-event (formerly "throttle") reason bits → our names. Values are NVML's, stable across versions.
CLOCK_EVENT_REASONS: dict[int, str] = {
    0x1: "gpu_idle",
    0x2: "applications_clocks_setting",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal_slowdown",
    0x40: "hw_thermal_slowdown",
    0x80: "hw_power_brake_slowdown",
    0x100: "display_clock_setting",
    0x200: "board_limit",
    0x400: "reliability",
}
# Reasons that mean "the GPU is being held back" (as opposed to idle or configured clocks).
SLOWDOWN_REASONS = frozenset(
    {
        "sw_power_cap",
        "hw_slowdown",
        "sw_thermal_slowdown",
        "hw_thermal_slowdown",
        "hw_power_brake_slowdown",
        "board_limit",
        "reliability",
    }
)

STATE_MESSAGE_KEYS: dict[str, str] = {
    "ok": "telemetry.state.ok",
    "no_driver": "telemetry.state.no_driver",
    "no_gpu": "telemetry.state.no_gpu",
    "permission_denied": "telemetry.state.permission_denied",
    "driver_error": "telemetry.state.driver_error",
    "no_bindings": "telemetry.state.no_bindings",
    "gpu_lost": "telemetry.state.gpu_lost",
}

# Why a field is N/A, in words (the UI shows these as tooltips, the CLI under its table).
NA_MESSAGE_KEYS: dict[str, str] = {
    "not_supported": "telemetry.na.not_supported",
    "no_permission": "telemetry.na.no_permission",
    "function_not_found": "telemetry.na.function_not_found",
    "not_available": "telemetry.na.not_available",
    "error": "telemetry.na.error",
    "not_requested": "telemetry.na.not_requested",
}


class GpuLostError(Exception):
    """Internal: a device stopped answering (NVML_ERROR_GPU_IS_LOST)."""


@dataclass
class ProbeResult:
    state: TelemetryState
    detail: str = ""  # NVML's own error text, for logs and --json; the user message comes from i18n
    device_count: int = 0
    driver_version: str | None = None


@dataclass
class _Device:
    index: str
    handle: Any
    uuid: str | None = None
    name: str | None = None
    is_mig: bool = False
    mig_parent_uuid: str | None = None
    lost: bool = False
    static: dict[str, Any] = field(default_factory=dict)
    static_na: dict[str, NaReason] = field(default_factory=dict)


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _error_class(name: str) -> type[BaseException]:
    cls = getattr(pynvml, name, None)
    return cls if isinstance(cls, type) else _NeverRaised


class _NeverRaised(Exception):
    pass


class NvmlReader:
    """Reads every visible GPU (and MIG instance). Thread-safe; ``open`` is implied by the first ``read``.

    ``include_processes``: per-process GPU memory (cheap). ``include_pcie_throughput``: NVML measures PCIe
    throughput over ~20 ms per direction per device, so it is off unless asked for.
    """

    def __init__(self, *, include_processes: bool = True, include_pcie_throughput: bool = False) -> None:
        self.include_processes = include_processes
        self.include_pcie_throughput = include_pcie_throughput
        self._lock = threading.RLock()
        self._opened = False
        self._probe: ProbeResult | None = None
        self._devices: list[_Device] = []
        self.events: list[tuple[float, str, str]] = []  # (t_s, kind, device index) e.g. "gpu_lost"

    # -- lifecycle ------------------------------------------------------------------------------

    def open(self) -> ProbeResult:
        """Initialise NVML once and discover devices; never raises for a missing driver or GPU."""
        with self._lock:
            if self._probe is not None:
                return self._probe
            self._probe = self._open_locked()
            return self._probe

    def _open_locked(self) -> ProbeResult:
        if pynvml is None:
            return ProbeResult("no_bindings", "the nvidia-ml-py package is not installed")
        try:
            with _INIT_LOCK:
                pynvml.nvmlInit()
            self._opened = True
            _OPEN_READERS.add(self)
        except _error_class("NVMLError_LibraryNotFound") as exc:
            return ProbeResult("no_driver", str(exc))
        except _error_class("NVMLError_DriverNotLoaded") as exc:
            return ProbeResult("no_driver", str(exc))
        except _error_class("NVMLError_NoPermission") as exc:
            return ProbeResult("permission_denied", str(exc))
        except _error_class("NVMLError") as exc:
            return ProbeResult("driver_error", str(exc))
        except OSError as exc:  # a broken libnvidia-ml install
            return ProbeResult("no_driver", str(exc))
        driver = None
        try:
            driver = _text(pynvml.nvmlSystemGetDriverVersion())
        except _error_class("NVMLError"):
            pass
        try:
            count = int(pynvml.nvmlDeviceGetCount())
        except _error_class("NVMLError_NoPermission") as exc:
            return ProbeResult("permission_denied", str(exc), driver_version=driver)
        except _error_class("NVMLError") as exc:
            return ProbeResult("driver_error", str(exc), driver_version=driver)
        if count == 0:
            return ProbeResult("no_gpu", "NVML reports 0 devices", 0, driver)
        denied = 0
        for i in range(count):
            try:
                handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            except _error_class("NVMLError_NoPermission"):
                denied += 1
                continue
            except _error_class("NVMLError") as exc:
                # A GPU that is already lost at start: record it and go on with the others.
                self.events.append((now_s(), "gpu_lost", str(i)))
                _log.warning("GPU %d unavailable at start: %s", i, exc)
                continue
            self._add_device(str(i), handle)
        if not self._devices:
            state: TelemetryState = "permission_denied" if denied else "gpu_lost"
            return ProbeResult(state, "no device could be opened", count, driver)
        return ProbeResult("ok", "", count, driver)

    def _add_device(self, index: str, handle: Any) -> None:
        dev = _Device(index=index, handle=handle)
        na: dict[str, NaReason] = {}
        try:
            dev.uuid = _opt_text(self._call(na, "uuid", "nvmlDeviceGetUUID", handle))
            dev.name = _opt_text(self._call(na, "name", "nvmlDeviceGetName", handle))
            dev.static["pcie_link_gen"] = self._call(na, "pcie_link_gen", "nvmlDeviceGetCurrPcieLinkGeneration", handle)
            dev.static["pcie_link_width"] = self._call(na, "pcie_link_width", "nvmlDeviceGetCurrPcieLinkWidth", handle)
            dev.static["nvlink_active_links"] = self._nvlink_active_links(na, handle)
            mig_mode = self._call({}, "mig", "nvmlDeviceGetMigMode", handle)
        except GpuLostError:
            self.events.append((now_s(), "gpu_lost", index))
            return
        dev.static_na = na
        self._devices.append(dev)
        if mig_mode and int(mig_mode[0]) == int(getattr(pynvml, "NVML_DEVICE_MIG_ENABLE", 1)):
            self._add_mig_instances(dev)

    def _add_mig_instances(self, parent: _Device) -> None:
        try:
            slots = int(self._call({}, "mig", "nvmlDeviceGetMaxMigDeviceCount", parent.handle) or 0)
        except GpuLostError:
            return
        for slot in range(slots):
            try:
                handle = pynvml.nvmlDeviceGetMigDeviceHandleByIndex(parent.handle, slot)
            except _error_class("NVMLError"):
                continue  # empty slot (NVML_ERROR_NOT_FOUND)
            mig = _Device(index=f"{parent.index}:{slot}", handle=handle, is_mig=True, mig_parent_uuid=parent.uuid)
            na: dict[str, NaReason] = {}
            try:
                mig.uuid = _opt_text(self._call(na, "uuid", "nvmlDeviceGetUUID", handle))
                name = _opt_text(self._call(na, "name", "nvmlDeviceGetName", handle))
            except GpuLostError:
                continue
            # Name MIG instances as such even where the driver returns only the parent's model name.
            if name and "MIG" not in name:
                name = f"{name} MIG"
            mig.name = name or f"MIG {parent.index}:{slot}"
            mig.static_na = na
            self._devices.append(mig)

    def _nvlink_active_links(self, na: dict[str, NaReason], handle: Any) -> int | None:
        state_fn = getattr(pynvml, "nvmlDeviceGetNvLinkState", None)
        if state_fn is None:
            na["nvlink_active_links"] = "function_not_found"
            return None
        active = 0
        for link in range(int(getattr(pynvml, "NVML_NVLINK_MAX_LINKS", 18))):
            try:
                if int(state_fn(handle, link)) == int(getattr(pynvml, "NVML_FEATURE_ENABLED", 1)):
                    active += 1
            except _error_class("NVMLError_GpuIsLost") as exc:
                raise GpuLostError(str(exc)) from exc
            except _error_class("NVMLError"):
                if link == 0:  # no NVLink on this board (PCIe card): N/A, not "0 links"
                    na["nvlink_active_links"] = "not_supported"
                    return None
                break  # past the last link this GPU has
        return active

    def close(self) -> None:
        with self._lock:
            if self._opened and pynvml is not None:
                try:
                    with _INIT_LOCK:
                        pynvml.nvmlShutdown()
                except _error_class("NVMLError") as exc:
                    _log.debug("nvmlShutdown: %s", exc)
            self._opened = False
            self._probe = None
            self._devices = []
            _OPEN_READERS.discard(self)

    def __enter__(self) -> NvmlReader:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading --------------------------------------------------------------------------------

    @property
    def state(self) -> TelemetryState:
        probe = self.open()
        if probe.state == "ok" and self._devices and all(d.lost for d in self._devices):
            return "gpu_lost"
        return probe.state

    def device_count(self) -> int:
        with self._lock:
            return sum(1 for d in self._devices if not d.lost)

    def read(self) -> list[GpuSample]:
        """One sample per device; lost devices give one 'lost' sample (the event) and are then skipped."""
        with self._lock:
            if self.open().state != "ok":
                return []
            out: list[GpuSample] = []
            for dev in self._devices:
                if dev.lost:
                    continue
                try:
                    out.append(self._read_device(dev))
                except GpuLostError:
                    dev.lost = True
                    t = now_s()
                    self.events.append((t, "gpu_lost", dev.index))
                    _log.warning("GPU %s (%s) was lost; sampling the others", dev.index, dev.uuid)
                    out.append(
                        GpuSample(t_s=t, index=dev.index, uuid=dev.uuid, name=dev.name, status="lost", is_mig=dev.is_mig)
                    )
                    # A MIG instance cannot outlive its GPU.
                    for child in self._devices:
                        if child.mig_parent_uuid and child.mig_parent_uuid == dev.uuid:
                            child.lost = True
            return out

    def _read_device(self, dev: _Device) -> GpuSample:
        h = dev.handle
        na: dict[str, NaReason] = dict(dev.static_na)
        t = now_s()
        values: dict[str, Any] = {}

        util = self._call(na, "gpu_util_pct", "nvmlDeviceGetUtilizationRates", h)
        if util is not None:
            values["gpu_util_pct"] = float(util.gpu)
            values["memory_util_pct"] = float(util.memory)
        else:
            na["memory_util_pct"] = na["gpu_util_pct"]

        values.update(self._memory(na, h))

        power_mw = self._call(na, "power_w", "nvmlDeviceGetPowerUsage", h)
        values["power_w"] = None if power_mw is None else power_mw / 1000.0
        limit_mw = self._call(na, "power_limit_w", "nvmlDeviceGetEnforcedPowerLimit", h)
        values["power_limit_w"] = None if limit_mw is None else limit_mw / 1000.0
        energy = self._call(na, "energy_mj", "nvmlDeviceGetTotalEnergyConsumption", h)
        values["energy_mj"] = None if energy is None else float(energy)
        temp = self._call(na, "temperature_c", "nvmlDeviceGetTemperature", h, getattr(pynvml, "NVML_TEMPERATURE_GPU", 0))
        values["temperature_c"] = None if temp is None else float(temp)
        sm = self._call(na, "sm_clock_mhz", "nvmlDeviceGetClockInfo", h, getattr(pynvml, "NVML_CLOCK_SM", 1))
        values["sm_clock_mhz"] = None if sm is None else float(sm)
        mem = self._call(na, "mem_clock_mhz", "nvmlDeviceGetClockInfo", h, getattr(pynvml, "NVML_CLOCK_MEM", 2))
        values["mem_clock_mhz"] = None if mem is None else float(mem)
        values["clock_event_reasons"] = self._clock_reasons(na, h)

        if self.include_pcie_throughput:
            tx = self._call(na, "pcie_tx_kib_s", "nvmlDeviceGetPcieThroughput", h, getattr(pynvml, "NVML_PCIE_UTIL_TX_BYTES", 0))
            rx = self._call(na, "pcie_rx_kib_s", "nvmlDeviceGetPcieThroughput", h, getattr(pynvml, "NVML_PCIE_UTIL_RX_BYTES", 1))
            values["pcie_tx_kib_s"] = None if tx is None else float(tx)
            values["pcie_rx_kib_s"] = None if rx is None else float(rx)
        else:
            na["pcie_tx_kib_s"] = na["pcie_rx_kib_s"] = "not_requested"

        if self.include_processes:
            values["processes"] = self._processes(na, h)
        else:
            na["processes"] = "not_requested"

        for key in ("pcie_link_gen", "pcie_link_width", "nvlink_active_links"):
            if dev.static.get(key) is not None:
                values[key] = int(dev.static[key])

        return GpuSample.lenient(
            t_s=t,
            source="nvml",
            index=dev.index,
            uuid=dev.uuid,
            name=dev.name,
            is_mig=dev.is_mig,
            mig_parent_uuid=dev.mig_parent_uuid,
            na=na,
            **{k: v for k, v in values.items() if v is not None},
        )

    def _memory(self, na: dict[str, NaReason], h: Any) -> dict[str, Any]:
        version = getattr(pynvml, "nvmlMemory_v2", None)
        if version is not None:
            try:
                info = pynvml.nvmlDeviceGetMemoryInfo(h, version=version)
                return {
                    "memory_used_bytes": int(info.used),
                    "memory_free_bytes": int(info.free),
                    "memory_total_bytes": int(info.total),
                    "memory_reserved_bytes": int(info.reserved),
                    "memory_api": "v2",
                }
            except _error_class("NVMLError_GpuIsLost") as exc:
                raise GpuLostError(str(exc)) from exc
            except (
                _error_class("NVMLError_NotSupported"),
                _error_class("NVMLError_FunctionNotFound"),
                _error_class("NVMLError_ArgumentVersionMismatch"),
            ):
                pass  # an old driver: fall back to v1 below
        info = self._call(na, "memory_used_bytes", "nvmlDeviceGetMemoryInfo", h)
        if info is None:
            for key in ("memory_free_bytes", "memory_total_bytes", "memory_reserved_bytes"):
                na[key] = na["memory_used_bytes"]
            return {}
        na["memory_reserved_bytes"] = "not_available"  # v1 folds it into "used"
        return {
            "memory_used_bytes": int(info.used),
            "memory_free_bytes": int(info.free),
            "memory_total_bytes": int(info.total),
            "memory_api": "v1",
        }

    def _clock_reasons(self, na: dict[str, NaReason], h: Any) -> list[str] | None:
        name = "nvmlDeviceGetCurrentClocksEventReasons"
        if getattr(pynvml, name, None) is None:
            name = "nvmlDeviceGetCurrentClocksThrottleReasons"  # the name before driver 535
        mask = self._call(na, "clock_event_reasons", name, h)
        if mask is None:
            return None
        mask = int(mask)
        return [label for bit, label in CLOCK_EVENT_REASONS.items() if mask & bit]

    def _processes(self, na: dict[str, NaReason], h: Any) -> list[GpuProcess] | None:
        procs = self._call(na, "processes", "nvmlDeviceGetComputeRunningProcesses", h)
        if procs is None and na.get("processes") == "function_not_found":
            del na["processes"]  # an older driver: its versioned call still works
            procs = self._call(na, "processes", "nvmlDeviceGetComputeRunningProcesses_v2", h)
        if procs is None:
            return None
        out = []
        for p in procs:
            used = getattr(p, "usedGpuMemory", None)
            pid = int(p.pid)
            out.append(
                GpuProcess(
                    pid=pid,
                    used_memory_bytes=None if used is None else int(used),
                    pid_visible=os.path.exists(f"/proc/{pid}") if os.path.isdir("/proc") else True,
                )
            )
        return out

    def _call(self, na: dict[str, NaReason], field_name: str, fn_name: str, *args: Any) -> Any:
        """Call one NVML function; a field the GPU cannot report becomes N/A with its reason."""
        fn: Callable[..., Any] | None = getattr(pynvml, fn_name, None)
        if fn is None:
            na[field_name] = "function_not_found"
            return None
        try:
            return fn(*args)
        except _error_class("NVMLError_GpuIsLost") as exc:
            raise GpuLostError(str(exc)) from exc
        except _error_class("NVMLError_NotSupported"):
            na[field_name] = "not_supported"
        except _error_class("NVMLError_FunctionNotFound"):
            na[field_name] = "function_not_found"
        except _error_class("NVMLError_NoPermission"):
            na[field_name] = "no_permission"
        except _error_class("NVMLError_NoData"):
            na[field_name] = "not_available"
        except _error_class("NVMLLibraryMismatchError"):
            # nvidia-ml-py newer than the driver: the unversioned call maps to a function it lacks.
            na[field_name] = "function_not_found"
        except _error_class("NVMLError") as exc:
            _log.debug("%s failed: %s", fn_name, exc)
            na[field_name] = "error"
        except Exception as exc:  # a binding bug (ctypes, struct layout) is still one N/A, not a crash
            _log.warning("%s raised %s: %s", fn_name, type(exc).__name__, exc)
            na[field_name] = "error"
        return None


def _opt_text(value: Any) -> str | None:
    return None if value is None else _text(value)


def probe() -> ProbeResult:
    """The NVML state of this machine, opening and closing NVML once."""
    reader = NvmlReader(include_processes=False)
    try:
        return reader.open()
    finally:
        reader.close()
