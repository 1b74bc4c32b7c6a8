"""Preferences: language, theme and what a new project starts with. Produces a new Settings object."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from advisor import i18n
from advisor.i18n import tr
from advisor.settings import Settings, SizingDefaults


def _select(combo: QComboBox, value: object) -> None:
    index = combo.findData(value)
    if index >= 0:
        combo.setCurrentIndex(index)


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("ui.settings.title"))
        self._settings = settings
        self.language = QComboBox()
        self.language.addItem(tr("ui.settings.language_system", name=i18n.LANGUAGES[i18n.system_language()]), "system")
        for code, label in i18n.LANGUAGES.items():
            self.language.addItem(label, code)
        _select(self.language, settings.language)
        self.theme = QComboBox()
        for code in ("system", "light", "dark"):
            self.theme.addItem(tr(f"ui.settings.theme_{code}"), code)
        _select(self.theme, settings.theme)

        d = settings.sizing_defaults
        self.model = QComboBox()
        self.gpu = QComboBox()
        self._fill_catalog(d)
        self.context = QSpinBox()
        self.context.setRange(128, 4_194_304)
        self.context.setSingleStep(1024)
        self.context.setSuffix(" tokens")
        self.context.setValue(d.context)
        self.concurrency = QSpinBox()
        self.concurrency.setRange(1, 4096)
        self.concurrency.setValue(d.concurrency)

        general = QFormLayout()
        general.addRow(tr("ui.settings.language"), self.language)
        general.addRow(tr("ui.settings.theme"), self.theme)
        defaults_box = QGroupBox(tr("ui.settings.defaults"))
        defaults = QFormLayout(defaults_box)
        defaults.addRow(tr("ui.sizing.model"), self.model)
        defaults.addRow(tr("ui.sizing.gpu"), self.gpu)
        defaults.addRow(tr("ui.sizing.context"), self.context)
        defaults.addRow(tr("ui.sizing.concurrency"), self.concurrency)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(general)
        layout.addWidget(defaults_box)
        layout.addWidget(buttons)

    def _fill_catalog(self, d: SizingDefaults) -> None:
        try:
            from advisor.catalog import load_gpus, load_models

            models = [(m.id, m.name) for m in load_models()]
            gpus = [(g.id, g.name) for g in load_gpus()]
        except Exception:  # catalog missing or broken: keep what the settings say
            models, gpus = [], []
        for combo, items, current in ((self.model, models, d.model_id), (self.gpu, gpus, d.gpu_id)):
            for ident, name in items:
                combo.addItem(name, ident)
            if combo.findData(current) < 0:
                combo.addItem(current, current)
            _select(combo, current)

    def result_settings(self) -> Settings:
        d = self._settings.sizing_defaults.model_copy(
            update={
                "model_id": self.model.currentData(),
                "gpu_id": self.gpu.currentData(),
                "context": self.context.value(),
                "concurrency": self.concurrency.value(),
            }
        )
        return self._settings.model_copy(
            update={"language": self.language.currentData(), "theme": self.theme.currentData(), "sizing_defaults": d}
        )
