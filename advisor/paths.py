"""Where the app keeps user files: platformdirs, overridable with ADVISOR_HOME (tests, portable installs)."""

from __future__ import annotations

import functools
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
    value = os.environ.get("ADVISOR_HOME")
    return _data_under(value) if value else _platform_data(tuple(os.environ.get(k) for k in _PLATFORM_ENV))


# What platformdirs reads to place the data folder (XDG on Linux, the home folder on macOS, the profile folders on
# Windows): the platform folder is remembered per value of these, as ``_data_under`` does for ADVISOR_HOME (asking
# platformdirs each time was a twentieth of a plan whose levels were simulated already, issue #27).
_PLATFORM_ENV = ("XDG_DATA_HOME", "HOME", "USERPROFILE", "APPDATA", "LOCALAPPDATA")


@functools.lru_cache(maxsize=16)
def _platform_data(env: tuple[str | None, ...]) -> Path:
    """platformdirs' data folder for the app, under the environment ``env`` (``_PLATFORM_ENV``'s values)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


@functools.lru_cache(maxsize=64)
def _data_under(root: str) -> Path:
    """``ADVISOR_HOME``'s data folder, one Path object per value (building it was most of a catalog read)."""
    return Path(root) / "data"


def config_dir() -> Path:
    """Settings (language, theme, defaults)."""
    root = _root_override()
    path = root / "config" if root else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
