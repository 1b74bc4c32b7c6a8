"""The A/B page's project section (``AbSection``) bound to its widgets, once: opening a project and saving it both
go through this mapping (ui/section_binding.py), so a field added to the section cannot be saved and not loaded.

What the page does around it stays in the page: a project saved before the A/B was kept has no section (the page
follows the Sizing page), and after a load the simulated servers' boxes say where their setup came from."""

from __future__ import annotations

from advisor.domain.project import AbSection
from advisor.redact import redact_url
from ui.pages.ab.load_panel import DEFAULT_LEVELS, LoadPanel
from ui.pages.ab.sides_panel import SidesPanel
from ui.section_binding import FieldBinding, SectionBinding, check, custom, spin, text
from ui.widgets.ab_judge import AbJudgeOptions
from ui.widgets.ab_quality import AbQualityOptions
from ui.widgets.ab_sims import AbSimPanel

# AbSection's concurrency bounds: a typo is not saved as a level (the run itself refuses it with a message)
_MAX_LEVEL, _MAX_LEVELS = 100_000, 64


def _sim_part(sims: AbSimPanel, index: int) -> FieldBinding:
    """One of the simulated servers' four boxes (model, GPU, A's format, B's format), through the panel: while
    servers run, a loaded value waits until they stop."""
    return custom(lambda: sims.setup()[index], lambda value: sims.set_part(index, value))


def ab_binding(sides: SidesPanel, sims: AbSimPanel, load: LoadPanel, quality: AbQualityOptions,
               judge: AbJudgeOptions) -> SectionBinding[AbSection]:  # fmt: skip
    fields: dict[str, FieldBinding] = {}
    for name, prefix in (("A", "a"), ("B", "b")):
        for key in ("url", "model", "label"):
            fields[f"{prefix}_{key}"] = text(sides.sides[name][key])
    fields.update({
        "sim_model": _sim_part(sims, 0),
        "sim_gpu": _sim_part(sims, 1),
        "sim_weights_a": _sim_part(sims, 2),
        "sim_weights_b": _sim_part(sims, 3),
        "sim_source": custom(lambda: sims.origin, lambda value: setattr(sims, "origin", value)),
        "prompts_file": custom(lambda: load.prompts.text().strip(), load.set_prompts_file),
        "answers": spin(load.answers),
        "requests": spin(load.requests),
        "concurrency": custom(
            lambda: [c for c in load.levels() if 1 <= c <= _MAX_LEVEL][:_MAX_LEVELS] or list(DEFAULT_LEVELS),
            lambda levels: load.concurrency.setText(",".join(str(c) for c in levels))),
        "max_tokens": spin(load.max_tokens),
        "builtin_samples": check(quality.builtin),
        "quality_drop_points": spin(quality.drop),
        "task": text(quality.task),
        "task_limit": spin(quality.task_limit),
        "task_dataset": text(quality.dataset.edit),
        "task_subset": text(quality.subset),
        "task_prompt_template": text(quality.template),
        # never an API key, and never one written into the URL
        "judge_url": custom(lambda: redact_url(judge.url.text().strip()), judge.url.setText),
        "judge_model": text(judge.model),
    })  # fmt: skip
    return SectionBinding(AbSection, fields)
