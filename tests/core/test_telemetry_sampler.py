"""Background samplers: period, one clock with the benchmark, ring buffers, run binding, overhead, stop."""

import time

import pytest

from advisor.telemetry import clock, nvml
from advisor.telemetry.clock import WALL_ANCHOR, from_wall_s, now_s, to_wall_s
from advisor.telemetry.sampler import GpuSampler, ServerSampler, check_period
from advisor.telemetry.sink import MemorySink, SampleSink
from tests.fakes import fake_pynvml
from tests.fakes.fake_pynvml import FakeDevice
from tests.fakes.metrics_server import MetricsServer, fixture_text


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(nvml, "pynvml", fake_pynvml)
    fake_pynvml.configure([FakeDevice(uuid="GPU-a"), FakeDevice(uuid="GPU-b")])
    return fake_pynvml


def wait_for(condition, timeout_s=3.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_clock_is_monotonic_with_a_wall_anchor():
    a, b = now_s(), now_s()
    assert b >= a
    # Later times follow the monotonic clock, not NTP's slewing of the wall clock (tens of ms over a run); a step
    # of the wall clock re-takes the anchor (next test), so the mapping reads as the wall clock does now.
    assert abs(to_wall_s(now_s()) - time.time()) < 1.0
    assert from_wall_s(to_wall_s(123.0)) == pytest.approx(123.0)
    assert WALL_ANCHOR.wall_s > 1.6e9


def test_a_stepped_wall_clock_re_takes_the_anchor_and_an_explicit_anchor_stays(monkeypatch):
    # A laptop resumed from suspend (the monotonic clock stopped) or an NTP step: wall times written after it must
    # read as the machine's clock does, not an hour stale; a run's own stored anchor still maps as it did.
    stepped = time.time() + 3600.0
    before = clock.current_anchor()
    monkeypatch.setattr(clock.time, "time", lambda: stepped)
    assert abs(to_wall_s(now_s()) - stepped) < 0.1
    assert clock.current_anchor() != before
    assert to_wall_s(before.monotonic_s, before) == before.wall_s
    # Within the tolerance (NTP slewing), the anchor is kept: one mapping for a whole run.
    kept = clock.current_anchor()
    monkeypatch.setattr(clock.time, "time", lambda: stepped + 0.2)
    assert clock.current_anchor() == kept


def test_gpu_samples_share_the_benchmark_clock(fake):
    started = now_s()
    sampler = GpuSampler(period_s=0.05)
    with sampler:
        assert wait_for(lambda: sampler.stats().ticks >= 2)
        request_sent = now_s()  # what the benchmark engine records for a request
        assert wait_for(lambda: any(s.t_s > request_sent for s in sampler.history()))
    ended = now_s()
    times = [s.t_s for s in sampler.history()]
    assert all(started <= t <= ended for t in times) and times == sorted(times)
    # The request lies between two samples on one time axis.
    assert min(times) < request_sent < max(times)
    assert {s.uuid for s in sampler.latest()} == {"GPU-a", "GPU-b"}
    assert not sampler.running
    assert fake.state().initialised == 0  # stop() released NVML


def test_ring_buffer_is_bounded(fake):
    sampler = GpuSampler(period_s=0.05, maxlen=6)
    with sampler:
        assert wait_for(lambda: sampler.stats().ticks >= 6)
    assert len(sampler.history()) == 6  # 2 GPUs × the last 3 ticks


def test_samples_go_to_the_sink_only_while_a_run_is_bound(fake):
    sink = MemorySink()
    assert isinstance(sink, SampleSink)
    sampler = GpuSampler(period_s=0.05, sink=sink, flush_every_s=0.1)
    sampler.start()
    try:
        assert wait_for(lambda: sampler.stats().ticks >= 2)
        assert sink.gpu == {}  # live display only
        sampler.bind_run("run-1")
        bound_at = now_s()
        assert wait_for(lambda: len(sink.gpu.get("run-1", [])) >= 4)
        sampler.bind_run("run-2")
        switched_at = now_s()
        assert wait_for(lambda: len(sink.gpu.get("run-2", [])) >= 2)
    finally:
        sampler.stop()
    # A reading is taken, then kept for the run bound when it is kept: the one reading under way at a bind goes to
    # the new run, however long it took (a fixed 60 ms slack was a bet on how fast a loaded machine reads), never an older one.
    read_at = sorted({s.t_s for s in sampler.history()})

    def only_the_reading_under_way(samples, bound):
        before = {s.t_s for s in samples if s.t_s < bound}
        return before <= {max((t for t in read_at if t < bound), default=None)}

    assert all(s.t_s <= switched_at for s in sink.gpu["run-1"])  # read after the switch: never the old run's
    assert only_the_reading_under_way(sink.gpu["run-1"], bound_at)
    assert only_the_reading_under_way(sink.gpu["run-2"], switched_at)
    total = len(sink.gpu["run-1"]) + len(sink.gpu["run-2"])
    assert total <= len(sampler.history())  # stop() flushed, nothing duplicated


def test_a_lost_gpu_does_not_stop_sampling(fake):
    fake.configure([FakeDevice(uuid="GPU-a", lose_after_reads=2), FakeDevice(uuid="GPU-b")])
    sampler = GpuSampler(period_s=0.05)
    with sampler:
        assert wait_for(lambda: sum(1 for s in sampler.history() if s.uuid == "GPU-b") >= 5)
    history = sampler.history()
    assert [s.status for s in history if s.uuid == "GPU-a"] == ["ok", "ok", "lost"]
    assert ("gpu_lost", "0") in [(k, i) for _, k, i in sampler.reader.events]


def test_overhead_is_measured(fake):
    sampler = GpuSampler(period_s=0.05)
    with sampler:
        assert wait_for(lambda: sampler.stats().ticks >= 4)
    stats = sampler.stats()
    assert stats.ticks >= 4 and stats.wall_s > 0
    assert 0 < stats.mean_tick_ms <= stats.max_tick_ms
    assert 0 <= stats.busy_share < 1


def test_server_sampler_scrapes_on_a_period():
    with MetricsServer({"/metrics": (200, fixture_text("simulated_vllm_dcgm.txt"))}) as server:
        sink = MemorySink()
        sampler = ServerSampler([server.url()], period_s=0.1, sink=sink, flush_every_s=0.1)
        sampler.bind_run("r")
        with sampler:
            assert wait_for(lambda: len(sampler.history()) >= 3)
            samples = sampler.history()  # the periodic readings (stop() adds the run's final one)
        assert len(sampler.history()) >= len(samples) + 1
    assert all(s.ok and s.kind == "vllm" and s.simulated for s in samples)
    gaps = [b.t_s - a.t_s for a, b in zip(samples, samples[1:], strict=False)]
    assert all(0.05 <= g <= 0.5 for g in gaps)
    assert sink.server["r"] and sink.gpu["r"]  # exporter GPU readings are stored as GPU samples
    assert all(g.simulated for g in sampler.gpu_history())


def test_a_run_shorter_than_the_period_is_sampled_when_bound_and_when_stopped(fake):
    """The flaky-history root cause: a run shorter than the period used to get no reading at all whenever the
    sampler's one reading came before the run was bound. Now binding reads at once and stop() reads last."""
    sink = MemorySink()
    sampler = GpuSampler(period_s=30.0, sink=sink, flush_every_s=60.0)
    sampler.start()
    try:
        assert wait_for(lambda: sampler.stats().ticks >= 1)  # the reading before any run: display only
        before_bind = now_s()
        sampler.bind_run("short")
        assert wait_for(lambda: sampler.stats().ticks >= 2)  # the run's first reading: now, not in 30 s
        before_stop = now_s()
    finally:
        sampler.stop()
    stored = sink.gpu["short"]
    assert len(stored) == 4  # two readings of two GPUs
    for uuid in ("GPU-a", "GPU-b"):
        start, end = sorted(s.t_s for s in stored if s.uuid == uuid)
        assert before_bind <= start < before_stop <= end  # one at the start, one when the run ended
    assert len(sampler.history()) == 6  # the unbound first reading stayed on screen only


def test_a_short_run_keeps_each_scrape_with_its_exporter_gpu_readings():
    with MetricsServer({"/metrics": (200, fixture_text("simulated_vllm_dcgm.txt"))}) as server:
        sink = MemorySink()
        sampler = ServerSampler([server.url()], period_s=30.0, sink=sink, flush_every_s=60.0)
        sampler.start()
        try:
            assert wait_for(lambda: sampler.stats().ticks >= 1)
            sampler.bind_run("r")
            assert wait_for(lambda: sampler.stats().ticks >= 2)
        finally:
            sampler.stop()
    servers, gpus = sink.server["r"], sink.gpu["r"]
    assert len(servers) == 2 and all(s.ok for s in servers)  # the start reading and the final one
    # every stored scrape came with its GPU figures (the DCGM part of the same text), none without
    assert {g.t_s for g in gpus} == {s.t_s for s in servers}
    assert len(gpus) == 2 * len({g.index for g in gpus})


def test_the_final_reading_is_bounded_by_a_short_timeout():
    from advisor.telemetry.sampler import FINAL_READING_TIMEOUT_S

    with MetricsServer({"/metrics": (200, fixture_text("simulated_vllm_dcgm.txt"))}, delay_s=2.5) as server:
        sink = MemorySink()
        sampler = ServerSampler([server.url()], period_s=10.0, sink=sink)  # periodic scrapes wait up to 2 s
        sampler.bind_run("slow")
        sampler.start()
        assert wait_for(lambda: sampler.stats().ticks >= 1, timeout_s=6.0)
        sampler.stop()
    first, final = sink.server["slow"][0], sink.server["slow"][-1]
    assert len(sink.server["slow"]) == 2 and not first.ok and not final.ok
    assert "2.0 s" in first.error
    assert f"{FINAL_READING_TIMEOUT_S} s" in final.error  # the end of a run waits at most this long


@pytest.mark.parametrize("period", [0.0, 0.01, -1, 3600])
def test_period_is_checked(period):
    with pytest.raises(ValueError, match="sampling period"):
        check_period(period)
