"""First-run hints: one line per page, above the tabs, until the user dismisses them.

Someone who installed nothing but the app opens it on the Sizing page with a worked example filled in; the
banner says so and names, for each other page, the one thing to try first (the simulated server, the wizard,
history). The buttons jump there. Dismissing is remembered in the settings (``show_welcome``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from advisor.i18n import tr

# (hint key, button key or None, page attribute on MainWindow the button opens)
HINTS: tuple[tuple[str, str | None, str | None], ...] = (
    ("ui.welcome.sizing", None, None),
    ("ui.welcome.benchmark", "ui.welcome.open_benchmark", "benchmark_page"),
    ("ui.welcome.wizard", "ui.welcome.open_wizard", "wizard_page"),
    ("ui.welcome.history", "ui.welcome.open_history", "history_page"),
)


class WelcomeBanner(QFrame):
    open_page = Signal(str)  # MainWindow attribute name of the page
    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomeBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.close_button = QPushButton()
        self.close_button.clicked.connect(self._dismiss)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(4)
        layout.addLayout(head)
        self.hint_labels: list[QLabel] = []
        self.buttons: dict[str, QPushButton] = {}
        for hint_key, button_key, page in HINTS:
            row = QHBoxLayout()
            label = QLabel()
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setProperty("i18n_key", hint_key)
            row.addWidget(label, 1)
            self.hint_labels.append(label)
            if button_key and page:
                button = QPushButton()
                button.setProperty("i18n_key", button_key)
                button.clicked.connect(lambda _checked=False, p=page: self.open_page.emit(p))
                row.addWidget(button)
                self.buttons[page] = button
            layout.addLayout(row)
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(tr("ui.welcome.title"))
        self.close_button.setText(tr("ui.welcome.dismiss"))
        for label in self.hint_labels:
            label.setText("• " + tr(label.property("i18n_key")))
        for button in self.buttons.values():
            button.setText(tr(button.property("i18n_key")))

    def _dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()
