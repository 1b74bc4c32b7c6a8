"""Scraping real servers' /metrics texts (fixtures) over a real loopback HTTP server."""

import pytest

from advisor.domain.telemetry import MiB
from advisor.telemetry.prometheus import (
    PrometheusScraper,
    RateTracker,
    is_simulated,
    normalise_url,
    parse_metrics_text,
)
from tests.fakes.metrics_server import MetricsServer, fixture_text


def scrape_fixture(name: str):
    with MetricsServer({"/metrics": (200, fixture_text(name))}) as server, PrometheusScraper(server.url()) as s:
        return s.scrape()


def test_vllm_v1_gauges_counters_and_kind():
    r = scrape_fixture("vllm_v1.txt")
    assert r.server.ok and r.server.kind == "vllm" and not r.server.simulated
    g = r.server.gauges
    assert g["kv_cache_usage"] == pytest.approx(0.6125)
    assert g["requests_running"] == 24 and g["requests_waiting"] == 7
    c = r.server.counters
    assert c["preemptions"] == 3 and c["prompt_tokens"] == 812544 and c["generation_tokens"] == 201600
    assert c["requests_ok"] == 1480 + 95  # summed over finished_reason
    assert r.server.rates == {}  # one scrape: no rate yet
    assert r.gpus == []
    assert r.server.scrape_ms is not None and r.server.scrape_ms >= 0


def test_real_vllm_0_32_capture():
    """Captured from a live vLLM 0.32 (CPU build) by `make interop`: newer names only, counters as written."""
    r = scrape_fixture("vllm_0_32_cpu_real.txt")
    assert r.server.ok and r.server.kind == "vllm" and not r.server.simulated
    g = r.server.gauges
    assert g["kv_cache_usage"] == 0.0 and g["requests_running"] == 0 and g["requests_waiting"] == 0
    c = r.server.counters
    assert c["prompt_tokens"] == 29 + 51 + 13 and c["generation_tokens"] == 5 + 12 + 12
    assert c["requests_ok"] == 3 and c["preemptions"] == 0
    assert r.gpus == []


def test_vllm_v0_uses_the_older_kv_cache_name():
    r = scrape_fixture("vllm_v0_llama31_8b.txt")
    assert r.server.kind == "vllm"
    assert r.server.gauges["kv_cache_usage"] == 0.0  # from vllm:gpu_cache_usage_perc
    assert r.server.gauges["requests_swapped"] == 0.0


def test_sglang():
    r = scrape_fixture("sglang_llama31_8b.txt")
    g = r.server.gauges
    assert r.server.kind == "sglang"
    assert g["kv_cache_usage"] == pytest.approx(0.28)
    assert g["requests_running"] == 162 and g["requests_waiting"] == 2826
    assert r.server.counters["generation_tokens"] == pytest.approx(7.557572e6)


def test_sglang_tensor_parallel_ranks_are_not_double_counted():
    r = scrape_fixture("sglang_tp2.txt")
    assert r.server.gauges["requests_running"] == 12  # not 24: both ranks serve the same requests
    assert r.server.counters["generation_tokens"] == 50000


def test_tgi():
    r = scrape_fixture("tgi.txt")
    g = r.server.gauges
    assert r.server.kind == "tgi"
    assert g["requests_waiting"] == 5 and g["batch_size"] == 32
    assert r.server.counters["requests"] == 1840  # a counter without the _total suffix
    assert r.server.counters["generation_tokens"] == 412200  # histogram sum


def test_dcgm_exporter_gpu_readings():
    r = scrape_fixture("dcgm_l40s.txt")
    assert r.server.kind == "dcgm"
    (gpu,) = r.gpus
    assert gpu.source == "dcgm" and gpu.host == "gpu1-wl8sg" and gpu.name == "NVIDIA L40S"
    assert gpu.gpu_util_pct == 0 and gpu.temperature_c == 32 and gpu.power_w == pytest.approx(35.686)
    assert gpu.memory_free_bytes == 45459 * MiB and gpu.memory_reserved_bytes == 608 * MiB
    assert gpu.memory_total_bytes == (45459 + 0 + 608) * MiB
    assert gpu.energy_mj == 5551899580  # a counter: read under its _total sample name
    assert r.server.counters["gpu.gpu1-wl8sg.0.energy_mj"] == 5551899580


def test_dcgm_mig_instances_and_unparseable_lines():
    """dcgm-exporter really writes 'ERROR - FAILED TO CONVERT TO STRING' values; they must not cost the scrape."""
    r = scrape_fixture("dcgm_a800_mig.txt")
    assert r.server.ok
    mig = [g for g in r.gpus if g.is_mig]
    assert sorted(g.index for g in mig) == ["0:3", "0:5", "0:6"]
    assert all(g.name == "NVIDIA A800-SXM4-80GB MIG 2g.20gb" for g in mig)
    assert all(g.memory_used_bytes == 10 * MiB for g in mig)
    (whole,) = [g for g in r.gpus if not g.is_mig]
    assert whole.index == "1" and whole.memory_free_bytes == 81226 * MiB
    assert whole.gpu_util_pct is None and whole.na["gpu_util_pct"] == "not_available"


def test_nvitop_exporter():
    r = scrape_fixture("nvitop_h800.txt")
    assert r.server.kind == "nvitop"
    busy, idle = sorted(r.gpus, key=lambda g: g.index)
    assert busy.host == "10.20.0.7" and busy.name == "NVIDIA H800"
    assert busy.gpu_util_pct == 96 and idle.gpu_util_pct == 3
    assert busy.memory_used_bytes == round(73421.25 * MiB)
    assert busy.power_w == pytest.approx(642.3) and busy.power_limit_w == 700


