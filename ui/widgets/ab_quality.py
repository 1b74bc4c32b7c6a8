"""The scored part of the Quantization A/B page: the option to score the built-in samples with the drop the
sample-size hint is for, and after a run the accuracy per side, the paired interval, the verdict, the
sample-size warning and the samples where the sides disagree.

Everything shown is computed by ``advisor.bench.quality`` (the same figures as ``advisor ab --json``); this
widget only lays them out.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from advisor.bench.quality.evalscope_task import INSTALL_HINT, available
from advisor.bench.quality.report import QualityResult, conclusion, planning_hint, sample_size_line
from advisor.i18n import current_language, tr
from ui.widgets.ab_task_dataset import AbTaskDataset

COLS = ("sample", "scorer", "expected", "a", "b")
WARN = "QLabel { color: #B5472F; }"


def _pts(value: float | None, sign: bool = True) -> str:
    if value is None:
        return "–"
    return f"{value * 100:+.1f}" if sign else f"{value * 100:.1f}"


class AbQualityOptions(QWidget):
    """One row above the run button: score the built-in samples, and the drop to size the run for."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.builtin = QCheckBox()
        self.drop = QDoubleSpinBox()
        self.drop.setRange(0.5, 50.0)
        self.drop.setSingleStep(0.5)
        self.drop.setDecimals(1)
        self.drop.setValue(3.0)
        self.drop_label = QLabel()
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.drop.valueChanged.connect(self._update_hint)
        # standard tasks through EvalScope: a task field when the [eval] extra is installed, else what it adds
        self.has_evalscope = available()
        self.task_label = QLabel()
        self.task = QLineEdit()
        self.task.setMaximumWidth(180)
        self.task_limit = QSpinBox()
        self.task_limit.setRange(1, 100_000)
        self.task_limit.setValue(50)
        self.task_limit_label = QLabel()
        # one subset of the task (e.g. a C-Eval subject) and the task's prompt template: --task-subset/--task-template
        self.subset_label = QLabel()
        self.subset = QLineEdit()
        self.subset.setMaximumWidth(200)
        self.template_label = QLabel()
        self.template = QLineEdit()
        # a local copy of the task's dataset (offline, or where ModelScope cannot be reached): --task-dataset
        self.dataset = AbTaskDataset()
        if self.has_evalscope:  # without the extra no task is sent, so there is nothing to check a path against
            self.task.textChanged.connect(self._task_changed)
            self.subset.textChanged.connect(self.dataset.set_subset)  # a local copy is checked for that subset
        self._task_changed(self.task.text())
        self.task_missing = QLabel()
        self.task_missing.setWordWrap(True)
        self.task_missing.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        task_fields = (self.task_label, self.task, self.task_limit_label, self.task_limit, self.subset_label,
                       self.subset, self.template_label, self.template, self.dataset)
        for w in task_fields:
            w.setVisible(self.has_evalscope)
        self.task_missing.setVisible(not self.has_evalscope)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.builtin)
        row.addSpacing(12)
        row.addWidget(self.drop_label)
        row.addWidget(self.drop)
        row.addWidget(self.hint, 1)
        task_row = QHBoxLayout()
        for w in (self.task_label, self.task, self.task_limit_label, self.task_limit):
            task_row.addWidget(w)
        task_row.addSpacing(8)
        task_row.addWidget(self.dataset, 1)
        task_row.addWidget(self.task_missing, 1)
        task_options = QHBoxLayout()  # a second row: on the task row the template field would be a sliver
        for w in (self.subset_label, self.subset):
            task_options.addWidget(w)
        task_options.addSpacing(8)
        task_options.addWidget(self.template_label)
        task_options.addWidget(self.template, 1)
        layout.addLayout(row)
        layout.addLayout(task_row)
        layout.addLayout(task_options)
        layout.addWidget(self.dataset.note)  # the local dataset's message on its own line, under the task row
        self.retranslate()

    def language(self) -> str:
        return "zh" if current_language().startswith("zh") else "en"

    def overrides(self) -> dict[str, Any]:
        """AbConfig fields from this row (merged into the page's config)."""
        out: dict[str, Any] = {"quality_drop": self.drop.value() / 100}
        if self.builtin.isChecked():
            out.update({"samples": "builtin", "language": self.language(), "answers": None})
        if self.has_evalscope and self.task.text().strip():
            out.update({"task": self.task.text().strip(), "task_limit": self.task_limit.value(),
                        "task_dataset": self.dataset.path() or None, "task_subset": self.subset.text().strip() or None,
                        "task_prompt_template": self.template.text().strip() or None})
        return out

    def _task_changed(self, task: str) -> None:
        """No task, nothing to narrow or reword: subset and template are disabled (kept, not sent) like the dataset."""
        enabled = bool(task.strip())
        for w in (self.subset_label, self.subset, self.template_label, self.template):
            w.setEnabled(enabled)
        self.dataset.set_task(task)

    def _update_hint(self) -> None:
        self.hint.setText(planning_hint(self.drop.value() / 100))

    def retranslate(self) -> None:
        self.builtin.setText(tr("quality.page.builtin"))
        self.builtin.setToolTip(tr("quality.page.builtin_tip"))
        self.drop_label.setText(tr("quality.page.drop"))
        self.drop.setSuffix(" " + tr("quality.page.points"))
        self.task_label.setText(tr("quality.page.task"))
        self.task.setPlaceholderText(tr("ui.placeholder.example", value="gsm8k, ceval, cmmlu"))
        self.task_limit_label.setText(tr("quality.page.task_limit"))
        self.subset_label.setText(tr("polish14.ab.task_subset"))
        self.subset.setPlaceholderText(tr("polish14.ab.task_subset_placeholder"))
        self.subset.setToolTip(tr("polish14.ab.task_subset_tip"))
        self.template_label.setText(tr("polish14.ab.task_template"))
        self.template.setPlaceholderText(tr("polish14.ab.task_template_placeholder"))
        self.template.setToolTip(tr("polish14.ab.task_template_tip"))
        self.task_missing.setText(tr("quality.task.missing", hint=INSTALL_HINT))
        self.dataset.retranslate()
        self._update_hint()


