"""The A/B page's prompts and load: a prompt or sample file (empty: the built-in prompts), how many prompts are
answered, and the requests, concurrency levels and output length of the speed half."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox, QWidget

from advisor.bench.ab import MAX_ANSWERS, scored_sample_count
from advisor.i18n import tr

DEFAULT_LEVELS = [1, 4]


class LoadPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prompts = QLineEdit()
        self.browse = QPushButton()
        self.browse.clicked.connect(self._browse)
        self.answers = QSpinBox()
        self.answers.setRange(1, MAX_ANSWERS)
        self.answers.setValue(8)
        # a sample file with references is scored whole: choosing one sets "Prompts answered" to its size
        self.fitted_file = ""
        self.prompts.editingFinished.connect(self._fit_answers_to_samples)
        self.requests = QSpinBox()
        self.requests.setRange(1, 10_000)
        self.requests.setValue(16)
        self.concurrency = QLineEdit(",".join(str(c) for c in DEFAULT_LEVELS))
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(1, 32_768)
        self.max_tokens.setValue(128)
        self.option_labels = {k: QLabel() for k in ("prompts", "answers", "requests", "concurrency", "max_tokens")}
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)  # laid out as the page's own row was
        row.addWidget(self.option_labels["prompts"])
        row.addWidget(self.prompts, 2)
        row.addWidget(self.browse)
        for key, widget in (("answers", self.answers), ("requests", self.requests),
                            ("concurrency", self.concurrency), ("max_tokens", self.max_tokens)):
            row.addSpacing(8)
            row.addWidget(self.option_labels[key])
            row.addWidget(widget)
        self.concurrency.setMaximumWidth(110)

    def retranslate(self) -> None:
        self.prompts.setPlaceholderText(tr("ab.page.prompts_builtin"))
        self.browse.setText(tr("ab.page.browse"))
        for key, label in self.option_labels.items():
            label.setText(tr(f"ab.page.{key}"))

    def levels(self) -> list[int]:
        """The concurrency levels as typed ("1, 4, 8"); none when a part is not a whole number."""
        try:
            return [int(x) for x in self.concurrency.text().replace(" ", "").split(",") if x]
        except ValueError:
            return []

    def set_prompts_file(self, path: str) -> None:
        """A saved file with its saved count: the count stands for that file (not refitted)."""
        self.prompts.setText(path)
        self.fitted_file = path

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("ab.page.prompts"), str(Path.home()),
                                              "JSONL / CSV / ShareGPT (*.jsonl *.json *.csv)")
        if path:
            self.prompts.setText(path)
            self._fit_answers_to_samples()

    def _fit_answers_to_samples(self) -> None:
        """A newcomer's 200 scored samples are all answered and scored, not the first 8 (the default for plain
        prompts); the user may lower it afterwards for a quick look."""
        path = self.prompts.text().strip()
        if not path or path == self.fitted_file:
            return
        self.fitted_file = path
        count = scored_sample_count(path)
        if count:
            self.answers.setValue(count)
