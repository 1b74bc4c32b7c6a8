"""Issue #26 item 9: a result computed for inputs that have since changed is greyed and says "inputs changed —
recompute" instead of looking current: the Sizing estimate while the new inputs are invalid, the probe's
"/metrics available: yes" once the simulated server it read has stopped, a benchmark result beside edited settings.
"""

from __future__ import annotations

from tests.ui.test_benchmark_page import _small, _start_sim


def _effect_on(widget) -> bool:
    return widget.graphicsEffect() is not None


def test_the_sizing_estimate_says_it_is_for_the_previous_inputs_while_the_new_ones_are_invalid(qtbot, sizing_page):
    page = sizing_page
    qtbot.waitUntil(lambda: page.result is not None, timeout=5000)
    assert not page.results_panel.stale and not _effect_on(page.results_tabs)
    shown = page.verdict.text()
    page.prefix_spin.setValue(4_000_000)  # a shared prefix longer than the prompt: the request is invalid
    qtbot.waitUntil(lambda: not page.input_error.isHidden(), timeout=3000)
    assert page.results_panel.stale and _effect_on(page.results_tabs)
    assert "Inputs changed" in page.results_panel.note.text() and page.verdict.text() == shown
    page.prefix_spin.setValue(0)
    qtbot.waitUntil(lambda: page.input_error.isHidden(), timeout=3000)
    assert not page.results_panel.stale and not _effect_on(page.results_tabs)


def test_the_probe_and_the_result_say_when_their_server_or_settings_changed(qtbot, benchmark_page):
    page = benchmark_page
    _start_sim(qtbot, page, speed=0.5)
    assert "/metrics available: yes" in page.probe_label.text() and not page.probe_mark.stale
    _small(page, shape="fixed", max_c=2, requests=4, prompt=32, output=8)
    page.sample_check.setChecked(False)
    with qtbot.waitSignal(page.run_finished, timeout=60_000):
        assert page.start_run()
    view = page.result_view
    assert not view.stale.stale and not _effect_on(view.table)
    # a setting changed after the run: the result is the record of another setup
    page.output_mean.setValue(64)
    assert view.stale.stale and _effect_on(view.table) and _effect_on(view.plots)
    assert "Inputs changed since this run" in view.stale.note.text()
    page.output_mean.setValue(8)  # back to what was run: current again
    assert not view.stale.stale and not _effect_on(view.table)
    # the simulated server stops: what the probe read is no longer about a running server
    page.stop_sim()
    assert page.probe_mark.stale and _effect_on(page.probe_label)
    assert "press Connect" in page.probe_mark.note.text()
