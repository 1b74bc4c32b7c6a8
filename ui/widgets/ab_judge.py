"""The A/B page's judge: an OpenAI-compatible endpoint whose model scores the samples whose scorer is "rubric"
(``advisor ab --judge-url/--judge-model/--judge-key-env`` on the command line). Optional: without it those samples
are left unscored and counted, never passed or failed.

The judge's API key is typed here for this session only: it is never saved in the project file, the history or
the report (the judge is shown as "model @ URL" without credentials). The prompt the judge reads is shown on
request, in the language of the samples, exactly as it is sent."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QMessageBox, QPushButton, QWidget

from advisor.bench.quality.judge import prompt_template
from advisor.i18n import current_language, tr


class AbJudgeOptions(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.url = QLineEdit()
        self.model = QLineEdit()
        self.model.setMaximumWidth(200)
        self.key = QLineEdit()
        self.key.setEchoMode(QLineEdit.EchoMode.Password)  # typed for this session, never saved
        self.key.setMaximumWidth(160)
        self.prompt_button = QPushButton()
        self.prompt_button.clicked.connect(self.show_prompt)
        self.model_label, self.key_label = QLabel(), QLabel()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for w in (self.label, self.url, self.model_label, self.model, self.key_label, self.key, self.prompt_button):
            row.addWidget(w)
        row.setStretchFactor(self.url, 2)
        self.retranslate()

    def overrides(self) -> dict[str, Any]:
        """AbConfig fields: both or neither (one without the other is refused by AbConfig with its message)."""
        url, model = self.url.text().strip(), self.model.text().strip()
        if not url and not model:
            return {}
        return {"judge_url": url or None, "judge_model": model or None}

    def api_key(self) -> str | None:
        return self.key.text() or None

    def prompt_text(self) -> str:
        return prompt_template("zh_CN" if current_language().startswith("zh") else "en")

    def show_prompt(self) -> None:
        box = QMessageBox(self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # the prompt is shown as sent, never as markup
        box.setWindowTitle(tr("abjudge.prompt_title"))
        box.setText(tr("abjudge.prompt_intro") + "\n\n" + self.prompt_text())
        box.open()
        self.prompt_box = box  # kept for tests and so it is not collected while open

    def retranslate(self) -> None:
        self.label.setText(tr("abjudge.label"))
        self.url.setPlaceholderText(tr("ui.placeholder.example", value="https://api.example.com/v1"))
        self.url.setToolTip(tr("abjudge.url_tip"))
        self.model_label.setText(tr("abjudge.model"))
        self.key_label.setText(tr("abjudge.key"))
        self.key.setToolTip(tr("abjudge.key_tip"))
        self.prompt_button.setText(tr("abjudge.show_prompt"))