class AbQualityPanel(QWidget):
    """The scored result: headline figures, verdict, sample-size line, disagreements first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.quality: QualityResult | None = None
        self.title = QLabel()
        self.title.setStyleSheet("QLabel { font-weight: 600; }")
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        self.headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setStyleSheet("QLabel { font-weight: 600; }")
        self.size_line = QLabel()
        self.size_line.setWordWrap(True)
        self.simulated = QLabel()
        self.simulated.setWordWrap(True)
        self.table = QTableWidget(0, len(COLS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setMaximumHeight(220)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        for w in (self.title, self.headline, self.verdict, self.size_line, self.simulated, self.table):
            layout.addWidget(w)
        self.hide()
        self.retranslate()

    def show_quality(self, quality: QualityResult | None) -> None:
        self.quality = quality
        self.setVisible(quality is not None)
        if quality is None:
            return
        q = quality
        if q.compared:
            self.headline.setText(tr(
                "quality.page.headline", a_pct=_pts(q.a_accuracy, False), b_pct=_pts(q.b_accuracy, False),
                a_right=f"{q.a_correct:g}", b_right=f"{q.b_correct:g}", n=q.compared, diff=_pts(q.difference),
                low=_pts(q.ci_low), high=_pts(q.ci_high),
                p="–" if q.mcnemar_p is None else f"{q.mcnemar_p:.3g}"))
        else:
            self.headline.setText(tr("quality.verdict.none", samples=q.samples))
        self.verdict.setText(conclusion(q))
        self.size_line.setText(sample_size_line(q) if q.compared else "")
        self.size_line.setStyleSheet(WARN if q.too_small else "")
        self.simulated.setText(tr("quality.verdict.simulated") if q.simulated else "")
        self.simulated.setVisible(q.simulated)
        items = q.items
        self.table.setRowCount(len(items))
        for row, it in enumerate(items):
            cells = [it.prompt, it.scorer, it.expected, self._mark(it.a_score, it.a_read),
                     self._mark(it.b_score, it.b_read)]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                score = it.a_score if col == 3 else it.b_score if col == 4 else None
                if col >= 3 and (score is None or score < 0.5):
                    item.setForeground(QBrush(QColor("#E45756")))
                self.table.setItem(row, col, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, len(COLS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)

    @staticmethod
    def _mark(score: float | None, read: str | None) -> str:
        if score is None:
            return tr("quality.not_answered")
        word = tr("quality.right" if score >= 0.5 else "quality.wrong")
        return f"{word} ({read})" if read else word

    def retranslate(self) -> None:
        self.title.setText(tr("quality.md.title"))
        self.table.setHorizontalHeaderLabels([tr(f"quality.col.{c}") for c in COLS])
        self.table.setToolTip(tr("quality.page.table_tip"))
        if self.quality is not None:
            self.show_quality(self.quality)
