"""The NVML wrapper against a fake ``pynvml`` that raises the real NVMLError classes."""

import os
import threading
from pathlib import Path

import pynvml
import pytest

from advisor.telemetry import nvml
from tests.fakes import fake_pynvml
from tests.fakes.fake_pynvml import FakeDevice, GiB, MiB


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(nvml, "pynvml", fake_pynvml)
    fake_pynvml.configure([])
    return fake_pynvml


def test_full_gpu_reading_has_units_and_v2_memory(fake):
    fake.configure([FakeDevice(memory_total=141 * GiB, memory_used=120 * GiB, memory_reserved=600 * MiB)])
    with nvml.NvmlReader() as reader:
        assert reader.state == "ok"
        (s,) = reader.read()
    assert s.name == "NVIDIA H200" and s.index == "0" and s.uuid.startswith("GPU-")
    assert s.memory_used_bytes == 120 * GiB  # v2: reserved is not counted as used…
    assert s.memory_reserved_bytes == 600 * MiB  # …it is reported apart
    assert s.memory_used_bytes + s.memory_free_bytes + s.memory_reserved_bytes == s.memory_total_bytes
    assert s.memory_api == "v2"
    assert s.power_w == pytest.approx(512.0) and s.power_limit_w == pytest.approx(700.0)  # mW → W
    assert s.energy_mj == 9_000_000
    assert s.gpu_util_pct == 87 and s.memory_util_pct == 41
    assert s.temperature_c == 58 and s.sm_clock_mhz == 1980 and s.mem_clock_mhz == 2619
    assert s.clock_event_reasons == ["sw_power_cap"]
    assert s.pcie_link_gen == 5 and s.pcie_link_width == 16 and s.nvlink_active_links == 18
    assert s.processes[0].pid == 4242 and s.processes[0].used_memory_bytes == 118 * GiB
    assert s.na == {"pcie_tx_kib_s": "not_requested", "pcie_rx_kib_s": "not_requested"}


def test_every_unsupported_field_is_an_explicit_na_not_an_exception(fake):
    groups = {"utilization", "power", "power_limit", "energy", "temperature", "clocks", "clock_reasons",
              "pcie", "nvlink", "processes", "memory_v2", "memory", "mig"}
    fake.configure([FakeDevice(unsupported=groups)])
    with nvml.NvmlReader(include_pcie_throughput=True) as reader:
        (s,) = reader.read()
    for name in ("gpu_util_pct", "memory_util_pct", "power_w", "power_limit_w", "energy_mj", "temperature_c",
                 "sm_clock_mhz", "mem_clock_mhz", "clock_event_reasons", "pcie_link_gen", "pcie_tx_kib_s",
                 "nvlink_active_links", "processes", "memory_used_bytes", "memory_total_bytes",
                 "memory_reserved_bytes"):
        assert getattr(s, name) is None, name
        assert s.na[name] == "not_supported", name
    assert s.name == "NVIDIA H200"  # what the GPU does support is still read


def test_permission_denied_on_one_field(fake):
    fake.configure([FakeDevice(no_permission={"processes"})])
    with nvml.NvmlReader() as reader:
        (s,) = reader.read()
    assert s.processes is None and s.na["processes"] == "no_permission"
    assert s.gpu_util_pct == 87


def test_old_driver_without_v2_memory_falls_back_and_says_so(fake):
    fake.configure([FakeDevice(unsupported={"memory_v2"}, memory_used=10 * GiB, memory_reserved=500 * MiB)])
    with nvml.NvmlReader() as reader:
        (s,) = reader.read()
    assert s.memory_api == "v1"
    assert s.memory_used_bytes == 10 * GiB + 500 * MiB  # v1 counts reserved as used
    assert s.memory_reserved_bytes is None and s.na["memory_reserved_bytes"] == "not_available"


def test_driver_older_than_the_bindings_falls_back_to_the_versioned_call(fake):
    fake.configure([FakeDevice(unsupported={"processes_v3"})])
    with nvml.NvmlReader() as reader:
        (s,) = reader.read()
    assert s.processes is not None and s.processes[0].pid == 4242 and "processes" not in s.na


def test_pcie_throughput_only_when_asked(fake):
    fake.configure([FakeDevice()])
    with nvml.NvmlReader(include_pcie_throughput=True) as reader:
        (s,) = reader.read()
    assert (s.pcie_tx_kib_s, s.pcie_rx_kib_s) == (1200, 3400)


