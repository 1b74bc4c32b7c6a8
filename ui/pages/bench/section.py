"""The Benchmark page's project section (``BenchmarkSection``) bound to its widgets, once: opening a project,
saving it and the wizard's "measure it" hand-off all go through this mapping (ui/section_binding.py).

The order is the order things are set in: the target first (switching it clears the probe), the preset before the
lengths it fills, and the served model last (the simulated model's pick must not overwrite it).
"""

from __future__ import annotations

from advisor.domain.project import BenchmarkSection
from ui.pages.bench.target_panel import TargetPanel
from ui.pages.bench.workload_panel import WorkloadPanel
from ui.section_binding import SectionBinding, choice, combo_text, radios, spin, text


def benchmark_binding(target: TargetPanel, w: WorkloadPanel) -> SectionBinding[BenchmarkSection]:
    sim, url = target.sim, target.url
    return SectionBinding(BenchmarkSection, {
        "target": radios({"simulated": target.sim_radio, "url": target.url_radio}),
        "url": text(url.url_edit),
        "exporter_url": text(url.exporter_edit),
        "ca_bundle": text(url.ca_edit),
        "client_cert": text(url.client_cert_edit),
        "client_key": text(url.client_key_edit),
        "sim_model": choice(sim.sim_model),
        "sim_gpu": choice(sim.sim_gpu),
        "sim_weights": choice(sim.sim_weights),
        "sim_gpus": spin(sim.sim_gpus),
        "sim_time_scale": spin(sim.sim_speed),
        "preset": choice(w.preset_box),
        "prompt_tokens": spin(w.prompt_mean),
        "output_tokens": spin(w.output_mean),
        "shape": choice(w.shape_box),
        "concurrency": spin(w.concurrency),
        "max_concurrency": spin(w.max_concurrency),
        "requests": spin(w.requests),
        "duration_s": spin(w.duration),
        "rate": spin(w.rate),
        "ttft_p99_ms": spin(w.ttft_slo, zero_is_none=True),
        "tpot_p99_ms": spin(w.tpot_slo, zero_is_none=True),
        "model": combo_text(target.model_pick),
    })  # fmt: skip
