"""``advisor gpu``: the real process on this machine, and the same code over the fake NVML."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor import i18n
from advisor.cli import main
from advisor.telemetry import nvml
from tests.fakes import fake_pynvml
from tests.fakes.fake_pynvml import FakeDevice
from tests.fakes.metrics_server import MetricsServer, fixture_text

ROOT = Path(__file__).resolve().parents[2]
HAS_DRIVER = Path("/dev/nvidiactl").exists()


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "advisor", "gpu", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.skipif(HAS_DRIVER, reason="this machine has an NVIDIA driver")
def test_no_driver_is_a_state_and_exits_zero():
    out = run_cli("--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["state"] == "no_driver" and data["devices"] == [] and data["prometheus"] == []
    assert "NVIDIA driver" in data["message"]
    text = run_cli()
    assert text.returncode == 0 and "NVIDIA driver" in text.stdout and "Traceback" not in text.stderr


def test_prometheus_urls_are_scraped_in_the_real_process():
    routes = {"/metrics": (200, fixture_text("vllm_v1.txt")), "/dcgm": (200, fixture_text("dcgm_l40s.txt"))}
    with MetricsServer(routes) as server:
        out = run_cli("--json", "--prometheus", server.url(), "--prometheus", server.url("/dcgm"))
    assert out.returncode == 0, out.stderr
    vllm, dcgm = json.loads(out.stdout)["prometheus"]
    assert vllm["ok"] and vllm["kind"] == "vllm" and vllm["gauges"]["kv_cache_usage"] == pytest.approx(0.6125)
    assert vllm["error"] is None
    assert dcgm["kind"] == "dcgm" and dcgm["devices"][0]["name"] == "NVIDIA L40S"


def test_bad_url_is_one_line_and_exit_2():
    out = run_cli("--prometheus", "gpu-box:8000")
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "can scrape" in out.stderr and "Traceback" not in out.stderr


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(nvml, "pynvml", fake_pynvml)
    fake_pynvml.configure([
        FakeDevice(uuid="GPU-a", memory_used=130 * fake_pynvml.GiB),
        FakeDevice(uuid="GPU-b", unsupported={"power", "temperature"}),
    ])
    return fake_pynvml


def test_snapshot_json_with_devices_and_notes(fake, capsys):
    assert main(["gpu", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["state"] == "ok" and data["driver_version"] == "575.57.08"
    a, b = data["devices"]
    assert a["memory_used_bytes"] == 130 * fake_pynvml.GiB and a["memory_reserved_bytes"] > 0
    assert b["power_w"] is None and b["na"]["power_w"] == "not_supported"
    keys = [n["key"] for n in data["notes"]]
    assert "telemetry.note.utilization_meaning" in keys and "telemetry.note.preallocation" in keys


def test_table_shows_na_for_unsupported_fields(fake, capsys):
    assert main(["gpu"]) == 0
    out = capsys.readouterr().out
    assert "2 GPU(s)" in out and "N/A / 700" in out and "sw_power_cap" in out
    assert "1: power_w, temperature_c — N/A (not supported by this GPU)" in out


def test_watch_prints_one_json_object_per_refresh_with_rates(fake, capsys, monkeypatch):
    text = 'vllm:generation_tokens_total{{model_name="m"}} {n}\n'
    with MetricsServer({"/metrics": (200, text.format(n=0.0))}) as server:
        from advisor.telemetry import prometheus

        original = prometheus.PrometheusScraper.scrape

        def scrape_and_advance(self):  # the server produces tokens between refreshes
            result = original(self)
            server.routes["/metrics"] = (200, text.format(n=result.server.counters["generation_tokens"] + 500))
            return result

        monkeypatch.setattr(prometheus.PrometheusScraper, "scrape", scrape_and_advance)
        code = main(["gpu", "--watch", "--json", "--count", "2", "--interval", "0.25", "--prometheus", server.url()])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["prometheus"][0]["rates"] == {}
    assert second["prometheus"][0]["rates"]["generation_tokens_per_s"] > 0


def test_message_in_chinese(fake, capsys, monkeypatch):
    fake.configure([], init_error=fake_pynvml.NVMLError_LibraryNotFound)
    i18n.set_language("zh_CN")
    assert main(["gpu", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["state"] == "no_driver" and "驱动" in data["message"]


@pytest.mark.parametrize("interval", ["0.1", "100"])
def test_interval_is_checked(interval, capsys):
    assert main(["gpu", "--watch", "--interval", interval]) == 2
    assert "--interval" in capsys.readouterr().err
