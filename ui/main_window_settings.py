"""The main window's settings: the language (switched at once, every visible text), the theme (the charts
follow), the Sizing defaults, the welcome banner's "don't show again", and saving them."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication

from advisor import i18n
from advisor.i18n import tr
from advisor.settings import Settings, save_settings


class SettingsMixin:
    """Part of :class:`ui.main_window.MainWindow`. A settings file that cannot be written is said in the status
    bar; the choice still holds for this session."""

    settings: Settings

    def set_language(self, lang: str) -> None:
        """Switch every visible text now, and remember the choice."""
        w: Any = self
        i18n.set_language(lang)
        self.settings = self.settings.model_copy(update={"language": i18n.current_language()})
        self._save_settings()
        w.retranslate()
        w.language_changed.emit(i18n.current_language())

    def _dismiss_welcome(self) -> None:
        self.settings = self.settings.model_copy(update={"show_welcome": False})
        self._save_settings()

    def _save_settings(self) -> None:
        try:
            save_settings(self.settings)
        except OSError as exc:
            w: Any = self
            w.statusBar().showMessage(tr("ui.error.settings_not_saved", error=str(exc)), 10000)

    def open_settings_dialog(self) -> None:
        from ui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self)
        if self.exec_dialog(dialog):
            self.apply_settings(dialog.result_settings())

    def exec_dialog(self, dialog: Any) -> bool:
        """Seam for tests: they replace this to answer dialogs without a modal loop."""
        return bool(dialog.exec())

    def apply_settings(self, new: Settings) -> None:
        w: Any = self
        old = self.settings
        self.settings = new
        self._save_settings()
        if new.theme != old.theme:
            from ui.theme import apply_theme

            apply_theme(QApplication.instance(), new.theme)
            for name in ("sizing_page", "benchmark_page", "wizard_page"):  # a page built later follows when shown
                if (page := w.built_page(name)) is not None:
                    page.apply_theme()
        if new.sizing_defaults != old.sizing_defaults:
            w.sizing_page.set_defaults(new.sizing_defaults)
        lang = new.effective_language()
        if lang != i18n.current_language():
            i18n.set_language(lang)
            w.retranslate()
            w.language_changed.emit(lang)
