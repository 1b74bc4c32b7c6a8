"""Window geometry and other Qt-only state, in an INI file under config_dir (tests stay isolated)."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from advisor.paths import config_dir


def qsettings() -> QSettings:
    return QSettings(str(config_dir() / "window.ini"), QSettings.Format.IniFormat)
