"""The A/B page's "local dataset" field beside the EvalScope task: a file or folder holding a copy of the task's
dataset, for a user offline or where ModelScope cannot be reached (``advisor ab --task-dataset``). Enabled only
while a task is named; a path that does not exist, or is not what EvalScope reads for that task, is said under
the field in words (:func:`advisor.bench.quality.task_dataset.dataset_problem`, the same check the run makes).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QWidget,
)

from advisor.bench.quality.task_dataset import dataset_problem
from advisor.i18n import tr

ERROR_STYLE = "QLabel { color: #B5472F; }"


class AbTaskDataset(QWidget):
    """Label, path field and Browse (a data file or a folder); ``note``, the field's message, is placed by the owner
    on its own line below the row (inside this widget it would make the task row two lines tall)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._task = ""
        self._subset = ""  # the task's subset field: a local copy of general_qa is looked for under that name
        self.label = QLabel()
        self.edit = QLineEdit()
        self.edit.setMinimumWidth(220)
        self.browse = QPushButton()
        # one button for both kinds: general_qa reads a file, gsm8k/ceval a folder (no Qt dialog picks either)
        self.menu = QMenu(self.browse)
        self.pick_file = self.menu.addAction("")
        self.pick_folder = self.menu.addAction("")
        self.pick_file.triggered.connect(lambda: self._set_path(self.ask_file()))
        self.pick_folder.triggered.connect(lambda: self._set_path(self.ask_folder()))
        self.browse.setMenu(self.menu)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setStyleSheet(ERROR_STYLE)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.hide()
        self.edit.textChanged.connect(self.check)
        self.edit.textEdited.connect(lambda _text: self.changed.emit())
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.edit, 1)
        row.addWidget(self.browse)
        self.set_task("")
        self.retranslate()

    def path(self) -> str:
        return self.edit.text().strip()

    def set_task(self, task: str) -> None:
        """The task named beside the field: no task, no dataset to point at (the path is kept, not sent)."""
        self._task = task.strip()
        enabled = bool(self._task)
        for w in (self.label, self.edit, self.browse):
            w.setEnabled(enabled)
        self.edit.setToolTip(tr("abtask.page.dataset_tip") if enabled else tr("abtask.page.dataset_disabled"))
        self.check()

    def set_subset(self, subset: str) -> None:
        """The subset named on the task's second row: the run checks the copy for it, so the field does too."""
        self._subset = subset.strip()
        self.check()

    def problem(self) -> str | None:
        """What is wrong with the path for the task named, or None (also None with no task or no path)."""
        return dataset_problem(self._task, self.path(), self._subset or None) if self._task else None

    def check(self) -> str | None:
        problem = self.problem()
        self.note.setText(problem or "")
        self.note.setVisible(problem is not None)
        return problem

    # seams for tests (monkeypatch to return a path)
    def ask_file(self) -> str:
        path, _ = QFileDialog.getOpenFileName(self, tr("abtask.page.dataset"), self._start_dir(),
                                              "*.jsonl *.csv *.tsv *.parquet;;* (*)")  # fmt: skip
        return path

    def ask_folder(self) -> str:
        return QFileDialog.getExistingDirectory(self, tr("abtask.page.dataset"), self._start_dir())

    def _start_dir(self) -> str:
        current = Path(self.path()).expanduser() if self.path() else None
        if current is not None and current.exists():
            return str(current if current.is_dir() else current.parent)
        return str(Path.home())

    def _set_path(self, path: str) -> None:
        if path:
            self.edit.setText(path)
            self.changed.emit()

    def retranslate(self) -> None:
        self.label.setText(tr("abtask.page.dataset"))
        self.edit.setPlaceholderText(tr("abtask.page.dataset_placeholder"))
        self.browse.setText(tr("abtask.page.browse"))
        self.pick_file.setText(tr("abtask.page.browse_file"))
        self.pick_folder.setText(tr("abtask.page.browse_folder"))
        self.set_task(self._task)  # tooltip and message in the new language
