"""Where the app keeps user files: platformdirs, overridable with ADVISOR_HOME (tests, portable installs)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "inference-advisor"


def _root_override() -> Path | None:
    value = os.environ.get("ADVISOR_HOME")
    return Path(value) if value else None


def data_dir() -> Path:
    """Benchmark store, user GPU catalog additions."""
    root = _root_override()
    path = root / "data" if root else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    """Settings (language, theme, defaults)."""
    root = _root_override()
    path = root / "config" if root else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
