"""Before any run, the Benchmark page's server panel does not say the server has no /metrics (issue #26, retaking
the screenshots: with "A server URL" picked and nothing connected or sampled, it read "Server /metrics — not
exposed by this server (no /metrics endpoint)"; unknown stays unknown)."""

from __future__ import annotations

from advisor.i18n import tr
from ui.widgets.gpu_panel import GpuPanel


def test_nothing_sampled_yet_says_so_instead_of_no_metrics_endpoint(qtbot):
    panel = GpuPanel()
    qtbot.addWidget(panel)
    panel.update_samples([], None, nvml_state=None, server_expected=False)
    assert tr("bench.gpu.why.not_sampled") in panel.server.text()
    assert tr("bench.gpu.why.no_metrics_endpoint") not in panel.server.text()


def test_a_run_that_found_no_metrics_endpoint_still_says_so(qtbot):
    panel = GpuPanel()
    qtbot.addWidget(panel)
    panel.update_samples([], None, nvml_state="no_driver", server_expected=False)
    assert tr("bench.gpu.why.no_metrics_endpoint") in panel.server.text()
    panel.update_samples([], None, nvml_state="no_driver", server_expected=True)
    assert tr("bench.gpu.why.waiting") in panel.server.text()
