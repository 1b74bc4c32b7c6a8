"""The Benchmark result's status lines wrap (issue #26, retaking the screenshots): a time-scaled simulator run's
note ("Simulated at time scale ×0.5 … rates × 0.5)") is one long line, and unwrapped it made the result view at least
1,600 px wide, so the window grew past a laptop screen as soon as the result was shown."""

from __future__ import annotations

from ui.widgets.bench_result import ResultView

LONG = ("Simulated at time scale ×0.5 (the server ran faster than the GPU it models): every figure here is converted "
        "back to the simulated GPU's real speed (durations ÷ 0.5, rates × 0.5). ") * 2


def test_a_long_status_line_wraps_instead_of_widening_the_view(qtbot):
    view = ResultView()
    qtbot.addWidget(view)
    view.show_result({"status": "failed", "model": "qwen2.5-7b-instruct", "url": "http://127.0.0.1:8000",
                      "simulated": True, "error": LONG, "steps": []})  # fmt: skip
    view.show()
    assert LONG.strip() in view.status.text()
    assert view.minimumSizeHint().width() < 1000, view.minimumSizeHint()


def test_the_simulated_badge_keeps_its_height_beside_a_wrapped_status(qtbot):
    view = ResultView()
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show_result({"status": "failed", "model": "m", "url": "http://127.0.0.1:8000", "simulated": True,
                      "error": LONG, "steps": []})  # fmt: skip
    view.show()
    qtbot.waitExposed(view)
    assert view.status.height() > 2 * view.simulated_badge.height()
    assert view.simulated_badge.height() <= view.simulated_badge.sizeHint().height() + 2
