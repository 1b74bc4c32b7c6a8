"""The History page's scope: "This project (name)" or "All runs". The project choice is greyed out when no saved
project is open; the scope follows the default (the project when it has runs, else all runs) until the user picks
one, and again from the next project opened."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QWidget

from advisor.bench.history import project_name
from advisor.i18n import tr

SCOPES = ("project", "all")


class ScopeCombo(QComboBox):
    picked = Signal()  # the user chose a scope

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        for scope in SCOPES:
            self.addItem("", scope)
        self.setCurrentIndex(SCOPES.index("all"))  # no project open yet
        self.automatic = True  # the scope follows the default until the user picks one
        self.project_id: str | None = None
        self.currentIndexChanged.connect(self._on_picked)

    def _on_picked(self, _index: int) -> None:
        self.automatic = False  # the user's choice stays until another project is opened
        self.picked.emit()

    def set_project(self, project_id: str | None) -> None:
        self.project_id = project_id
        self.automatic = True
        self.retranslate()

    def choose_default(self, project_runs: int) -> None:
        """This project when a saved project is open and has runs, else all runs (no ``picked``)."""
        self.blockSignals(True)
        self.setCurrentIndex(SCOPES.index("project" if project_runs else "all"))
        self.blockSignals(False)

    def current(self) -> str:
        return self.currentData() or "all"

    def retranslate(self) -> None:
        item = self.model().item(SCOPES.index("project"))
        if self.project_id:
            item.setText(tr("history.page.scope_project", name=project_name(self.project_id)))
            item.setToolTip(self.project_id.removeprefix("file:"))
        else:
            item.setText(tr("history.page.scope_project_none"))
            item.setToolTip(tr("history.page.scope_project_hint"))
        item.setEnabled(bool(self.project_id))
        self.setItemText(SCOPES.index("all"), tr("history.page.scope_all"))
        self.setToolTip(tr("history.page.scope_tip"))
