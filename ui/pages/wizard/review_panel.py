"""The wizard's review screen: every answer shown, by step, with where a taken-over figure came from and a link
back to each step."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from advisor.i18n import tr
from advisor.plan.draft import get_path
from ui.pages.wizard.question_steps import QuestionStep


class ReviewPanel(QWidget):
    """Emits ``edit_step`` with the index of the step whose "edit" link was clicked."""

    edit_step = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.review = QLabel()
        self.review.setObjectName("review")
        self.review.setWordWrap(True)
        self.review.setTextFormat(Qt.TextFormat.RichText)
        self.review.linkActivated.connect(lambda link: self.edit_step.emit(int(link)))
        col = QVBoxLayout(self)
        col.addWidget(self.intro)
        col.addWidget(self.review)
        col.addStretch(1)

    def retranslate(self) -> None:
        self.intro.setText(tr("wizard.step.review.intro"))

    def fill(self, steps: list[QuestionStep], answers: dict[str, Any],
             prefilled: dict[str, tuple[str, dict[str, Any]]]) -> None:  # fmt: skip
        rows = []
        for i, step in enumerate(steps):
            rows.append(f"<tr><td colspan='2'><br><b>{tr(f'wizard.step.{step.step_id}.title')}</b> "
                        f"<a href='{i}'>{tr('wizard.review.edit')}</a></td></tr>")  # fmt: skip
            for path, editor in step.editors.items():
                if editor.isHidden():
                    continue
                value = get_path(answers, path)
                text = html.escape(editor.value_text(value))
                origin = prefilled.get(path)
                if origin and value is not None:  # a figure taken over says from where, here too
                    text += f" <span style='color:#2e86c1'>({html.escape(tr(origin[0], **origin[1]))})</span>"
                style = " style='color:gray'" if value is None else ""
                rows.append(f"<tr><td>{editor.label.text()}</td><td{style}>&nbsp;&nbsp;{text}</td></tr>")
        self.review.setText(f"<table>{''.join(rows)}</table><p>{tr('wizard.review.unknown_note')}</p>")
