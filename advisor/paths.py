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
    path = data_dir_path()
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir_path() -> Path:
    """Where ``data_dir`` is, without making it: for a read that finds nothing there when it does not exist (the user
    GPU catalog, read thousands of times a plan)."""
    root = _root_override()
    return root / "data" if root else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """Settings (language, theme, defaults)."""
    root = _root_override()
    path = root / "config" if root else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
