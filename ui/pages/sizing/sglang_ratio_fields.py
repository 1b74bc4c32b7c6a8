"""SGLang's two ratios for hybrid models in the Sizing page's engine settings (s20-sglang20, #28):
``swa_full_tokens_ratio`` for a sliding-window model SGLang gives a window pool, ``mamba_full_memory_ratio`` for a
linear-attention one (advisor/sizing/sglang_hybrid.py). Each row shows only when the estimate says the engine is
SGLang and the model's pool reads that ratio (``MemoryEstimate.sglang_pool_kind``); at its lowest a field reads
"engine default (N)", N being SGLang's own ratio, and leaves the setting unset."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QLabel

from advisor.domain.sizing import EngineSettings, SizingResult
from advisor.i18n import tr
from advisor.sizing.sglang_hybrid import MAMBA_FULL_MEMORY_RATIO, SWA_FULL_TOKENS_RATIO

UNSET = 0.0  # below both ranges SGLang accepts (EngineSettings: above 0): the spin boxes' "engine default"


def _ratio_box(name: str, top: float, decimals: int, step: float) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setObjectName(name)
    box.setRange(UNSET, top)
    box.setDecimals(decimals)
    box.setSingleStep(step)
    box.setKeyboardTracking(False)
    return box


class SglangRatioFields:
    """The two rows; ``edit`` receives the engine setting a user changed (None: back to SGLang's default)."""

    def __init__(self, form: QFormLayout, edit: Callable[..., None]) -> None:
        self.form = form
        # --swa-full-tokens-ratio: SGLang's help, "It should be between 0 and 1"
        self.swa_ratio = _ratio_box("swaFullTokensRatio", 1.0, 3, 0.05)
        # --mamba-full-memory-ratio: any positive number; 20 states' bytes per KV byte is beyond any deployment seen
        self.mamba_ratio = _ratio_box("mambaFullMemoryRatio", 20.0, 2, 0.1)
        self.swa_ratio.valueChanged.connect(lambda v: edit(swa_full_tokens_ratio=round(v, 3) if v > UNSET else None))
        self.mamba_ratio.valueChanged.connect(lambda v: edit(mamba_full_memory_ratio=round(v, 2) if v > UNSET else None))
        self.label_swa_ratio, self.label_mamba_ratio = QLabel(), QLabel()
        form.addRow(self.label_swa_ratio, self.swa_ratio)
        form.addRow(self.label_mamba_ratio, self.mamba_ratio)
        self.show_for(None)

    def retranslate(self) -> None:
        self.label_swa_ratio.setText("swa_full_tokens_ratio")
        self.label_mamba_ratio.setText("mamba_full_memory_ratio")
        self.swa_ratio.setToolTip(tr("sizing20_sglang20.swa_ratio_tip"))
        self.mamba_ratio.setToolTip(tr("sizing20_sglang20.mamba_ratio_tip"))
        self.swa_ratio.setSpecialValueText(tr("ui.sizing.engine_default", value=f"{SWA_FULL_TOKENS_RATIO:g}"))
        self.mamba_ratio.setSpecialValueText(tr("ui.sizing.engine_default", value=f"{MAMBA_FULL_MEMORY_RATIO:g}"))

    def show_engine(self, engine: EngineSettings) -> None:
        """The settings' values (the caller keeps the change from feeding back)."""
        self.swa_ratio.setValue(engine.swa_full_tokens_ratio or UNSET)
        self.mamba_ratio.setValue(engine.mamba_full_memory_ratio or UNSET)

    def show_for(self, res: SizingResult | None) -> None:
        """The rows the estimate's pools read: none unless SGLang sized a window pool or a state pool."""
        kind = res.memory.sglang_pool_kind if res is not None and res.perf.engine_profile == "sglang" else None
        self.form.setRowVisible(self.swa_ratio, kind == "swa")
        self.form.setRowVisible(self.mamba_ratio, kind == "state")
