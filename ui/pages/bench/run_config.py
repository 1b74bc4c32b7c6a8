"""The run's choices read from the target and workload panels; the configuration itself is built by the core
(:func:`advisor.bench.run_config.build_config`, which ``advisor bench`` calls too). Field-level ``ValueError``
for a target or model not chosen yet."""

from __future__ import annotations

from advisor.bench import report
from advisor.bench.presets import DEFAULT_PRESET, get_preset
from advisor.bench.run_config import RunChoices
from advisor.bench.run_config import build_config as build_run_config
from advisor.domain.bench import BenchConfig
from advisor.i18n import tr
from ui.pages.bench.target_panel import TargetPanel
from ui.pages.bench.workload_panel import WorkloadPanel


def read_choices(target: TargetPanel, w: WorkloadPanel) -> RunChoices:
    """What the fields say (raises ValueError with a field-level message for a missing target or model)."""
    url = target.target_url()
    if not url:
        raise ValueError(target.no_target_text())
    model = target.served_model()
    if not model:
        raise ValueError(tr("bench.page.error.no_model"))
    prompt, output = get_preset(w.preset_box.currentData() or DEFAULT_PRESET).scaled(w.prompt_mean.value(),
                                                                                      w.output_mean.value())
    shape = w.shape_box.currentData()
    label = ""
    if target.is_sim():
        spec = target.sim.spec()
        label = report.sim_label(spec.model, spec.gpu, spec.weights, spec.gpus, spec.time_scale)
    return RunChoices(
        url=url, model=model, shape=shape,
        levels=(w.concurrency.value(),) if shape in ("fixed", "soak") else None,
        requests=w.requests.value() if shape in ("fixed", "ramp", "rate") else None,
        duration_s=w.duration.value() if shape == "soak" else None,
        max_concurrency=w.max_concurrency.value() if shape in ("ramp", "rate") else None,
        rate=w.rate.value() if shape == "rate" else None,
        client_processes=w.client_processes.value() or None,  # 0 is "auto"
        prompt_tokens=prompt, output_tokens=output, dataset=w.dataset_path, ignore_eos=True,
        slo_ttft_ms=w.ttft_slo.value() or None, slo_tpot_ms=w.tpot_slo.value() or None, slo_percentile=99,
        label=label,
    )  # fmt: skip


def build_config(target: TargetPanel, w: WorkloadPanel) -> BenchConfig:
    """The run's configuration from the fields (raises ValueError with a field-level message)."""
    return build_run_config(read_choices(target, w))
