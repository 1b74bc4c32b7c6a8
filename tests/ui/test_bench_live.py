"""The staged live view: one refresh is drawn over several short ticks, and every chart gets its data."""

from __future__ import annotations

import time

import pytest

from advisor.domain.bench import BenchConfig
from ui.bench_session import BenchSession
from ui.widgets.bench_live import LiveView


class _Tasks:
    def submit(self, *_a, **_k):  # never used: the test fills the buffers itself
        raise AssertionError


@pytest.fixture
def view(qtbot):
    session = BenchSession(_Tasks())
    session.config = BenchConfig(endpoint={"url": "http://127.0.0.1:1", "model": "m"},
                                 schedule={"kind": "fixed", "concurrency": [4], "requests": 10})  # fmt: skip
    live = LiveView(session)
    qtbot.addWidget(live)
    live.reset([4], time.monotonic())
    return live


def test_a_refresh_draws_texts_first_and_each_chart_on_a_later_tick(qtbot, view):
    b = view.session.buffers
    for i in range(5):
        b.ttft.append((float(i), 100.0 + i))
        b.itl_p50.append((float(i), 10.0))
        b.itl_p99.append((float(i), 20.0))
        b.tok_s.append((float(i), 500.0))
        b.active.append((float(i), 4.0))
        b.target.append((float(i), 4.0))
    b.ok, b.concurrency = 5, 4
    view.refresh()
    assert "5" in view.counts_label.text()  # the texts stage runs at once …
    assert len(view.itl_p50.getData()[0] or []) == 0  # … the charts on later ticks
    with qtbot.waitSignal(view.cycle_done, timeout=2_000):
        pass
    for curve in (view.itl_p50, view.itl_p99, view.tok_curve, view.active_curve, view.target_curve):
        assert len(curve.getData()[0]) == 5
    assert len(view.ttft_scatter.data) == 5
    assert view.stage_cost_ms.keys() >= {"texts", "ttft", "itl", "tok", "conc", "sample", "gpu"}


def test_refresh_all_draws_everything_in_one_call_and_dark_reaches_every_chart(view):
    b = view.session.buffers
    b.tok_s.append((1.0, 42.0))
    view.refresh_all()
    assert list(view.tok_curve.getData()[1]) == [42.0]
    view.set_theme(True)
    assert all(w.backgroundBrush().color().lightness() < 128 for w in view.plot_widgets)
