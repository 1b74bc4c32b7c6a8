"""规模估算 Sizing page, one file per panel: page.py (the page: inputs ↔ estimate, the project section),
inputs_panel.py (the inputs column: model_panel.py, workload_panel.py, hardware_panel.py) and results_panel.py
(overview, All GPUs, latency curve)."""

from ui.pages.sizing.hardware_panel import TP_CHOICES
from ui.pages.sizing.page import SLOW_DEBOUNCE_MS, THROTTLE_MS, SizingPage
from ui.pages.sizing.workload_panel import CONTEXT_STEPS

__all__ = ["CONTEXT_STEPS", "SLOW_DEBOUNCE_MS", "THROTTLE_MS", "TP_CHOICES", "SizingPage"]
