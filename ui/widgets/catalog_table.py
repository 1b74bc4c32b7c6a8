"""Sortable table of the whole GPU catalog for the current model and workload."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from advisor.i18n import tr
from advisor.sizing.fleet import CatalogRow
from advisor.units import format_count, format_gib, format_ms, format_tokens_per_s

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
COLUMNS = ("gpu", "memory", "fits", "gpus_needed", "max_concurrency", "tokens_total", "tokens_user", "ttft")
SPEED_COLUMNS = ("tokens_total", "tokens_user", "ttft")


class CatalogModel(QAbstractTableModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[CatalogRow] = []
        self.requested_gpus = 1

    def set_rows(self, rows: list[CatalogRow], requested_gpus: int) -> None:
        self.beginResetModel()
        self.rows = rows
        self.requested_gpus = requested_gpus
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return tr(f"ui.table.{COLUMNS[section]}", gpus=self.requested_gpus)
        if role == Qt.ItemDataRole.ToolTipRole:
            return tr(f"ui.table.tip.{COLUMNS[section]}", gpus=self.requested_gpus)
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        col = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, col)
        if role == SORT_ROLE:
            return self._sort_key(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col != "gpu":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == "fits":
            return QColor("#2e7d32") if row.fits_now else QColor("#c62828")
        if role == Qt.ItemDataRole.ForegroundRole and col in SPEED_COLUMNS and not row.fits_now:
            return QColor("#8a8a8a")  # muted: not the speed of what was asked (readable on light and dark)
        if role == Qt.ItemDataRole.ToolTipRole and col in SPEED_COLUMNS + ("max_concurrency",) and not row.fits_now:
            return self._why_not(row)
        if role == Qt.ItemDataRole.UserRole:
            return row.gpu_id
        return None

    def _text(self, row: CatalogRow, col: str) -> str:
        if col == "gpu":
            return row.gpu_name + (f" ({tr('sizing.choices.custom')})" if row.user_defined else "")
        if col == "memory":
            return format_gib(row.memory_bytes, 0)
        if col == "fits":
            return tr("common.yes") if row.fits_now else tr("common.no")
        if col == "gpus_needed":
            return str(row.gpus_needed) if row.gpus_needed else tr("ui.table.too_big")
        if row.gpus_needed is None:  # no speed for a setup that cannot run: say so, with the reason as the tooltip
            return tr("ui.table.does_not_fit")
        if col == "max_concurrency":
            return format_count(row.max_concurrency)
        value = {"tokens_total": lambda: format_tokens_per_s(row.tokens_per_s_total),
                 "tokens_user": lambda: format_tokens_per_s(row.tokens_per_s_user),
                 "ttft": lambda: format_ms(row.ttft_ms)}[col]()
        if not row.fits_now:  # the speed on the GPUs it needs, never shown as the speed of the count asked for
            return tr("ui.table.at_gpus", value=value, gpus=row.gpus_needed)
        return value

    def _why_not(self, row: CatalogRow) -> str:
        if row.gpus_needed is None:
            return tr("ui.table.why_not.too_big", gpus=self.requested_gpus)
        return tr("ui.table.why_not.needs", gpus=self.requested_gpus, needed=row.gpus_needed)

    @staticmethod
    def _sort_key(row: CatalogRow, col: str) -> Any:
        missing = row.gpus_needed is None
        return {
            "gpu": row.gpu_name.lower(),
            "memory": row.memory_bytes,
            "fits": int(row.fits_now),
            "gpus_needed": row.gpus_needed if row.gpus_needed else 10_000,
            "max_concurrency": -1 if missing else row.max_concurrency,
            "tokens_total": -1.0 if missing else row.tokens_per_s_total,
            "tokens_user": -1.0 if missing else row.tokens_per_s_user,
            "ttft": 1e18 if missing else row.ttft_ms,
        }[col]


class CatalogTable(QTableView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = CatalogModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.source)
        self.proxy.setSortRole(SORT_ROLE)
        self.setModel(self.proxy)
        self.setSortingEnabled(True)
        self.sortByColumn(COLUMNS.index("tokens_total"), Qt.SortOrder.DescendingOrder)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)

    def set_rows(self, rows: list[CatalogRow], requested_gpus: int) -> None:
        self.source.set_rows(rows, requested_gpus)

    def retranslate(self) -> None:
        self.source.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        if self.source.rows:
            self.source.dataChanged.emit(self.source.index(0, 0), self.source.index(len(self.source.rows) - 1, len(COLUMNS) - 1))
