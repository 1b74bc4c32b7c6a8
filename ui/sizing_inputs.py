"""The sizing page's inputs: the Qt-free SizingRequest's fields plus where the model and GPU came from.

A plain model object that emits ``changed``; the page's widgets write to it and the page subscribes to it
(a model never holds a widget).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.domain.sizing import EngineSettings, SizingRequest, SpeedFactors


class SizingInputs(QObject):
    """The page's inputs: a SizingRequest plus where the model and GPU came from. Emits ``changed``."""

    changed = Signal()

    def __init__(self, model: ModelSpec, gpu: GpuSpec, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.fields: dict[str, Any] = {
            "model": model,
            "gpu": gpu,
            "weights": "bf16",
            "kv_dtype": "bf16",
            "context": 8192,
            "concurrency": 8,
            "gpus": 1,
            "engine": EngineSettings(),
            "engine_profile": "vllm",
            "shared_prefix_tokens": 0,  # a system prompt every request starts with (prefix caching shares it)
            "factors": SpeedFactors(),  # only what was chosen is set (an engine version); the rest are the defaults
            "speculative": None,  # speculative decoding (vLLM): off, or the method, its draft and its tokens a step
        }
        self.model_source = "preset"
        self.model_file: str | None = None
        self.gpu_source = "catalog"

    def request(self) -> SizingRequest:
        """Raises ValidationError when the combination is invalid (shown next to the fields)."""
        return SizingRequest(**self.fields)

    def update(self, **values: Any) -> None:
        changed = {k: v for k, v in values.items() if self.fields.get(k) != v}
        if not changed:
            return
        self.fields.update(changed)
        self.changed.emit()

    def set_engine(self, **values: Any) -> None:
        engine: EngineSettings = self.fields["engine"]
        self.update(engine=EngineSettings(**{**engine.model_dump(), **values}))
