"""Issue #29 items 9, 15 and 16 on the Benchmark page: Connect without a model lists the served models the way
the probe does — direct, whatever proxy the environment names (the key went to HTTP_PROXY before), and within
a bound a trickling server cannot stretch (advisor.bench.probe.served_models, over the same TLS context as
every other connection)."""

from __future__ import annotations

import time

import pytest

from tests.robustness.hostile import HostileServer, trickle_head
from tests.support.proxy import recording_proxy


@pytest.fixture
def page(benchmark_page):
    return benchmark_page


@pytest.fixture
def proxy(monkeypatch):
    with recording_proxy() as (port, hits):
        for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
            monkeypatch.setenv(name, f"http://127.0.0.1:{port}")
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        yield hits


def _connect(qtbot, page, url: str, timeout_ms: int = 30_000):
    page.url_radio.setChecked(True)
    page.url_edit.setText(url)
    page.key_edit.setText("sk-page-proxy-test-0123456789")
    page.model_pick.setCurrentText("")
    with qtbot.waitSignal(page.probed, timeout=timeout_ms) as probed:
        page.connect_target()
    return probed.args[0] if probed.args else None


def test_connect_lists_the_models_directly_not_through_the_proxy(qtbot, page, proxy):
    with HostileServer(models=["served-model"]) as srv:
        _connect(qtbot, page, srv.url + "/v1")
        asked = [p for m, p, _ in srv.requests if m == "GET"]
    assert proxy == []  # neither the model list nor the probe (nor the key) went to the proxy
    assert "/v1/models" in asked
    assert page.model_pick.currentText() == "served-model"
    assert page.probe_result is not None and page.probe_result.ok, page.probe_label.text()


def test_a_trickling_model_list_cannot_hold_connect(qtbot, page):
    with HostileServer(models_reply=trickle_head(0.5)) as srv:
        t0 = time.monotonic()
        _connect(qtbot, page, srv.url + "/v1", timeout_ms=60_000)
        took = time.monotonic() - t0
    assert took < 45, took  # the model list's 10 s bound, then the probe's own 30 s at most
    assert page.probe_label.text()  # said something, not stuck on "Connecting…"
