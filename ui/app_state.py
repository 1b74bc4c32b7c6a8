"""What the pages share without knowing each other: the open project's file and the Sizing page's inputs.

The main window owns one ``AppState`` and keeps it current; a page that needs another page's choice reads it here
(or listens to ``project_path_changed`` / the inputs' own ``changed``) instead of reaching into that page.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from advisor.domain.sizing import SizingRequest
    from ui.sizing_inputs import SizingInputs


class AppState(QObject):
    project_path_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._project_path: Path | None = None
        self.sizing_inputs: SizingInputs | None = None  # None when the Sizing page could not start

    @property
    def project_path(self) -> Path | None:
        """The open project's file (None while it is unsaved)."""
        return self._project_path

    @project_path.setter
    def project_path(self, path: Path | None) -> None:
        if path != self._project_path:
            self._project_path = path
            self.project_path_changed.emit()

    def sizing_request(self) -> SizingRequest | None:
        """The Sizing page's request as it is now, or None (no Sizing page, or its inputs are invalid)."""
        if self.sizing_inputs is None:
            return None
        try:
            return self.sizing_inputs.request()
        except ValidationError:
            return None
