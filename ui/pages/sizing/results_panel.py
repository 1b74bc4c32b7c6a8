"""The Sizing page's results: the overview (``SizingOverview``), the All GPUs table with its caption, and the
predicted latency curve, as tabs; greyed (``StalePanel``) while the inputs are invalid and the figures are the
last valid ones."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QTabWidget, QVBoxLayout

from advisor.domain.sizing import SizingRequest
from advisor.i18n import tr
from advisor.sizing import WEIGHT_FORMATS
from advisor.units import format_context
from ui.widgets.catalog_table import CatalogTable
from ui.widgets.latency_plot import LatencyPlot
from ui.widgets.sizing_overview import SizingOverview
from ui.widgets.stale import StalePanel


class ResultsPanel(StalePanel):
    """``gpu_chosen``: (GPU id, GPU count or None) of an All GPUs row the user double-clicked."""

    gpu_chosen = Signal(object, object)
    catalog_shown = Signal()
    curve_shown = Signal()

    def __init__(self) -> None:
        self.results_tabs = QTabWidget()
        super().__init__(self.results_tabs)
        self.overview = SizingOverview()
        overview_scroll = QScrollArea()
        overview_scroll.setWidgetResizable(True)
        overview_scroll.setFrameShape(QFrame.Shape.NoFrame)
        overview_scroll.setWidget(self.overview)

        self.catalog_table = CatalogTable()
        self.catalog_table.setObjectName("catalogTable")
        self.catalog_table.doubleClicked.connect(self._on_table_double_clicked)
        self.catalog_request: SizingRequest | None = None  # the inputs the All GPUs table was computed for
        table_page = QFrame()
        tcol = QVBoxLayout(table_page)
        self.table_caption = QLabel()
        self.table_caption.setWordWrap(True)
        tcol.addWidget(self.table_caption)
        tcol.addWidget(self.catalog_table, 1)

        self.curve = LatencyPlot()
        self.results_tabs.addTab(overview_scroll, "")
        self.results_tabs.addTab(table_page, "")
        self.results_tabs.addTab(self.curve, "")

    def retranslate(self) -> None:
        self.overview.retranslate()
        self.results_tabs.setTabText(0, tr("ui.sizing.tab_overview"))
        self.results_tabs.setTabText(1, tr("ui.sizing.tab_catalog"))
        self.results_tabs.setTabText(2, tr("ui.sizing.tab_curve"))
        self.catalog_table.retranslate()
        self.curve.retranslate()

    def set_theme(self, dark: bool) -> None:
        self.overview.set_theme(dark)
        self.curve.set_theme(dark)

    # -- All GPUs ----------------------------------------------------------------------------------------------
    def computing_catalog(self) -> None:
        self.table_caption.setText(tr("ui.sizing.table_computing"))

    def show_catalog(self, rows: list[Any], request: SizingRequest) -> None:
        self.catalog_request = request  # which inputs the table shows (a slow table can lag the overview)
        self.catalog_table.set_rows(rows, request.gpus)
        fits = sum(1 for r in rows if r.fits_now)
        weights = WEIGHT_FORMATS[request.weights].label if request.weights in WEIGHT_FORMATS else request.weights
        self.table_caption.setText(tr("ui.sizing.table_caption", model=request.model.name, weights=weights,
                                      context=format_context(request.context), n=request.concurrency,
                                      gpus=request.gpus, fits=fits, total=len(rows)))  # fmt: skip
        self.catalog_shown.emit()

    def catalog_failed(self, exc: BaseException) -> None:
        self.table_caption.setText(tr("ui.sizing.cannot_estimate", reason=str(exc)))

    def _on_table_double_clicked(self, index) -> None:
        gpu_id = self.catalog_table.proxy.data(index, Qt.ItemDataRole.UserRole)
        row = next((r for r in self.catalog_table.source.rows if r.gpu_id == gpu_id), None)
        if row is None:
            return
        self.gpu_chosen.emit(gpu_id, row.gpus_needed)
        self.results_tabs.setCurrentIndex(0)

    # -- the latency curve -------------------------------------------------------------------------------------
    def show_curve(self, prediction: Any) -> None:
        if prediction is None:
            self.curve.set_unavailable(tr("ui.curve.unavailable"))
        else:
            self.curve.set_prediction(prediction)
        self.overview.show_likely(prediction)  # the regime's likely range beside the overview's speeds (#28)
        self.curve_shown.emit()

    def curve_failed(self, exc: BaseException) -> None:
        self.overview.show_likely(None)
        # The simulator's own errors are sentences for the user (translated); anything else is a failure.
        if isinstance(exc, ValueError):
            self.curve.set_unavailable(str(exc))
        else:
            self.curve.set_unavailable(tr("ui.curve.failed", reason=str(exc)))
        self.curve_shown.emit()
