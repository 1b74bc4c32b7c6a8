"""Load and save project files (``*.advisor.json``) with atomic writes and messages a user can act on.

Errors are ``ProjectFileError`` (damaged, unreadable, not a project) or its subclass ``NewerProjectError``
(written by a newer app version: we refuse rather than silently drop what we do not understand).
Older versions are upgraded step by step through ``MIGRATIONS`` when the format changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor import __version__
from advisor.atomic import write_text_atomic
from advisor.domain.project import PROJECT_FORMAT, PROJECT_VERSION, Project
from advisor.i18n import tr

PROJECT_SUFFIX = ".advisor.json"

# from-version → function returning the next version's dict (none yet: version 1 is the first)
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


class ProjectFileError(ValueError):
    """A project file cannot be opened; ``str(exc)`` is a complete sentence for the user."""


class NewerProjectError(ProjectFileError):
    """The file was written by a newer version of the app."""


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "project"


def project_from_dict(data: Any, path: str = "") -> Project:
    if not isinstance(data, dict) or data.get("format") != PROJECT_FORMAT:
        raise ProjectFileError(tr("project.error.not_project", path=path))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ProjectFileError(tr("project.error.no_version", path=path))
    if version > PROJECT_VERSION:
        raise NewerProjectError(
            tr("project.error.newer", path=path, found=version, supported=PROJECT_VERSION, app=data.get("app_version", "?"))
        )
    while version < PROJECT_VERSION:
        data = MIGRATIONS[version](data)
        version = data["version"]
    try:
        return Project.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ProjectFileError(tr("project.error.invalid", path=path, field=_where(first["loc"]), message=message)) from exc


def load_project(path: str | Path) -> Project:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise ProjectFileError(tr("project.error.missing", path=str(path))) from exc
    except OSError as exc:
        raise ProjectFileError(tr("project.error.unreadable", path=str(path), error=exc.strerror or str(exc))) from exc
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ProjectFileError(tr("project.error.not_text", path=str(path))) from exc
    except json.JSONDecodeError as exc:
        raise ProjectFileError(tr("project.error.damaged", path=str(path), line=exc.lineno, column=exc.colno)) from exc
    return project_from_dict(data, str(path))


def project_to_json(project: Project) -> str:
    return json.dumps(project.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"


def save_project(project: Project, path: str | Path) -> Project:
    """Write atomically (a crash leaves the previous file intact); returns the project as saved."""
    saved = project.model_copy(
        update={"version": PROJECT_VERSION, "app_version": __version__, "saved_at": datetime.now(UTC)}
    )
    write_text_atomic(Path(path), project_to_json(saved))
    return saved
