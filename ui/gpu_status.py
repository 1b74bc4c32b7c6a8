"""The status bar's one-line GPU state, queried off the GUI thread.

Uses the telemetry core (``advisor.telemetry.nvml.probe``) when present; otherwise a minimal NVML probe.
Every failure becomes a state, never an exception: a laptop without an NVIDIA driver is the normal case.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from advisor import i18n
from advisor.i18n import tr


@dataclass(frozen=True)
class GpuState:
    state: str  # ok, no_driver, no_gpu, … (the telemetry core's TelemetryState)
    count: int = 0
    driver: str = ""
    detail: str = ""  # tooltip: NVML's own words

    def text(self) -> str:
        if self.state == "ok" and self.count:
            if self.driver:
                return tr("ui.gpu.ok_driver", count=self.count, driver=self.driver)
            return tr("ui.gpu.ok", count=self.count)
        if self.state in ("no_driver", "no_gpu", "no_bindings"):
            return tr("ui.gpu.none")
        return tr("ui.gpu.error")

    def tooltip(self) -> str:
        key = f"telemetry.state.{self.state}"
        sentence = tr(key) if key in i18n.catalog(i18n.current_language()) else self.state
        return f"{sentence}\n{self.detail}".strip()


def _from_telemetry() -> GpuState | None:
    try:
        nvml = importlib.import_module("advisor.telemetry.nvml")
    except ImportError:
        return None
    probe = getattr(nvml, "probe", None)
    if probe is None:
        return None
    result = probe()
    return GpuState(
        state=str(result.state),
        count=int(getattr(result, "device_count", 0) or 0),
        driver=str(getattr(result, "driver_version", "") or ""),
        detail=str(getattr(result, "detail", "") or ""),
    )


def _from_nvml() -> GpuState:
    try:
        import pynvml
    except ImportError:
        return GpuState("no_bindings")
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # NVMLError_LibraryNotFound, DriverNotLoaded, …
        return GpuState("no_driver", detail=str(exc))
    try:
        count = pynvml.nvmlDeviceGetCount()
        driver = pynvml.nvmlSystemGetDriverVersion()
        driver = driver.decode() if isinstance(driver, bytes) else str(driver)
        return GpuState("ok" if count else "no_gpu", count=count, driver=driver)
    except Exception as exc:
        return GpuState("driver_error", detail=str(exc))
    finally:
        try:
            pynvml.nvmlShutdown()
        except Exception:
            pass


def query_gpu_state(token: Any = None) -> GpuState:
    """Runs in a worker thread."""
    try:
        state = _from_telemetry()
    except Exception as exc:  # a bug in telemetry must not cost us the status bar
        state = GpuState("driver_error", detail=str(exc))
    return state or _from_nvml()
