"""A page that is not built yet says what is coming, in the user's language."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from advisor.i18n import tr


class PlaceholderPage(QWidget):
    def __init__(self, title_key: str, body_key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._title_key = title_key
        self._body_key = body_key
        self.title = QLabel()
        self.title.setObjectName("pageTitle")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.title.setFont(font)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.PlainText)
        self.coming = QLabel()
        self.coming.setObjectName("comingSoon")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 32, 32, 32)
        layout.addWidget(self.title)
        layout.addWidget(self.body)
        layout.addSpacing(12)
        layout.addWidget(self.coming)
        layout.addStretch(1)
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(tr(self._title_key))
        self.body.setText(tr(self._body_key))
        self.coming.setText(tr("ui.placeholder.coming"))
