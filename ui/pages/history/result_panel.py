"""The History page's Result tab: one stored run in the result view, and in words the scored quantization A/B it
was one side of (stored with both load runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from advisor.bench.history import RunHistory
from advisor.bench.quality.memo import quality_memo_lines
from advisor.i18n import current_language, tr
from ui.widgets.bench_result import ResultView


def _stored_quality(db_path: str | Path | None, run_id: str) -> list[dict[str, Any]]:
    """Scored A/Bs stored with this run; none when the database cannot be read (the run itself is shown)."""
    try:
        with RunHistory(db_path, read_only=True) as history:
            return history.quality([run_id])
    except Exception:  # the note is an extra: a database problem is said by the run view, not twice here
        return []


class ResultPanel(QWidget):
    def __init__(self, runner: Any, db_path: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.db_path = db_path
        self.result_view = ResultView(runner, db_path=db_path)
        self.result_hint = QLabel()
        self.quality_note = QLabel()
        self.quality_note.setWordWrap(True)
        self.quality_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.quality_note.hide()
        self._quality_rows: list[dict[str, Any]] = []
        layout = QVBoxLayout(self)
        layout.addWidget(self.result_hint)
        layout.addWidget(self.quality_note)
        layout.addWidget(self.result_view, 1)

    def retranslate(self) -> None:
        self.result_hint.setText("" if self.result_view.result else tr("history.page.no_result"))
        self._show_quality_note()
        self.result_view.retranslate()

    def show_run(self, run_id: str) -> bool:
        """The stored run in the view (False, and said, when it has no result to show)."""
        ok = self.result_view.show_result(run_id)
        self.result_hint.setText("" if ok else tr("history.page.no_result"))
        self._quality_rows = _stored_quality(self.db_path, run_id) if ok else []
        self._show_quality_note()
        return ok

    def _show_quality_note(self) -> None:
        lines = quality_memo_lines(self._quality_rows, current_language())
        self.quality_note.setText("\n".join(f"{tr('quality.md.title')}: {line}" for line in lines))
        self.quality_note.setVisible(bool(lines))
