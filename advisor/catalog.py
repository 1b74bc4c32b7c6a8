"""GPU catalog and model presets from ``resources/``, plus the user's own GPUs.

Rows are validated by the domain types on load; a broken row is an error naming the file and the field,
never a silently wrong number.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from advisor.atomic import write_text_atomic
from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.model_import import ModelImportError, model_from_config
from advisor.paths import data_dir
from advisor.resources import load_json, resource_path

__all__ = [
    "CatalogError", "ModelImportError", "add_user_gpu", "get_gpu", "get_model", "load_gpus", "load_models",
    "model_from_config", "resolve_model", "user_gpus_path",
]  # fmt: skip

_GPU_LIST = TypeAdapter(list[GpuSpec])


class CatalogError(LookupError):
    """An unknown GPU/model id, or a broken catalog file."""


@cache
def _builtin_gpus() -> tuple[GpuSpec, ...]:
    try:
        return tuple(_GPU_LIST.validate_python(load_json("gpus", "catalog.json")))
    except ValidationError as exc:
        raise CatalogError(f"resources/gpus/catalog.json is invalid: {exc}") from exc


def user_gpus_path() -> Path:
    return data_dir() / "user_gpus.json"


def _user_gpus() -> list[GpuSpec]:
    path = user_gpus_path()
    if not path.exists():
        return []
    try:
        rows = _GPU_LIST.validate_json(path.read_bytes())
    except ValidationError as exc:
        raise CatalogError(f"{path} is damaged: {exc.errors()[0]['msg']}") from exc
    return [row.model_copy(update={"user_defined": True}) for row in rows]


def load_gpus() -> list[GpuSpec]:
    """Built-in GPUs followed by the user's own (a user GPU with a built-in id replaces it)."""
    user = _user_gpus()
    user_ids = {g.id for g in user}
    return [g for g in _builtin_gpus() if g.id not in user_ids] + user


def get_gpu(gpu_id: str) -> GpuSpec:
    key = gpu_id.strip().lower()
    gpus = load_gpus()
    for g in gpus:
        if g.id == key:
            return g
    for g in gpus:  # forgiving: "4090" → rtx-4090, "H100 SXM" → h100-sxm-80g
        if key.replace(" ", "-") in g.id or key == g.name.lower():
            return g
    raise CatalogError(f"unknown GPU {gpu_id!r}; `advisor gpus` lists the ids (e.g. {', '.join(g.id for g in gpus[:4])})")


def add_user_gpu(gpu: GpuSpec) -> None:
    """Save a user-defined GPU (replacing one with the same id), atomically."""
    rows = [g for g in _user_gpus() if g.id != gpu.id] + [gpu.model_copy(update={"user_defined": True})]
    write_text_atomic(user_gpus_path(), json.dumps([g.model_dump(mode="json") for g in rows], indent=2, ensure_ascii=False))


@cache
def load_models() -> tuple[ModelSpec, ...]:
    """Model presets: each file in resources/models/ wraps a real Hugging Face config.json."""
    presets = []
    for path in sorted(resource_path("models").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        try:
            presets.append(
                model_from_config(data["config"], model_id=data["id"], name=data.get("name"), hf_repo=data.get("hf_repo"))
            )
        except (KeyError, ModelImportError) as exc:
            raise CatalogError(f"model preset {path.name} is invalid: {exc}") from exc
    return tuple(presets)


def get_model(model_id: str) -> ModelSpec:
    key = model_id.strip().lower()
    models = load_models()
    for m in models:
        if m.id == key or (m.hf_repo and m.hf_repo.lower() == key):
            return m
    raise CatalogError(f"unknown model preset {model_id!r}; `advisor models` lists them, or pass a config.json path")


def resolve_model(name_or_path: str) -> ModelSpec:
    """A preset id, or a path to a config.json (or a folder holding one)."""
    path = Path(name_or_path)
    if path.is_dir() and (path / "config.json").is_file():
        path = path / "config.json"
    if path.suffix == ".json" or path.is_file():
        return model_from_config(path, model_id=path.parent.name if path.name == "config.json" else path.stem)
    return get_model(name_or_path)
