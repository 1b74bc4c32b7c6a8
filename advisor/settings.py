"""User settings (language, theme, defaults for new projects), kept outside any project file.

A versioned pydantic model stored as ``settings.json`` in ``advisor.paths.config_dir()``.
Older layouts are migrated step by step (``MIGRATIONS``); a damaged file or one written by a newer
version is set aside (renamed, never deleted) and the defaults are used, with a message saying so.
Window geometry is not here: it is a Qt detail and lives in QSettings inside ``ui/``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from advisor import i18n
from advisor.atomic import write_text_atomic
from advisor.paths import config_dir
from advisor.safe_json import JsonInputError, load_json_file

SETTINGS_VERSION = 2
SETTINGS_FILE = "settings.json"
SETTINGS_MAX_BYTES = 1024 * 1024  # a few hundred bytes in practice
MAX_RECENT = 10

_log = logging.getLogger(__name__)

LanguageChoice = Literal["system", "zh_CN", "en"]
ThemeChoice = Literal["system", "light", "dark"]


class SizingDefaults(BaseModel):
    """What a new project's sizing page starts with."""

    model_config = ConfigDict(extra="ignore")

    model_id: str = "qwen2.5-7b-instruct"
    gpu_id: str = "rtx-4090"
    weights: str = "bf16"
    kv_dtype: str = "bf16"
    context: int = Field(8192, ge=128, le=4_194_304, description="context length in tokens")
    concurrency: int = Field(8, ge=1, le=4096, description="requests in flight at once")
    gpus: int = Field(1, ge=1, le=64)


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    schema_version: int = SETTINGS_VERSION
    language: LanguageChoice = "system"
    theme: ThemeChoice = "system"
    sizing_defaults: SizingDefaults = Field(default_factory=SizingDefaults)
    recent_projects: list[str] = Field(default_factory=list)
    show_welcome: bool = Field(True, description="the first-run hints above the pages, until dismissed")

    @field_validator("recent_projects")
    @classmethod
    def _dedupe_recent(cls, value: list[str]) -> list[str]:
        seen: list[str] = []
        for item in value:
            if item and item not in seen:
                seen.append(item)
        return seen[:MAX_RECENT]

    def effective_language(self) -> str:
        """``zh_CN`` or ``en``: the chosen language, or the system's when set to "system"."""
        if self.language == "system":
            return i18n.system_language()
        return self.language

    def with_recent(self, path: str | Path) -> Settings:
        """A copy with ``path`` first in the recent-projects list."""
        item = str(Path(path).resolve())
        recent = [item] + [p for p in self.recent_projects if p != item]
        return self.model_copy(update={"recent_projects": recent[:MAX_RECENT]})


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 (first preview): ``{"version": 1, "lang": "zh"|"en"|null, "dark_mode": bool|null, "recent": [...],
    "default_gpu": "..."}``. v2 renames the keys, makes theme a three-way choice and groups the sizing defaults."""
    lang = data.get("lang")
    dark = data.get("dark_mode")
    out: dict[str, Any] = {
        "schema_version": 2,
        "language": "system" if not lang else i18n.normalize_language(lang),
        "theme": "system" if dark is None else ("dark" if dark else "light"),
        "recent_projects": list(data.get("recent") or []),
    }
    if data.get("default_gpu"):
        out["sizing_defaults"] = {"gpu_id": data["default_gpu"]}
    return out


# from-version → function producing the next version's dict
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


class SettingsFileError(ValueError):
    """The settings file cannot be used (damaged, or written by a newer version)."""


def _version_of(data: dict[str, Any]) -> int:
    version = data.get("schema_version", data.get("version"))
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SettingsFileError(i18n.tr("settings.error_no_version"))
    return version


def settings_from_dict(data: Any) -> Settings:
    """Parse any known layout, migrating older ones; raises SettingsFileError with a readable message."""
    if not isinstance(data, dict):
        raise SettingsFileError(i18n.tr("settings.error_not_object"))
    version = _version_of(data)
    if version > SETTINGS_VERSION:
        raise SettingsFileError(i18n.tr("settings.error_newer", found=version, supported=SETTINGS_VERSION))
    while version < SETTINGS_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SettingsFileError(i18n.tr("settings.error_no_migration", found=version))
        data = step(data)
        version = _version_of(data)
    try:
        return Settings.model_validate(data, strict=True)  # `true` is not a concurrency of 1
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise SettingsFileError(i18n.tr("settings.error_invalid", field=where, message=first["msg"])) from exc


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


class LoadedSettings(BaseModel):
    settings: Settings
    problem: str | None = None
    """A sentence for the user when the file could not be used (it was set aside; defaults are in effect)."""


def load_settings(path: Path | None = None) -> LoadedSettings:
    """Read the settings; never raises for a bad file (the app must always start)."""
    path = path or settings_path()
    if not path.exists():
        return LoadedSettings(settings=Settings())
    try:
        data = load_json_file(path, max_bytes=SETTINGS_MAX_BYTES)  # size, depth, NaN and huge numbers refused
        settings = settings_from_dict(data)
    except (OSError, JsonInputError, SettingsFileError) as exc:
        if isinstance(exc, SettingsFileError):
            reason = str(exc)
        elif isinstance(exc, JsonInputError):
            reason = i18n.tr("settings.error_unreadable", error=exc.reason)
        else:
            reason = i18n.tr("settings.error_unreadable", error=str(exc))
        aside = path.with_name(f"{path.name}.{time.strftime('%Y%m%d-%H%M%S')}.bak")
        try:
            path.replace(aside)
        except OSError:
            aside = path
        _log.warning("settings file %s not used: %s", path, reason)
        return LoadedSettings(settings=Settings(), problem=i18n.tr("settings.problem", reason=reason, path=str(aside)))
    return LoadedSettings(settings=settings)


def save_settings(settings: Settings, path: Path | None = None) -> None:
    path = path or settings_path()
    text = json.dumps(settings.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
    write_text_atomic(path, text, make_parents=True)  # the app's own data folder
