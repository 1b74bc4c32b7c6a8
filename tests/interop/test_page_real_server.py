"""Opt-in: the Benchmark page against a REAL server (docs/measure.md, "Against a real server").

Skipped unless there is a real server to talk to:

- ``INTEROP_URL=http://127.0.0.1:PORT`` (any engine on this machine; ``INTEROP_MODEL`` picks the model id, default
  the first one served; ``INTEROP_DIALECT`` is the dialect the probe must name), or
- the llama.cpp virtualenv that ``make interop`` builds (``.interop/llamacpp`` with the tiny GGUF): the test starts
  that server itself on 127.0.0.1 and stops it afterwards.

``make interop`` (tools/interop/run.sh) runs it against each engine it starts. Each check is small: the tiny CPU
model answers in a fraction of a second. Only loopback traffic.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
LLAMACPP_PYTHON = ROOT / ".interop" / "llamacpp" / "bin" / "python"
TINY_GGUF = ROOT / ".interop" / "tiny-random-llama.gguf"
RUN_TIMEOUT_MS = 240_000
# the offscreen platform plugin warns when a top-level window is shown (harmless; tests/ui/conftest.py does the same)
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

if not os.environ.get("INTEROP_URL") and not (LLAMACPP_PYTHON.exists() and TINY_GGUF.exists()):
    pytest.skip("no real server: set INTEROP_URL=http://127.0.0.1:PORT, or build .interop/llamacpp with `make "
                "interop` (tools/interop/run.sh)", allow_module_level=True)  # fmt: skip


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server() -> dict[str, str]:
    """The server under test: INTEROP_URL, or a llama.cpp server started here (stopped at the end, always)."""
    url = os.environ.get("INTEROP_URL")
    if url:
        if urlparse(url).hostname not in ("127.0.0.1", "localhost", "::1"):
            pytest.skip("INTEROP_URL must be a server on this machine (127.0.0.1)")
        yield {"url": url.rstrip("/"), "model": os.environ.get("INTEROP_MODEL", ""),
               "dialect": os.environ.get("INTEROP_DIALECT", "")}  # fmt: skip
        return
    port = _free_port()
    proc = subprocess.Popen([str(LLAMACPP_PYTHON), "-m", "llama_cpp.server", "--model", str(TINY_GGUF),
                             "--model_alias", "tiny", "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048",
                             "--n_threads", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/v1/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the llama.cpp server did not start (exit {proc.poll()})")
            time.sleep(0.3)
        yield {"url": url, "model": "tiny", "dialect": "llamacpp"}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


@pytest.fixture
def page(benchmark_page):
    return benchmark_page


def _connect(qtbot, page, server) -> object:
    page.url_radio.setChecked(True)
    page.url_edit.setText(server["url"])
    page.model_pick.setCurrentText("")
    with qtbot.waitSignal(page.probed, timeout=60_000) as probed:
        page.connect_target()
    result = probed.args[0]
    assert result is not None and result.ok, page.probe_label.text()
    assert result.models, "the probe lists no served model"
    model = server["model"] or result.models[0]
    assert page.model_pick.findText(model) >= 0, result.models
    page.model_pick.setCurrentText(model)
    if server["dialect"]:
        assert result.dialect == server["dialect"], page.probe_label.text()
    return result


def _small(page, *, shape: str, concurrency: int = 1, max_c: int = 2, requests: int = 6) -> None:
    page.prompt_mean.setValue(48)
    page.output_mean.setValue(24)
    page.shape_box.setCurrentIndex(page.shape_box.findData(shape))
    page.concurrency.setValue(concurrency)
    page.max_concurrency.setValue(max_c)
    page.requests.setValue(requests)


def test_connect_ramp_and_read_the_result(qtbot, page, server):
    from advisor.bench.probe import one_request_at_a_time

    probe = _connect(qtbot, page, server)
    text = page.probe_label.text()
    assert f"Engine / dialect: {probe.dialect}" in text
    assert ("/metrics available: yes" in text) == probe.metrics_endpoint
    assert ("Token usage in the stream: yes" in text) == probe.usage_in_stream
    _small(page, shape="ramp")
    seen = {"ttft": 0, "sample": 0}

    def look() -> None:
        seen["ttft"] = max(seen["ttft"], len(page.ttft_scatter.data))
        seen["sample"] = max(seen["sample"], len(page.sample_text.toPlainText()))

    page.live_updated.connect(look)
    with qtbot.waitSignal(page.run_finished, timeout=RUN_TIMEOUT_MS) as done:
        assert page.start_run()
    result = done.args[0]
    steps = result["steps"]
    assert steps and steps[0]["concurrency"] == 1 and steps[0]["requests_ok"] >= 1, steps
    assert seen["ttft"] > 0
    if one_request_at_a_time(probe):  # llama-cpp-python: an extra request would cut off a measured one
        assert seen["sample"] == 0 and "one request at a time" in page.sample_title.text()
        assert steps[0]["requests_failed"] == 0, steps[0]["failures"]  # nothing beside the load cut it off
    view = page.result_view
    assert view.table.rowCount() == len(steps)
    assert view.knee.text() and view.verdict.text()
    failed = sum(s["requests_failed"] for s in steps)
    if failed:
        assert not view.client_note.isHidden() and "failed" in view.client_note.text()
    if result["status"] == "completed":
        judged = steps[:-1] if steps[-1].get("stop_reason") == "error_rate" else steps
        assert all(s["status"] == "ok" for s in judged), [s["status"] for s in steps]


def test_stop_ends_within_a_second_and_history_says_stopped(qtbot, page, server, tmp_path):
    from advisor.bench.history import RunHistory

    _connect(qtbot, page, server)
    _small(page, shape="fixed", requests=100_000)
    page.sample_check.setChecked(False)
    assert page.start_run()
    qtbot.waitUntil(lambda: page.session.buffers.ok >= 3, timeout=RUN_TIMEOUT_MS)
    t0 = time.monotonic()
    with qtbot.waitSignal(page.run_finished, timeout=10_000) as done:
        page.stop_run()
    took = time.monotonic() - t0
    result = done.args[0]
    assert took < 1.0, f"Stop took {took:.2f} s"
    assert result["status"] == "stopped" and result["steps"][0]["requests_ok"] >= 3
    with RunHistory(tmp_path / "bench.sqlite3") as history:
        runs = {r.run_id: r for r in history.list()}
    assert runs[result["run_id"]].status == "stopped", runs[result["run_id"]]
    print(f"\nStop against {server['url']}: ended {took * 1e3:.0f} ms after the click", file=sys.stderr)
