"""What the Sizing page offers to pick: the built-in model presets and GPUs, plus the models the user imported
and the GPUs the user described, by id.

Qt-free: the page's pickers show ``model_items`` / ``gpu_items`` and look a picked id up here.
"""

from __future__ import annotations

from advisor import catalog
from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.i18n import tr
from advisor.sizing.quant import WEIGHT_FORMATS


class SizingChoices:
    """``startup_problem``: why the user's own GPU file was set aside (None when it loaded)."""

    def __init__(self) -> None:
        self.startup_problem: str | None = None
        self.models: list[ModelSpec] = list(catalog.load_models())  # built-in presets: a failure is a packaging bug
        try:
            self.gpus: list[GpuSpec] = list(catalog.load_gpus())
        except catalog.CatalogError as exc:
            # The user's own GPU file is damaged: keep working with the built-in catalog and say so.
            self.gpus = list(catalog._builtin_gpus())
            self.startup_problem = tr("sizing.choices.user_gpus_damaged", error=str(exc))
        self.imported: dict[str, ModelSpec] = {}  # id → imported model (kept in the picker)
        self.custom_gpus: dict[str, GpuSpec] = {g.id: g for g in self.gpus if g.user_defined}

    def model_or_first(self, model_id: str) -> ModelSpec:
        return next((m for m in self.models if m.id == model_id), self.models[0])

    def gpu_or_first(self, gpu_id: str) -> GpuSpec:
        return next((g for g in self.gpus if g.id == gpu_id), self.gpus[0])

    def find_model(self, model_id: str) -> ModelSpec | None:
        return self.imported.get(model_id) or next((m for m in self.models if m.id == model_id), None)

    def find_gpu(self, gpu_id: str) -> GpuSpec | None:
        return self.custom_gpus.get(gpu_id) or next((g for g in self.gpus if g.id == gpu_id), None)

    def all_gpus(self) -> list[GpuSpec]:
        """The catalog's GPUs and the user's own (the All GPUs table sizes every one)."""
        return [*self.gpus, *(g for g in self.custom_gpus.values() if all(g.id != x.id for x in self.gpus))]

    def model_items(self) -> list[tuple[str, object]]:
        """(shown name, id) for the model picker; imported models say so."""
        items: list[tuple[str, object]] = [(m.name, m.id) for m in self.models]
        items += [(f"{m.name} ({tr('sizing.choices.imported')})", m.id) for m in self.imported.values()]
        return items

    def gpu_items(self) -> list[tuple[str, object]]:
        """(shown name, id) for the GPU picker; the user's own GPUs say so."""
        items: list[tuple[str, object]] = []
        for g in self.gpus:
            suffix = f" ({tr('sizing.choices.custom')})" if g.user_defined else ""
            items.append((f"{g.name}{suffix}", g.id))
        for g in self.custom_gpus.values():
            if all(g.id != x.id for x in self.gpus):
                items.append((f"{g.name} ({tr('sizing.choices.custom')})", g.id))
        return items


def weights_for_new_model(weights: str, previous: ModelSpec, model: ModelSpec) -> str:
    """The weight format once ``model`` replaces ``previous``. A checkpoint that declares its quantization (gpt-oss's
    MXFP4, DeepSeek's FP8 blocks, an AWQ repository) is sized in that format, as the engine loads it and as
    `advisor calc` does: the format follows the model, unless the user had chosen one other than the previous
    model's own (that choice stays)."""
    if weights != previous.native_weights:
        return weights
    return model.checkpoint_quant if model.checkpoint_quant in WEIGHT_FORMATS else "bf16"
