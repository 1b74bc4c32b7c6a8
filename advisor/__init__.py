"""Inference Advisor core (推理部署顾问): Qt-free sizing, simulation, benchmarking, telemetry and planning.

Nothing in this package imports PySide6, pyqtgraph or the ``ui`` package; a ruff rule
(TID251) and ``tests/core/test_layering.py`` keep it that way.
"""

__version__ = "0.1.0"