def test_simulated_server_is_labelled_and_both_kinds_are_read():
    r = scrape_fixture("simulated_vllm_dcgm.txt")
    assert r.server.simulated and r.server.kinds == ["vllm", "dcgm"] and r.server.kind == "vllm"
    assert r.server.gauges["kv_cache_usage"] == pytest.approx(0.125)
    (gpu,) = r.gpus
    assert gpu.simulated and gpu.gpu_util_pct == 93 and gpu.memory_used_bytes == 73000 * MiB


@pytest.mark.parametrize(
    "line",
    [
        'DCGM_FI_DEV_GPU_UTIL{gpu="0",simulated="true"} 5',
        'DCGM_FI_DEV_GPU_UTIL{gpu="0",Hostname="simulated"} 5',
        'DCGM_FI_DEV_GPU_UTIL{gpu="0",source="Simulated"} 5',
        '# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (simulated)\nDCGM_FI_DEV_GPU_UTIL{gpu="0"} 5',
    ],
)
def test_every_way_of_saying_simulated_is_seen(line):
    assert is_simulated(parse_metrics_text(line + "\n"))
    assert not is_simulated(parse_metrics_text('DCGM_FI_DEV_GPU_UTIL{gpu="0",simulated="false"} 5\n'))


def test_a_glitched_reading_is_na_and_the_rest_is_kept():
    text = ('DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-x"} 104\n'
            'DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-x"} 61\n')
    with MetricsServer({"/metrics": (200, text)}) as server, PrometheusScraper(server.url()) as s:
        r = s.scrape()
    (gpu,) = r.gpus
    assert gpu.gpu_util_pct is None and gpu.na["gpu_util_pct"] == "error"
    assert gpu.temperature_c == 61


def test_counters_become_rates_and_a_restart_gives_no_negative_rate():
    text = 'vllm:generation_tokens_total{{model_name="m"}} {n}\nvllm:num_requests_running{{model_name="m"}} 1\n'
    with MetricsServer({"/metrics": (200, text.format(n=1000.0))}) as server, PrometheusScraper(server.url()) as s:
        first = s.scrape()
        server.routes["/metrics"] = (200, text.format(n=1600.0))
        second = s.scrape()
        server.routes["/metrics"] = (200, text.format(n=10.0))  # the server restarted
        third = s.scrape()
    dt = second.server.t_s - first.server.t_s
    assert dt > 0
    assert second.server.rates["generation_tokens_per_s"] == pytest.approx(600.0 / dt)
    assert "generation_tokens_per_s" not in third.server.rates


def test_rate_tracker_uses_the_sample_clock():
    tracker = RateTracker()
    assert tracker.update(10.0, {"x": 5.0}) == {}
    assert tracker.update(12.0, {"x": 9.0}) == {"x_per_s": 2.0}


@pytest.mark.parametrize(
    ("route", "fragment"),
    [((500, "boom"), "HTTP 500"), ((200, "<html><body>login</body></html>"), "did not return Prometheus")],
)
def test_bad_answers_are_reported_not_raised(route, fragment):
    with MetricsServer({"/metrics": route}) as server, PrometheusScraper(server.url()) as s:
        r = s.scrape()
    assert not r.server.ok and fragment in r.server.error and r.gpus == []


def test_unreachable_and_slow_endpoints():
    with MetricsServer() as server:
        port = server.port
    with PrometheusScraper(f"http://127.0.0.1:{port}/metrics", timeout_s=0.5) as s:
        r = s.scrape()
    assert not r.server.ok and "cannot connect" in r.server.error
    with MetricsServer({"/metrics": (200, "x 1\n")}, delay_s=0.6) as server:
        with PrometheusScraper(server.url(), timeout_s=0.2) as s:
            r = s.scrape()
    assert not r.server.ok and "no answer" in r.server.error


def test_urls_are_normalised_and_checked():
    assert normalise_url("http://gpu-box:8000") == "http://gpu-box:8000/metrics"
    assert normalise_url("https://h:9400/metrics") == "https://h:9400/metrics"
    for bad in ("ftp://h/metrics", "gpu-box:8000", ""):
        with pytest.raises(ValueError, match="can scrape"):
            normalise_url(bad)


def test_text_that_is_not_prometheus_raises_value_error():
    with pytest.raises(ValueError):
        parse_metrics_text("this is { not metrics\n")


def test_real_llama_server_capture():
    """Captured from llama.cpp's own llama-server (--metrics --parallel 2) while 4 requests were in flight, and after.
    Its llamacpp:* names were not read at all: the kind was "unknown" and the bench's server-queue figure stayed
    empty. Busy slots are the running requests, deferred tasks the waiting ones; it has no KV-usage gauge."""
    busy = scrape_fixture("llama_server_busy_real.txt")
    assert busy.server.ok and busy.server.kind == "llamacpp" and not busy.server.simulated
    assert busy.server.gauges == {"requests_running": 2, "requests_waiting": 2}  # 2 slots busy, 2 requests queued
    assert busy.server.counters == {"prompt_tokens": 62, "generation_tokens": 0}  # counted when a request ends
    idle = scrape_fixture("llama_server_idle_real.txt")
    assert idle.server.gauges == {"requests_running": 0, "requests_waiting": 0}
    assert idle.server.counters == {"prompt_tokens": 92, "generation_tokens": 4 * 900}
    assert busy.gpus == [] and idle.gpus == []
