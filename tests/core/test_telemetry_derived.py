"""Run-summary figures: energy per output token, memory, KV cache, throttling, notes."""

import pytest

from advisor.domain.telemetry import GpuProcess, GpuSample, ServerSample, StepWindow
from advisor.telemetry.derived import (
    counter_increase,
    device_summaries,
    energy_per_output_token,
    kv_cache_stats,
    notes_for,
    summarize,
    throttling_seen,
)


def series(index, watts, t0=0.0, t1=10.0, step=0.5, energy=True, **kw):
    """A GPU drawing constant power; its energy counter (mJ) rises accordingly."""
    out = []
    n = int(round((t1 - t0) / step))
    for i in range(n + 1):
        t = t0 + i * step
        out.append(
            GpuSample(t_s=t, index=index, power_w=watts, energy_mj=(1e6 + watts * t * 1000.0) if energy else None, **kw)
        )
    return out


def server(t, kv=None, preemptions=None, url="http://127.0.0.1:1/metrics", kind="vllm", **kw):
    gauges = {} if kv is None else {"kv_cache_usage": kv}
    counters = {} if preemptions is None else {"preemptions": preemptions}
    return ServerSample(t_s=t, url=url, ok=True, kind=kind, kinds=[kind], gauges=gauges, counters=counters, **kw)


def test_energy_per_token_from_the_energy_counter_sums_gpus():
    samples = series("0", 300.0) + series("1", 500.0)
    (step,) = energy_per_output_token(samples, [StepWindow(label="8", start_s=2.0, end_s=6.0, output_tokens=1600)])
    assert step.method == "energy_counter" and step.devices == 2
    assert step.energy_j == pytest.approx((300 + 500) * 4.0)  # W × s
    assert step.joules_per_output_token == pytest.approx(3200.0 / 1600)


def test_energy_falls_back_to_power_integration_without_a_counter():
    samples = series("0", 400.0, energy=False)
    (step,) = energy_per_output_token(samples, [StepWindow(label="1", start_s=1.25, end_s=3.75, output_tokens=100)])
    assert step.method == "power_integral"
    assert step.energy_j == pytest.approx(400.0 * 2.5)


def test_power_ramp_is_integrated_not_averaged_at_the_ends():
    samples = [GpuSample(t_s=t, index="0", power_w=100.0 * t) for t in (0.0, 1.0, 2.0, 3.0, 4.0)]
    (step,) = energy_per_output_token(samples, [StepWindow(label="a", start_s=1.0, end_s=3.0, output_tokens=0)])
    assert step.energy_j == pytest.approx(400.0)  # ∫ 100 t dt from 1 to 3
    assert step.joules_per_output_token is None  # no tokens: no per-token figure


def test_partial_coverage_is_scaled_and_no_samples_gives_none():
    samples = series("0", 200.0, t0=5.0, t1=10.0)
    steps = energy_per_output_token(
        samples,
        [StepWindow(label="half", start_s=0.0, end_s=10.0, output_tokens=10),
         StepWindow(label="none", start_s=20.0, end_s=30.0, output_tokens=10)],
    )
    assert steps[0].energy_j == pytest.approx(200.0 * 10.0)
    assert steps[1].energy_j is None and steps[1].method == "none" and steps[1].devices == 0


def test_counter_reset_uses_power_instead():
    samples = series("0", 250.0)
    samples[10] = samples[10].model_copy(update={"energy_mj": 5.0})  # driver reload mid-window
    samples = [s if s.t_s < 5.0 else s.model_copy(update={"energy_mj": 5.0 + 250.0 * (s.t_s - 5.0) * 1000}) for s in samples]
    (step,) = energy_per_output_token(samples, [StepWindow(label="x", start_s=1.0, end_s=9.0, output_tokens=1)])
    assert step.method == "power_integral" and step.energy_j == pytest.approx(250.0 * 8.0)


def test_mig_instances_are_not_counted_twice():
    samples = series("0", 300.0) + series("0:1", 300.0, is_mig=True)
    (step,) = energy_per_output_token(samples, [StepWindow(label="x", start_s=0.0, end_s=10.0, output_tokens=1)])
    assert step.devices == 1 and step.energy_j == pytest.approx(3000.0)


def test_memory_peak_and_mean_per_device():
    samples = [GpuSample(t_s=t, index="0", memory_used_bytes=u, memory_total_bytes=100, gpu_util_pct=p)
               for t, u, p in ((0, 10, 0.0), (1, 90, 100.0), (2, 50, 50.0))]
    samples.append(GpuSample(t_s=3, index="0", status="lost"))
    (d,) = device_summaries(samples)
    assert d.peak_used_bytes == 90 and d.mean_used_bytes == pytest.approx(50.0)
    assert d.total_bytes == 100 and d.mean_gpu_util_pct == pytest.approx(50.0)


def test_kv_cache_and_preemptions_across_a_restart():
    samples = [server(0, 0.1, 0), server(1, 0.7, 4), server(2, 0.4, 1), server(3, None, 3)]
    assert kv_cache_stats(samples) == (pytest.approx(0.7), pytest.approx(0.4))
    assert counter_increase(samples, "preemptions") == 4 + 1 + 2  # the drop 4 → 1 is a restart
    assert counter_increase(samples, "no_such_counter") is None


def test_throttling_share_of_samples():
    samples = [GpuSample(t_s=i, index="0", clock_event_reasons=r)
               for i, r in enumerate([["sw_power_cap"], [], ["sw_power_cap", "hw_thermal_slowdown"], None])]
    assert throttling_seen(samples) == {"hw_thermal_slowdown": pytest.approx(1 / 3), "sw_power_cap": pytest.approx(2 / 3)}


def test_notes_follow_what_the_samples_show():
    busy = GpuSample(t_s=0, index="0", gpu_util_pct=100, memory_used_bytes=90, memory_total_bytes=100,
                     memory_reserved_bytes=5, processes=[GpuProcess(pid=1, pid_visible=False)])
    notes = notes_for([busy], [server(0, kv=0.2)], {"sw_power_cap": 0.5})
    assert notes == [
        "telemetry.note.utilization_meaning",
        "telemetry.note.preallocation",
        "telemetry.note.kv_cache",
        "telemetry.note.reserved_memory",
        "telemetry.note.container_pids",
        "telemetry.note.throttling",
    ]
    idle_cpu_box = GpuSample(t_s=0, index="0", memory_used_bytes=1, memory_total_bytes=100)
    assert notes_for([idle_cpu_box], [], {"gpu_idle": 1.0}) == []  # idle clocks are not throttling


def test_summary_of_a_simulated_run_with_a_lost_gpu():
    gpus = series("0", 100.0, simulated=True) + [GpuSample(t_s=11, index="1", status="lost")]
    summary = summarize(gpus, [server(0, kv=0.3, simulated=True)],
                        [StepWindow(label="1", start_s=0, end_s=10, output_tokens=500)])
    assert summary.simulated and summary.gpu_lost == ["1"]
    assert "telemetry.note.simulated" in summary.notes and "telemetry.note.gpu_lost" in summary.notes
    assert summary.steps[0].joules_per_output_token == pytest.approx(1000.0 / 500)
    assert summary.kv_cache_peak == pytest.approx(0.3)
