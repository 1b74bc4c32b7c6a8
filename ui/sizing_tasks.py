"""The Sizing page's slow work, for the worker thread: the TaskRunner calls these with its cancel token first.
The work itself is the core's (``advisor.sizing.fleet.catalog_table``, ``advisor.sizing_curve.request_curve``),
the same the speed bench and the CLI run; nothing is computed here."""

from __future__ import annotations

from typing import Any

from advisor.domain.gpu import GpuSpec
from advisor.domain.sizing import SizingRequest
from advisor.sizing.fleet import CatalogRow, catalog_table
from advisor.sizing_curve import PredictionUnavailable, request_curve

__all__ = ["CatalogRow", "PredictionUnavailable", "catalog_rows", "predict_curve"]


def catalog_rows(token: Any, request: SizingRequest, gpus: list[GpuSpec]) -> list[CatalogRow]:
    return catalog_table(request, gpus, cancel=token)


def predict_curve(token: Any, request: SizingRequest) -> Any:
    return request_curve(request, cancel=token)
