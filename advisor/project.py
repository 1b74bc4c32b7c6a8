"""Load and save project files (``*.advisor.json``) with atomic writes and messages a user can act on.

Errors are ``ProjectFileError`` (damaged, unreadable, not a project) or its subclass ``NewerProjectError``
(written by a newer app version: we refuse rather than silently drop what we do not understand).
Older versions are upgraded step by step through ``MIGRATIONS`` when the format changes.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor import __version__
from advisor.atomic import write_text_atomic
from advisor.domain.project import PROJECT_FORMAT, PROJECT_VERSION, Project
from advisor.domain.sizing import SpeedFactors
from advisor.i18n import tr
from advisor.safe_json import JsonInputError, loads, read_bounded

PROJECT_SUFFIX = ".advisor.json"
PROJECT_MAX_BYTES = 32 * 1024 * 1024  # a project with every result is well under 1 MiB

# The batch settings every version-1 file stored when the user left them alone: the app's old fixed defaults,
# which vLLM picks on no GPU (it takes 256 sequences / 2,048 tokens, or 1,024 / 8,192 on >= 70 GiB GPUs).
_OLD_FIXED_BATCH = {"max_num_seqs": 256, "max_num_batched_tokens": 8192}


# Factor defaults that changed since version 1 wrote every factor: the value a version-1 file holds for one left
# alone. step_overhead_ms was 1.0 ms until session 14 grounded it in NVIDIA aiconfigurator's step model (0.003 ms).
_V1_FACTOR_DEFAULTS: dict[str, Any] = {"step_overhead_ms": 1.0}


def _is_default_factor(name: str, value: Any) -> bool:
    field = SpeedFactors.model_fields.get(name)
    if field is None:
        return False
    if name in _V1_FACTOR_DEFAULTS and value == _V1_FACTOR_DEFAULTS[name]:
        return True
    default = field.default
    return list(default) == value if isinstance(default, tuple) else default == value


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 leaves what the user did not set open. Batch settings: version 1 wrote the old fixed pair instead
    of "the engine's own default on the chosen GPU"; that exact pair becomes open again, any other value was typed
    in and is kept. Speed factors: version 1 wrote every one, and a factor read back counts as chosen (an MFU
    read back would replace the measured GEMM rate), so those still at their default are dropped."""
    out = copy.deepcopy(data)
    sizing = out.get("sizing")
    request = sizing.get("request") if isinstance(sizing, dict) else None
    engine = request.get("engine") if isinstance(request, dict) else None
    if isinstance(engine, dict) and all(engine.get(k) == v for k, v in _OLD_FIXED_BATCH.items()):
        engine.update(dict.fromkeys(_OLD_FIXED_BATCH))
    factors = request.get("factors") if isinstance(request, dict) else None
    if isinstance(factors, dict):
        request["factors"] = {k: v for k, v in factors.items() if not _is_default_factor(k, v)}
    out["version"] = 2
    return out


# from-version → function returning the next version's dict
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


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
        step = MIGRATIONS.get(version)
        if step is None:
            raise ProjectFileError(tr("project.error.no_version", path=path))
        data = step(data)
        version = data["version"]
    try:
        # strict, in JSON mode: `true` is not 1 and "8" is not 8 (lax pydantic would take both), while dates
        # stay ISO strings; the data came from strict JSON, so dumping it again cannot fail
        return Project.model_validate_json(json.dumps(data, allow_nan=False), strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ProjectFileError(tr("project.error.invalid", path=path, field=_where(first["loc"]), message=message)) from exc


def load_project(path: str | Path) -> Project:
    path = Path(path)
    try:
        data = loads(read_bounded(path, PROJECT_MAX_BYTES), source=str(path), max_bytes=None)
    except JsonInputError as exc:
        raise ProjectFileError(_json_problem(exc, str(path))) from exc
    return project_from_dict(data, str(path))


def _json_problem(exc: JsonInputError, path: str) -> str:
    if exc.kind == "missing":
        return tr("project.error.missing", path=path)
    if exc.kind in ("unreadable", "is_folder"):
        return str(exc)
    if exc.kind == "not_text":
        return tr("project.error.not_text", path=path)
    if exc.kind == "syntax":
        return tr("project.error.damaged", path=path, line=exc.line, column=exc.column)
    return tr("inputs.project.bad_json", path=path, reason=exc.reason)  # too deep, too big, NaN, huge numbers


def _finite(value: Any) -> Any:
    """The JSON-ready dump with NaN/±inf as null: our own loader refuses them, so they are never written."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def project_to_json(project: Project) -> str:
    return json.dumps(_finite(project.model_dump(mode="json")), ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def save_project(project: Project, path: str | Path) -> Project:
    """Write atomically (a crash leaves the previous file intact; the file's mode and a symlink to it are kept);
    returns the project as saved."""
    saved = project.model_copy(
        update={"version": PROJECT_VERSION, "app_version": __version__, "saved_at": datetime.now(UTC)}
    )
    write_text_atomic(Path(path), project_to_json(saved))
    return saved
