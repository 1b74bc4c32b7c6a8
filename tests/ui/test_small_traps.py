"""Issue #26 item 9, the small traps a newcomer hit: the wheel over a just-picked drop-down, the httpx line per
/metrics poll, the region 港澳台 (and Macau), and the latency axis' overlapping labels."""

from __future__ import annotations

import http.server
import itertools
import logging
import threading

import httpx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox

from advisor.i18n import translate
from advisor.plan.answers import UserLocation
from tests.ui.qt_input import wheel
from ui.widgets.wheel_guard import install_wheel_guard


# -- the wheel over a just-picked drop-down ---------------------------------------------------------------------
def test_a_wheel_notch_over_a_just_picked_wizard_dropdown_keeps_the_answer(qtbot, main_window):
    install_wheel_guard(QApplication.instance())
    page = main_window.wizard_page
    main_window.tabs.setCurrentWidget(page)
    qtbot.waitUntil(page.isVisible, timeout=3000)
    field = page.editors["data_sensitivity.sector"]
    # straight to the field's step (step 1 asks to confirm figures taken over first; not what this test is about)
    page.step = next(i for i in range(10) if field in page.step_fields(i))
    page._show_step()
    combo = field.editor
    assert isinstance(combo, QComboBox)
    qtbot.waitUntil(combo.isVisible, timeout=3000)
    # picking a value with the mouse leaves the drop-down focused, as Qt does
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus, timeout=2000)
    combo.setCurrentIndex(2)
    picked = combo.currentText()
    wheel(combo, steps=-1)
    wheel(combo, steps=1)
    wheel(combo, steps=1)
    assert combo.currentText() == picked
    # the keyboard still steps through it
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentIndex() == 3


# -- httpx's INFO line per request --------------------------------------------------------------------------------
class _Metrics(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        body = b"vllm:num_requests_running 0\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # the server's own access log is not under test
        pass


@pytest.fixture
def metrics_url():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Metrics)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/metrics"
    server.shutdown()
    server.server_close()


def _http_info_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith(("httpx", "httpcore")) and r.levelno < logging.WARNING]


def test_the_app_logs_no_line_per_metrics_poll(caplog, metrics_url, monkeypatch):
    from ui.app import configure_logging

    for name in ("httpx", "httpcore"):
        monkeypatch.setattr(logging.getLogger(name), "level", logging.NOTSET)
    caplog.set_level(logging.INFO)  # the app's terminal level
    configure_logging()
    for _ in range(3):
        assert httpx.get(metrics_url).status_code == 200
    assert _http_info_records(caplog) == []
    logging.getLogger("ui.app").info("our own INFO lines still show")
    assert any(r.name == "ui.app" for r in caplog.records)


def test_the_cli_quiets_httpx_too(caplog, metrics_url, monkeypatch):
    from advisor.cli import main

    for name in ("httpx", "httpcore"):
        monkeypatch.setattr(logging.getLogger(name), "level", logging.NOTSET)
    caplog.set_level(logging.INFO)
    assert main([]) == 0  # any command: the CLI sets its logging up before it dispatches
    httpx.get(metrics_url)
    assert _http_info_records(caplog) == []


# -- the region option ---------------------------------------------------------------------------------------------
def test_the_region_reads_hong_kong_macau_taiwan_and_keeps_its_json_value():
    assert "hk_tw" in UserLocation.__args__  # saved answers and `advisor plan` JSON keep the value
    assert translate("zh_CN", "wizard.choice.user_location.hk_tw") == "港澳台"
    assert translate("zh_CN", "memo.value.user_location.hk_tw") == "港澳台"
    for key in ("wizard.choice.user_location.hk_tw", "memo.value.user_location.hk_tw"):
        assert "Macau" in translate("en", key)
    assert "港澳台" in translate("zh_CN", "plan.field.user_location.help")


# -- the concurrency axis' labels ---------------------------------------------------------------------------------
LEVELS = [1, 2, 4, 8, 12, 16, 20, 24, 32, 48, 64]


def _label_extents(axis, logs: list[float], px_per_decade: float) -> list[tuple[float, float]]:
    from PySide6.QtGui import QFont, QFontMetricsF

    fm = QFontMetricsF(axis.style["tickFont"] or QFont())
    out = []
    for v, text in zip(logs, axis.logTickStrings(logs, 1, None), strict=True):
        centre, half = v * px_per_decade, fm.horizontalAdvance(text) / 2
        out.append((centre - half, centre + half))
    return out


def test_concurrency_labels_never_overlap_and_every_level_keeps_its_tick(qtbot):
    import math

    from ui.widgets.level_axis import LevelAxis

    axis = LevelAxis("bottom")
    axis.set_levels(LEVELS)
    lo, hi = 0.0, math.log10(64)
    for width_px in (160, 260, 420, 2000):
        (_, labelled), (_, unlabelled) = axis.logTickValues(lo, hi, width_px, None)
        extents = _label_extents(axis, labelled, width_px / (hi - lo))
        for (_, right), (left, _) in itertools.pairwise(extents):
            assert right < left, f"labels touch at {width_px} px: {axis.logTickStrings(labelled, 1, None)}"
        assert sorted(labelled + unlabelled) == sorted(math.log10(v) for v in LEVELS)  # a tick at every level
        assert labelled[0] == 0.0 and labelled[-1] == hi  # the first and the last level are named
    (_, narrow), _ = axis.logTickValues(lo, hi, 260, None)
    assert not {"16", "20"} <= set(axis.logTickStrings(narrow, 1, None))  # the reported collision
    (_, wide), _ = axis.logTickValues(lo, hi, 2000, None)
    assert axis.logTickStrings(wide, 1, None) == [str(v) for v in LEVELS]  # room for all: all named


def test_the_latency_charts_use_the_level_axis(qtbot):
    from ui.widgets.latency_plot import LatencyPlot
    from ui.widgets.level_axis import LevelAxis

    plot = LatencyPlot()
    qtbot.addWidget(plot)
    assert isinstance(plot.latency.getAxis("bottom"), LevelAxis)
    assert isinstance(plot.throughput.getAxis("bottom"), LevelAxis)


# -- usable memory says where it comes from (item 7, on the Sizing page) ---------------------------------------------
@pytest.mark.parametrize(("gpu", "estimated", "source"), [
    ("my-card", True, None),  # a GPU the user describes: every catalog row has a published figure now
    ("h800-sxm-80g", False, "https://github.com/NVIDIA/DCGM/issues/183"),
    ("l40s", False, "https://github.com/stepfun-ai/Step-Video-T2V/issues/8"),
])  # fmt: skip
def test_the_sizing_page_says_whether_usable_memory_is_an_estimate(qtbot, sizing_page, gpu, estimated, source):
    from advisor.catalog import get_gpu

    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    if gpu == "my-card":
        page.add_custom_gpu(get_gpu("h100-pcie-80g").model_copy(update={
            "id": gpu, "name": "My card 80GB", "usable_memory_bytes": None, "usable_memory_source": None,
            "usable_memory_reading": "cuda_total", "user_defined": True}))
    else:
        page.gpu_picker.select_data(gpu)
    qtbot.waitUntil(lambda: page.result is not None and page.result.request.gpu.id == gpu, timeout=5000)
    qtbot.waitUntil(lambda: not page._throttle.isActive(), timeout=3000)
    title = page.overview.memory_title
    assert ("estimated" in title.text()) is estimated
    tip = title.toolTip()
    assert ("98.5 %" in tip) is estimated
    if source:
        assert source in tip
