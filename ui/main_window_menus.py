"""The main window's actions and menus (File with Recent, Settings with Language, Help) and their texts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from advisor import i18n
from advisor.i18n import tr

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu


class MenusMixin:
    """Part of :class:`ui.main_window.MainWindow`: builds the actions and menus, names them in the current
    language and keeps File → Recent in step with the settings. The slots it connects are the window's."""

    menu_recent: QMenu
    lang_actions: dict[str, QAction]

    def _action(self, shortcut: QKeySequence.StandardKey | str | None, slot: Callable[..., Any]) -> QAction:
        action = QAction(self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        w: Any = self
        self.act_new = self._action(QKeySequence.StandardKey.New, w.new_project)
        self.act_open = self._action(QKeySequence.StandardKey.Open, w.open_project_dialog)
        self.act_save = self._action(QKeySequence.StandardKey.Save, w.save_project)
        self.act_save_as = self._action(QKeySequence.StandardKey.SaveAs, w.save_project_as)
        self.act_quit = self._action(QKeySequence.StandardKey.Quit, w.close)
        self.act_export_memo = self._action(None, w.export_memo)
        self.act_settings = self._action(QKeySequence.StandardKey.Preferences, w.open_settings_dialog)
        self.act_about = self._action(None, w.show_about)
        self.lang_group = QActionGroup(w)
        self.lang_actions = {}
        for code, label in i18n.LANGUAGES.items():
            act = QAction(label, w, checkable=True)
            act.triggered.connect(lambda _checked=False, c=code: w.set_language(c))
            self.lang_group.addAction(act)
            self.lang_actions[code] = act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.menu_file = bar.addMenu("")
        for act in (self.act_new, self.act_open):
            self.menu_file.addAction(act)
        self.menu_recent = self.menu_file.addMenu("")
        self.menu_recent.aboutToShow.connect(self._fill_recent_menu)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_save)
        self.menu_file.addAction(self.act_save_as)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_export_memo)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_quit)
        self.menu_settings = bar.addMenu("")
        self.menu_language = self.menu_settings.addMenu("")
        for act in self.lang_actions.values():
            self.menu_language.addAction(act)
        self.menu_settings.addAction(self.act_settings)
        self.menu_help = bar.addMenu("")
        self.menu_help.addAction(self.act_about)
        self._fill_recent_menu()

    def _retranslate_menus(self) -> None:
        self.menu_file.setTitle(tr("ui.menu.file"))
        self.menu_recent.setTitle(tr("ui.menu.recent"))
        self.menu_settings.setTitle(tr("ui.menu.settings"))
        self.menu_language.setTitle(tr("ui.menu.language"))
        self.menu_help.setTitle(tr("ui.menu.help"))
        self.act_new.setText(tr("ui.action.new"))
        self.act_open.setText(tr("ui.action.open"))
        self.act_save.setText(tr("ui.action.save"))
        self.act_save_as.setText(tr("ui.action.save_as"))
        self.act_quit.setText(tr("ui.action.quit"))
        self.act_export_memo.setText(tr("wizard.action.export_memo"))
        self.act_settings.setText(tr("ui.action.preferences"))
        self.act_about.setText(tr("ui.action.about"))
        current = i18n.current_language()
        for code, act in self.lang_actions.items():
            act.setChecked(code == current)

    def _fill_recent_menu(self) -> None:
        if not hasattr(self, "menu_recent"):
            return
        self.menu_recent.clear()
        recent = self.settings.recent_projects
        if not recent:
            empty = self.menu_recent.addAction(tr("ui.menu.recent_empty"))
            empty.setEnabled(False)
            return
        for item in recent:
            act = self.menu_recent.addAction(item)
            act.triggered.connect(lambda _checked=False, p=item: self._open_recent(p))

    def _open_recent(self, path: str) -> None:
        w: Any = self
        if w.maybe_save_changes():
            w.open_project(path)
