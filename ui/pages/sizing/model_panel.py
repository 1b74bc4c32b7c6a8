"""The Sizing page's model group: the model picker, "Import config.json…" (also by dropping the file on the page),
what the model is, and a refused import's reason next to the field."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QFormLayout, QGroupBox, QLabel, QPushButton, QWidget

from advisor import catalog
from advisor.domain.model import ModelSpec
from advisor.i18n import tr
from advisor.units import format_context
from advisor.validation import validation_problems
from ui.widgets.search_combo import SearchCombo
from ui.widgets.sizing_overview import ERROR_STYLE


class ModelPanel(QGroupBox):
    """``picked``: a model id the user chose; ``import_requested``: a config.json path the user chose."""

    picked = Signal(object)
    import_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.last_import: Path | None = None  # re-read on a language switch while its error is shown
        form = QFormLayout(self)
        self.model_picker = SearchCombo()
        self.model_picker.setObjectName("modelPicker")
        self.model_picker.picked.connect(self.picked)
        self.import_button = QPushButton()
        self.import_button.setObjectName("importConfig")
        self.import_button.clicked.connect(self._on_import_clicked)
        self.model_error = QLabel()
        self.model_error.setObjectName("modelError")
        self.model_error.setWordWrap(True)
        self.model_error.setStyleSheet(ERROR_STYLE)
        self.model_error.hide()
        self.model_info = QLabel()
        self.model_info.setWordWrap(True)
        self.model_info.setObjectName("modelInfo")
        self.drop_hint = QLabel()
        self.drop_hint.setWordWrap(True)
        self.drop_hint.setStyleSheet("color: palette(mid)")
        self.label_model = QLabel()
        form.addRow(self.label_model, self.model_picker)
        form.addRow("", self.import_button)
        form.addRow(self.model_error)  # whole rows: the field column is narrow
        form.addRow(self.model_info)
        form.addRow(self.drop_hint)

    def retranslate(self) -> None:
        self.setTitle(tr("ui.sizing.group_model"))
        self.label_model.setText(tr("ui.sizing.model"))
        self.import_button.setText(tr("ui.sizing.import"))
        self.import_button.setToolTip(tr("ui.sizing.import_tip"))
        self.drop_hint.setText(tr("ui.sizing.drop_hint"))
        self.model_picker.lineEdit().setPlaceholderText(tr("ui.sizing.search"))

    def show_model(self, m: ModelSpec) -> None:
        kind = "MoE" if m.is_moe else tr("ui.sizing.dense")
        self.model_info.setText(tr("ui.sizing.model_info", arch=m.architecture, kind=kind, attention=m.attention_kind,
                                   layers=m.num_layers, context=format_context(m.max_context)))  # fmt: skip

    # -- import config.json ------------------------------------------------------------------------------------
    def ask_config_path(self) -> str:
        """Seam for tests (monkeypatch to return a path)."""
        path, _ = QFileDialog.getOpenFileName(self, tr("ui.sizing.import"), str(Path.home()), "config.json (*.json);;* (*)")
        return path

    def _on_import_clicked(self) -> None:
        path = self.ask_config_path()
        if path:
            self.import_requested.emit(path)

    def read_config(self, path: str | Path) -> ModelSpec | None:
        """A Hugging Face config.json as a model; a refusal is said next to the field (None), never a traceback."""
        path = Path(path)
        self.last_import = path
        model_id = path.parent.name if path.name == "config.json" and path.parent.name else path.stem
        try:
            model = catalog.model_from_config(path, model_id=model_id or "imported", name=model_id or None)
        except catalog.ModelImportError as exc:
            # the core names the file it read ("/path/config.json: ..."); the label already says which file
            reason = str(exc).removeprefix(f"{path}: ")
        except ValidationError as exc:
            reason = validation_problems(exc)[0][1]
        except (OSError, ValueError, TypeError, KeyError) as exc:
            reason = str(exc)
        else:
            self.model_error.hide()
            return model
        self.show_error(tr("ui.sizing.import_failed", file=path.name, reason=reason))
        return None

    def show_error(self, text: str) -> None:
        self.model_error.setText(text)
        self.model_error.show()
        QTimer.singleShot(0, self.fit_error)  # once the label has its width in the laid-out column

    def fit_error(self) -> None:
        # A word-wrapped label's height depends on its width, which the form inside the scrolling inputs column
        # does not ask for: a long reason (a refused quantization names what is supported) overlapped the rows
        # below it. Reserve the height its text needs at the width it has.
        label = self.model_error
        if label.isVisible() and label.width() > 0:
            label.setMinimumHeight(label.heightForWidth(label.width()))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.fit_error()