@pytest.mark.parametrize(
    ("error", "state"),
    [
        (pynvml.NVMLError_LibraryNotFound, "no_driver"),
        (pynvml.NVMLError_DriverNotLoaded, "no_driver"),
        (pynvml.NVMLError_NoPermission, "permission_denied"),
        (pynvml.NVMLError_LibRmVersionMismatch, "driver_error"),
    ],
)
def test_init_failures_are_states(fake, error, state):
    fake.configure([FakeDevice()], init_error=error)
    reader = nvml.NvmlReader()
    assert reader.open().state == state
    assert reader.read() == []
    reader.close()
    assert fake.state().shutdown_calls == 0  # nothing to shut down after a failed init


def test_driver_without_gpu(fake):
    fake.configure([])
    with nvml.NvmlReader() as reader:
        assert reader.state == "no_gpu"
        assert reader.read() == []
    assert fake.state().initialised == 0


def test_permission_denied_listing_devices(fake):
    fake.configure([FakeDevice()], count_error=pynvml.NVMLError_NoPermission)
    with nvml.NvmlReader() as reader:
        assert reader.state == "permission_denied"


def test_missing_bindings(monkeypatch):
    monkeypatch.setattr(nvml, "pynvml", None)
    assert nvml.probe().state == "no_bindings"


@pytest.mark.skipif(Path("/dev/nvidiactl").exists(), reason="this machine has an NVIDIA driver")
def test_real_library_on_a_machine_without_driver():
    assert nvml.pynvml is pynvml  # the real module, not the fake
    assert nvml.probe().state == "no_driver"


def test_gpu_lost_mid_run_is_recorded_and_the_others_keep_sampling(fake):
    fake.configure([FakeDevice(uuid="GPU-a", lose_after_reads=2), FakeDevice(uuid="GPU-b")])
    reader = nvml.NvmlReader()
    rounds = [reader.read() for _ in range(4)]
    assert [len(r) for r in rounds] == [2, 2, 2, 1]
    lost = [s for s in rounds[2] if s.index == "0"]
    assert lost[0].status == "lost" and lost[0].gpu_util_pct is None
    assert all(s.index == "1" and s.status == "ok" for s in rounds[3])
    assert [(kind, index) for _, kind, index in reader.events] == [("gpu_lost", "0")]
    assert reader.state == "ok"
    fake.state().devices[1].lost = True
    reader.read()
    assert reader.state == "gpu_lost"
    reader.close()


def test_mig_instances_are_named_as_such(fake):
    child = FakeDevice(name="NVIDIA A100-SXM4-40GB", uuid="MIG-1", unsupported={"utilization", "power"},
                       memory_total=5 * GiB, memory_used=1 * GiB)
    fake.configure([FakeDevice(name="NVIDIA A100-SXM4-40GB", uuid="GPU-p", mig_instances=[child])])
    with nvml.NvmlReader() as reader:
        samples = reader.read()
    mig = [s for s in samples if s.is_mig]
    assert len(mig) == 1
    assert mig[0].index == "0:0" and "MIG" in mig[0].name and mig[0].mig_parent_uuid == "GPU-p"
    assert mig[0].gpu_util_pct is None and mig[0].na["gpu_util_pct"] == "not_supported"
    assert mig[0].memory_total_bytes == 5 * GiB


def test_process_pids_outside_our_namespace_are_flagged(fake):
    fake.configure([FakeDevice(processes=[(os.getpid(), 1 * GiB), (2**22 + 12345, None)])])
    with nvml.NvmlReader() as reader:
        (s,) = reader.read()
    ours, foreign = s.processes
    assert ours.pid_visible is True
    assert foreign.pid_visible is False and foreign.used_memory_bytes is None


def test_init_is_lazy_once_and_thread_safe(fake):
    fake.configure([FakeDevice(), FakeDevice(uuid="GPU-2")])
    reader = nvml.NvmlReader()
    assert fake.state().init_calls == 0  # lazy: nothing until the first read
    results = []
    threads = [threading.Thread(target=lambda: results.append(len(reader.read()))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert results == [2] * 8
    assert fake.state().init_calls == 1
    reader.close()
    assert fake.state().shutdown_calls == 1 and fake.state().initialised == 0
