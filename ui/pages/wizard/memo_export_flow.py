"""Exporting the wizard's memo: the format/language dialog, the file dialog, "replace it?", the write (through
``ui.memo_export.write_memo``, atomically) and opening the result.

``MemoExportFlow`` is mixed into the wizard page: its ``ask_*``, ``confirm_overwrite``, ``show_error`` and
``reveal`` methods are the seams tests replace on the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QMetaMethod, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QMessageBox,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from advisor import i18n
from advisor.i18n import tr
from advisor.plan.evidence_runs import measured_evidence
from ui.memo_export_memory import last_choice, last_folder, remember_choice, remember_folder
from ui.widgets.wizard_common import dialog_title


class ExportDialog(QDialog):
    """Format (Markdown / PDF) and language (the UI's or the other)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(dialog_title(tr("wizard.export.title")))
        self.fmt = QButtonGroup(self)
        self.pdf = QRadioButton(tr("wizard.export.pdf"))
        self.md = QRadioButton(tr("wizard.export.md"))
        self.pdf.setChecked(True)
        for i, b in enumerate((self.pdf, self.md)):
            self.fmt.addButton(b, i)
        self.lang = QComboBox()
        current = i18n.current_language()
        for code, label in sorted(i18n.LANGUAGES.items(), key=lambda kv: kv[0] != current):
            self.lang.addItem(label, code)
        # the last export's language and format come back (a zh memo from an English UI need not be re-picked)
        last_format, last_lang = last_choice()
        if last_format == ".md":
            self.md.setChecked(True)
        if last_lang is not None and self.lang.findData(last_lang) >= 0:
            self.lang.setCurrentIndex(self.lang.findData(last_lang))
        form = QFormLayout()
        row = QHBoxLayout()
        row.addWidget(self.pdf)
        row.addWidget(self.md)
        form.addRow(tr("wizard.export.format"), row)
        form.addRow(tr("wizard.export.language"), self.lang)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        col = QVBoxLayout(self)
        col.addLayout(form)
        col.addWidget(buttons)

    def choice(self) -> tuple[str, str]:
        return (".pdf" if self.pdf.isChecked() else ".md"), self.lang.currentData()

    def accept(self) -> None:
        remember_choice(*self.choice())
        super().accept()


class MemoExportFlow(QWidget):
    """The export steps; the wizard page is one (it gives the plan: ``result``, ``state``, ``step``, and the
    hooks below)."""

    message = Signal(str)
    memo_written = Signal(str)
    error_raised = Signal(str, str)  # (title, text): the window shows it
    result: Any = None
    state: Any = None
    step = 0

    def validate_step(self, index: int) -> bool:
        raise NotImplementedError

    def result_is_current(self) -> bool:
        raise NotImplementedError

    def compute_plan(self, inline: bool = True, compare: bool = False) -> None:
        raise NotImplementedError

    def plan_error_text(self) -> str:
        raise NotImplementedError

    def ask_export(self) -> tuple[str, str] | None:
        """Seam for tests: (suffix, language) or None when cancelled."""
        dialog = ExportDialog(self)
        if not dialog.exec():
            return None
        return dialog.choice()

    def ask_memo_path(self, suffix: str, lang: str) -> str:
        """Seam for tests (monkeypatch to return a path)."""
        project = self.state.project_path if self.state is not None else None
        folder = last_folder() or (Path(project).parent if project else Path.home())
        name = f"{tr('wizard.export.default_name')}-{lang}{suffix}"
        filters = tr("wizard.export.filter_pdf") if suffix == ".pdf" else tr("wizard.export.filter_md")
        path, _ = QFileDialog.getSaveFileName(
            self, dialog_title(tr("wizard.export.title")), str(folder / name), filters,
            options=QFileDialog.Option.DontConfirmOverwrite,
        )  # fmt: skip
        if path and not path.lower().endswith(suffix):
            path += suffix
        return path

    def confirm_overwrite(self, path: Path) -> bool:
        """Seam for tests: the file exists — replace it?"""
        answer = QMessageBox.question(
            self, dialog_title(tr("wizard.export.title")), tr("wizard.export.exists", path=str(path)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No,
        )  # fmt: skip
        return answer == QMessageBox.StandardButton.Yes

    def show_error(self, title: str, text: str) -> None:
        """Seam for tests: the window shows it (``error_raised``), or a message box when nobody listens."""
        if self.isSignalConnected(QMetaMethod.fromSignal(self.error_raised)):
            self.error_raised.emit(title, text)
        else:
            QMessageBox.warning(self, title, text)

    def reveal(self, path: Path) -> None:
        """Open the memo (or its folder) with the desktop's own application. Seam for tests."""
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(path.parent)))

    def export_memo(self) -> Path | None:
        """The memo of the answers as they are now (re-planned first when they changed since the last plan)."""
        from ui.widgets.wizard_fields import STEPS

        if self.step < len(STEPS) and not self.validate_step(self.step):
            return None
        if not self.result_is_current():
            self.compute_plan(inline=True)
            if self.result is None:
                self.show_error(dialog_title(tr("wizard.export.title")), self.plan_error_text())
                return None
        choice = self.ask_export()
        if not choice:
            return None
        suffix, lang = choice
        path = self.ask_memo_path(suffix, lang)
        if not path:
            return None
        return self.write_memo_to(Path(path), lang)

    def write_memo_to(self, path: Path, lang: str) -> Path | None:
        from advisor.plan.memo import MemoError
        from ui.memo_export import write_memo

        if self.result is None:
            self.show_error(dialog_title(tr("wizard.export.title")), tr("wizard.export.no_plan"))
            return None
        if path.exists():
            if not self.confirm_overwrite(path):
                return None
        project = self.state.project_path if self.state is not None else None
        evidence = measured_evidence(self.result, project_path=project)
        try:
            write_memo(self.result, path, lang, evidence=evidence, overwrite=True)
        except (MemoError, OSError, ValueError) as exc:
            self.show_error(
                dialog_title(tr("wizard.export.title")),
                tr("wizard.export.failed", path=str(path), error=str(exc)),
            )
            return None
        remember_folder(path.parent)
        self.message.emit(tr("wizard.export.done", path=str(path)))
        self.memo_written.emit(str(path))
        self.reveal(path)
        return path
