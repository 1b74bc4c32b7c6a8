"""The A/B result: the verdict (with the "simulated" badge), agreement figures, the scored quality panel, speed
side by side per load level, and the two answers to each prompt next to each other (failed answers in red)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from advisor.bench.ab import AbResult, sim_setup_line
from advisor.i18n import tr
from ui.widgets.ab_quality import AbQualityPanel

SPEED_COLS = ("a", "b", "ratio", "a_tpot", "b_tpot", "a_ttft", "b_ttft")
PAIR_COLS = ("prompt", "a", "b", "similarity", "length", "identical")
FAILED_COLOUR = "#E45756"


def _num(value: float | None, digits: int = 1, suffix: str = "") -> str:
    return "–" if value is None else f"{value:.{digits}f}{suffix}"


def _table(columns: int) -> QTableWidget:
    table = QTableWidget(0, columns)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    return table


class AbResultView(QSplitter):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.result: AbResult | None = None
        self.badge = QLabel("simulated · 模拟")
        self.badge.setStyleSheet("QLabel { background: #F2CF5B; color: #222; padding: 1px 6px; border-radius: 3px; }")
        self.badge.hide()
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.PlainText)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.figures = QLabel()
        self.figures.setWordWrap(True)
        # what the simulated servers ran, as they reported it (model, GPU by name, format per side)
        self.sim_setup = QLabel()
        self.sim_setup.setObjectName("abSimSetup")
        self.sim_setup.setWordWrap(True)
        self.sim_setup.hide()
        self.quality_panel = AbQualityPanel()
        self.speed = _table(len(SPEED_COLS) + 1)
        self.pairs = _table(len(PAIR_COLS))
        self.pairs.setWordWrap(True)
        # row heights follow the column widths (known only once the table is laid out)
        self.pairs.horizontalHeader().sectionResized.connect(
            lambda *_: QTimer.singleShot(0, self.pairs, self.pairs.resizeRowsToContents))
        verdict_row = QHBoxLayout()
        verdict_row.addWidget(self.verdict, 1)
        verdict_row.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignTop)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addLayout(verdict_row)
        top_layout.addWidget(self.sim_setup)
        top_layout.addWidget(self.figures)
        top_layout.addWidget(self.quality_panel)
        top_layout.addWidget(self.speed)
        top_layout.addStretch(1)
        self.addWidget(top)
        self.addWidget(self.pairs)
        self.setSizes([200, 480])

    def show_result(self, result: AbResult) -> None:
        self.result = result
        self.badge.setVisible(result.simulated)
        setup = sim_setup_line(result)
        self.sim_setup.setText(setup or "")
        self.sim_setup.setVisible(bool(setup))
        self.verdict.setText("\n".join(result.verdict_lines))
        self.quality_panel.show_quality(result.quality)
        ag = result.agreement
        exact = None if ag.exact_match_rate is None else ag.exact_match_rate * 100
        self.figures.setText(tr("ab.page.figures", exact=_num(exact, 0, "%"), similarity=_num(ag.similarity_median, 2),
                                min_similarity=_num(ag.similarity_min, 2), length=_num(ag.length_ratio_median, 2),
                                method=tr("ab.similarity_method")))
        self._show_speed(result)
        self._show_pairs(result)

    def _show_speed(self, result: AbResult) -> None:
        self.speed.setRowCount(len(result.levels))
        for row, lv in enumerate(result.levels):
            cells = [str(lv.concurrency), _num(lv.a_output_tokens_per_s, 0), _num(lv.b_output_tokens_per_s, 0),
                     _num(lv.throughput_ratio, 2, "×"), _num(lv.a_tpot_p50_ms, 1, " ms"),
                     _num(lv.b_tpot_p50_ms, 1, " ms"), _num(lv.a_ttft_p50_ms, 0, " ms"),
                     _num(lv.b_ttft_p50_ms, 0, " ms")]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.speed.setItem(row, col, item)
        self.speed.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.speed.resizeRowsToContents()
        rows_height = sum(self.speed.rowHeight(r) for r in range(self.speed.rowCount()))
        self.speed.setFixedHeight(self.speed.horizontalHeader().height() + rows_height + 6)

    def _show_pairs(self, result: AbResult) -> None:
        self.pairs.setRowCount(len(result.pairs))
        for row, p in enumerate(result.pairs):
            a = p.a.text if p.a.ok else tr("ab.page.failed_answer", error=p.a.error or "")
            b = p.b.text if p.b.ok else tr("ab.page.failed_answer", error=p.b.error or "")
            identical = "–" if p.exact is None else tr("ab.page.yes" if p.exact else "ab.page.no")
            cells = [p.prompt, a, b, _num(p.similarity, 2), _num(p.length_ratio, 2), identical]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text if col < 3 else "")
                if col in (1, 2) and not (p.a.ok if col == 1 else p.b.ok):
                    item.setForeground(QBrush(QColor(FAILED_COLOUR)))
                self.pairs.setItem(row, col, item)
        header = self.pairs.horizontalHeader()
        for col in range(len(PAIR_COLS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch if col < 3
                                        else QHeaderView.ResizeMode.ResizeToContents)
        self.pairs.resizeRowsToContents()

    def retranslate(self) -> None:
        self.speed.setHorizontalHeaderLabels([tr("ab.col.concurrency")] + [tr(f"ab.page.speed_col.{c}") for c in SPEED_COLS])
        self.pairs.setHorizontalHeaderLabels([tr(f"ab.page.col.{c}") for c in PAIR_COLS])
        self.quality_panel.retranslate()
        if self.result is not None:
            self.show_result(self.result)
