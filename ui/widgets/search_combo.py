"""A picker with type-to-search: an editable combo box whose completer matches anywhere in the name."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QCompleter, QWidget


class SearchCombo(QComboBox):
    """Items are (label, data). ``picked`` fires with the data of a real item, never with half-typed text."""

    picked = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setMaxVisibleItems(20)
        completer = QCompleter(self.model(), self)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.setCompleter(completer)
        self.currentIndexChanged.connect(self._on_index)
        self.lineEdit().editingFinished.connect(self._restore_text)
        self._last_data: object = None

    def set_items(self, items: list[tuple[str, object]], current: object = None) -> None:
        self.blockSignals(True)
        self.clear()
        for label, data in items:
            self.addItem(label, data)
        self.blockSignals(False)
        if current is not None:
            self.select_data(current, emit=False)

    def select_data(self, data: object, emit: bool = True) -> bool:
        index = self.findData(data)
        if index < 0:
            return False
        self.blockSignals(not emit)
        self.setCurrentIndex(index)
        self._last_data = data
        self.blockSignals(False)
        return True

    def search(self, text: str) -> list[object]:
        """Data of the items whose label contains ``text`` (what the completer shows)."""
        low = text.lower()
        return [self.itemData(i) for i in range(self.count()) if low in self.itemText(i).lower()]

    def _on_index(self, index: int) -> None:
        if index < 0:
            return
        data = self.itemData(index)
        if data != self._last_data:
            self._last_data = data
            self.picked.emit(data)

    def _restore_text(self) -> None:
        # Typed text that matches no item is not a choice: show the current item again.
        index = self.currentIndex()
        if index >= 0 and self.lineEdit().text() != self.itemText(index):
            match = self.findText(self.lineEdit().text(), Qt.MatchFlag.MatchFixedString)
            if match >= 0:
                self.setCurrentIndex(match)
            else:
                self.lineEdit().setText(self.itemText(index))
