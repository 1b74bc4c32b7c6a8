"""A fake of the ``pynvml`` module (nvidia-ml-py) at its module-function boundary.

It exposes the same module-level functions our wrapper calls and raises the REAL ``pynvml.NVMLError_*``
classes, so ``advisor.telemetry.nvml`` runs unchanged against it. Configure it with ``configure(...)``:

    fake_pynvml.configure(devices=[FakeDevice(name="NVIDIA H200", unsupported={"power"})])
    monkeypatch.setattr(advisor.telemetry.nvml, "pynvml", fake_pynvml)

``FakeDevice.unsupported`` names groups of fields the device cannot report (raises NotSupported);
``lose_after_reads`` makes the device raise GpuIsLost after that many utilisation reads (one per sample).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import pynvml as _real

# Re-export the real error classes and constants: the wrapper must catch exactly what real NVML raises.
for _name in dir(_real):
    if _name.startswith(("NVMLError", "NVML_", "nvmlClocks", "nvmlMemory_v", "NVMLLibraryMismatchError")):
        globals()[_name] = getattr(_real, _name)
NVMLError = _real.NVMLError

MiB = 1024**2
GiB = 1024**3


@dataclass
class FakeDevice:
    name: str = "NVIDIA H200"
    uuid: str = "GPU-00000000-0000-0000-0000-000000000000"
    memory_total: int = 141 * GiB
    memory_used: int = 120 * GiB
    memory_reserved: int = 600 * MiB
    gpu_util: int = 87
    mem_util: int = 41
    power_mw: int = 512_000
    power_limit_mw: int = 700_000
    energy_mj: int = 9_000_000
    temperature_c: int = 58
    sm_clock_mhz: int = 1980
    mem_clock_mhz: int = 2619
    clock_reasons: int = 0x4  # sw_power_cap
    pcie_gen: int = 5
    pcie_width: int = 16
    pcie_tx_kib_s: int = 1200
    pcie_rx_kib_s: int = 3400
    nvlink_links: int = 18  # 0 → a PCIe board: link 0 raises NotSupported
    processes: list[tuple[int, int | None]] = field(default_factory=lambda: [(4242, 118 * GiB)])
    # groups: "utilization", "memory_v2", "memory", "power", "power_limit", "energy", "temperature",
    # "clocks", "clock_reasons", "pcie", "nvlink", "processes", "mig"
    unsupported: set[str] = field(default_factory=set)
    no_permission: set[str] = field(default_factory=set)
    lose_after_reads: int | None = None
    mig_instances: list[FakeDevice] = field(default_factory=list)
    # runtime
    reads: int = 0
    lost: bool = False


class _State:
    def __init__(self) -> None:
        self.devices: list[FakeDevice] = []
        self.init_error: type[BaseException] | None = None
        self.count_error: type[BaseException] | None = None
        self.init_calls = 0
        self.shutdown_calls = 0
        self.initialised = 0
        self.driver_version = "575.57.08"


_state = _State()


def configure(
    devices: list[FakeDevice] | None = None,
    *,
    init_error: type[BaseException] | None = None,
    count_error: type[BaseException] | None = None,
) -> _State:
    """Reset the fake and give it these devices / this failure at nvmlInit or nvmlDeviceGetCount."""
    global _state
    _state = _State()
    _state.devices = list(devices or [])
    _state.init_error = init_error
    _state.count_error = count_error
    return _state


def state() -> _State:
    return _state


class _Handle:
    def __init__(self, device: FakeDevice, parent: FakeDevice | None = None) -> None:
        self.device = device
        self.parent = parent


def _check(handle: _Handle, group: str) -> FakeDevice:
    dev = handle.device
    if handle.parent is not None and handle.parent.lost:
        raise _real.NVMLError_GpuIsLost()
    if dev.lost:
        raise _real.NVMLError_GpuIsLost()
    if group in dev.no_permission:
        raise _real.NVMLError_NoPermission()
    if group in dev.unsupported:
        raise _real.NVMLError_NotSupported()
    return dev


def _require_init() -> None:
    if _state.initialised <= 0:
        raise _real.NVMLError_Uninitialized()


# -- library ------------------------------------------------------------------------------------


def nvmlInit() -> None:
    _state.init_calls += 1
    if _state.init_error is not None:
        raise _state.init_error()
    _state.initialised += 1


def nvmlShutdown() -> None:
    _require_init()
    _state.shutdown_calls += 1
    _state.initialised -= 1


def nvmlSystemGetDriverVersion() -> str:
    _require_init()
    return _state.driver_version


def nvmlDeviceGetCount() -> int:
    _require_init()
    if _state.count_error is not None:
        raise _state.count_error()
    return len(_state.devices)


def nvmlDeviceGetHandleByIndex(index: int) -> _Handle:
    _require_init()
    if not 0 <= index < len(_state.devices):
        raise _real.NVMLError_InvalidArgument()
    dev = _state.devices[index]
    if dev.lost:
        raise _real.NVMLError_GpuIsLost()
    return _Handle(dev)


# -- identity -----------------------------------------------------------------------------------


def nvmlDeviceGetName(handle: _Handle) -> str:
    return _check(handle, "name").name


def nvmlDeviceGetUUID(handle: _Handle) -> str:
    return _check(handle, "uuid").uuid


# -- readings -----------------------------------------------------------------------------------


def nvmlDeviceGetUtilizationRates(handle: _Handle) -> SimpleNamespace:
    dev = handle.device
    dev.reads += 1
    if dev.lose_after_reads is not None and dev.reads > dev.lose_after_reads:
        dev.lost = True
    dev = _check(handle, "utilization")
    return SimpleNamespace(gpu=dev.gpu_util, memory=dev.mem_util)


def nvmlDeviceGetMemoryInfo(handle: _Handle, version: int | None = None) -> SimpleNamespace:
    if version:
        dev = _check(handle, "memory_v2")
        return SimpleNamespace(
            version=version,
            total=dev.memory_total,
            reserved=dev.memory_reserved,
            free=dev.memory_total - dev.memory_used - dev.memory_reserved,
            used=dev.memory_used,
        )
    dev = _check(handle, "memory")
    # The v1 struct counts reserved memory as used (the reason we prefer v2).
    return SimpleNamespace(
        total=dev.memory_total,
        free=dev.memory_total - dev.memory_used - dev.memory_reserved,
        used=dev.memory_used + dev.memory_reserved,
    )


def nvmlDeviceGetPowerUsage(handle: _Handle) -> int:
    return _check(handle, "power").power_mw


def nvmlDeviceGetEnforcedPowerLimit(handle: _Handle) -> int:
    return _check(handle, "power_limit").power_limit_mw


def nvmlDeviceGetTotalEnergyConsumption(handle: _Handle) -> int:
    return _check(handle, "energy").energy_mj


def nvmlDeviceGetTemperature(handle: _Handle, sensor: int) -> int:
    return _check(handle, "temperature").temperature_c


def nvmlDeviceGetClockInfo(handle: _Handle, clock_type: int) -> int:
    dev = _check(handle, "clocks")
    return dev.sm_clock_mhz if clock_type == _real.NVML_CLOCK_SM else dev.mem_clock_mhz


def nvmlDeviceGetCurrentClocksEventReasons(handle: _Handle) -> int:
    return _check(handle, "clock_reasons").clock_reasons


def nvmlDeviceGetCurrPcieLinkGeneration(handle: _Handle) -> int:
    return _check(handle, "pcie").pcie_gen


def nvmlDeviceGetCurrPcieLinkWidth(handle: _Handle) -> int:
    return _check(handle, "pcie").pcie_width


def nvmlDeviceGetPcieThroughput(handle: _Handle, counter: int) -> int:
    dev = _check(handle, "pcie")
    return dev.pcie_tx_kib_s if counter == _real.NVML_PCIE_UTIL_TX_BYTES else dev.pcie_rx_kib_s


def nvmlDeviceGetNvLinkState(handle: _Handle, link: int) -> int:
    dev = _check(handle, "nvlink")
    if dev.nvlink_links == 0:
        raise _real.NVMLError_NotSupported()
    if link >= dev.nvlink_links:
        raise _real.NVMLError_InvalidArgument()
    return _real.NVML_FEATURE_ENABLED


def nvmlDeviceGetComputeRunningProcesses(handle: _Handle) -> list[SimpleNamespace]:
    dev = _check(handle, "processes")
    if "processes_v3" in dev.unsupported:  # what nvidia-ml-py raises when the driver predates the _v3 call
        raise _real.NVMLLibraryMismatchError("Unversioned function called and the pyNVML version does not match")
    return [SimpleNamespace(pid=pid, usedGpuMemory=used) for pid, used in dev.processes]


def nvmlDeviceGetComputeRunningProcesses_v2(handle: _Handle) -> list[SimpleNamespace]:
    dev = _check(handle, "processes")
    return [SimpleNamespace(pid=pid, usedGpuMemory=used) for pid, used in dev.processes]


# -- MIG ----------------------------------------------------------------------------------------


def nvmlDeviceGetMigMode(handle: _Handle) -> list[int]:
    dev = _check(handle, "mig")
    mode = _real.NVML_DEVICE_MIG_ENABLE if dev.mig_instances else 0
    return [mode, mode]


def nvmlDeviceGetMaxMigDeviceCount(handle: _Handle) -> int:
    return 7 if _check(handle, "mig").mig_instances else 0


def nvmlDeviceGetMigDeviceHandleByIndex(handle: _Handle, index: int) -> _Handle:
    dev = _check(handle, "mig")
    if index >= len(dev.mig_instances):
        raise _real.NVMLError_NotFound()
    return _Handle(dev.mig_instances[index], parent=dev)
