"""GPU catalog and model presets from ``resources/``, plus the user's own GPUs.

Rows are validated by the domain types on load; a broken row is an error naming the file and the field,
never a silently wrong number.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import TypeAdapter, ValidationError

from advisor.atomic import write_text_atomic
from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.i18n import tr
from advisor.model_import import ModelImportError, model_from_config
from advisor.paths import data_dir, data_dir_path
from advisor.resources import load_json, resource_path
from advisor.safe_json import JsonInputError, load_json_file

__all__ = [
    "CatalogError", "ModelImportError", "add_user_gpu", "edit_distance", "match_id", "suggestions", "get_gpu", "get_model", "load_gpus", "load_models",
    "model_from_config", "modelscope_id", "modelscope_reupload", "resolve_model", "user_gpus_path",
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


USER_GPUS_MAX_BYTES = 4 * 1024 * 1024  # thousands of GPUs; a bigger file is not one we wrote


def _user_gpus() -> list[GpuSpec]:
    """The user's own GPUs; a damaged file is a CatalogError naming it and saying how to fix or reset it. Reading
    makes no folder (``user_gpus_path`` does, for a writer)."""
    path = data_dir_path() / "user_gpus.json"
    if not path.exists() and not path.is_symlink():
        return []
    try:
        data = load_json_file(path, max_bytes=USER_GPUS_MAX_BYTES)
        rows = _GPU_LIST.validate_python(data, strict=True)  # strict: `true` is not 1 GiB, "24" is not a number
    except JsonInputError as exc:
        raise CatalogError(tr("inputs.user_gpus.damaged", path=str(path), reason=exc.reason)) from exc
    except ValidationError as exc:
        reason = tr("inputs.user_gpus.bad_value", detail=gpu_rows_message(exc))
        raise CatalogError(tr("inputs.user_gpus.damaged", path=str(path), reason=reason)) from exc
    return [row.model_copy(update={"user_defined": True}) for row in rows]


def gpu_rows_message(exc: ValidationError) -> str:
    """The first problem of a list of GPU rows, as "GPU #2, memory_bytes: …"."""
    err = exc.errors()[0]
    loc = list(err["loc"])
    where = ""
    if loc and isinstance(loc[0], int):
        where = tr("inputs.user_gpus.row", n=loc.pop(0) + 1)
    field = ".".join(str(p) for p in loc)
    where = ", ".join(w for w in (where, field) if w) or tr("inputs.user_gpus.whole_file")
    return f"{where}: {str(err['msg']).removeprefix('Value error, ')}"


def load_gpus() -> list[GpuSpec]:
    """Built-in GPUs followed by the user's own (a user GPU with a built-in id replaces it)."""
    return list(_loaded().gpus)


def gpu_table() -> dict[str, GpuSpec]:
    """``load_gpus`` by id (a fresh dict each call)."""
    return dict(_loaded().by_id)


def _merged() -> list[GpuSpec]:
    user = _user_gpus()
    user_ids = {g.id for g in user}
    return [g for g in _builtin_gpus() if g.id not in user_ids] + user


@dataclass
class _Loaded:
    """One state of the catalog (the built-in rows and the user's file as it was read), with what ``get_gpu``
    derives from it: the id table, the (id, aliases) entries ``match_id`` reads and the names already matched."""

    gpus: tuple[GpuSpec, ...]
    by_id: dict[str, GpuSpec]
    entries: list[tuple[str, list[str]]]
    matched: dict[str, GpuSpec] = field(default_factory=dict)


# The catalog as last read, and what it was read from: the very tuple ``_builtin_gpus`` returned (held here, so a
# replaced table can never be taken for it) and the bytes of the user's file (None: no file). A plan reads the
# catalog tens of thousands of times (``gpus_by_id`` per GPU and rule), and each read validated the user's rows,
# made the data folder and built every GPU's aliases again: a seventh of a plan whose levels were simulated already
# (docs/measurements/2026-12-06-test-time-25.md). A changed file is a different key, so never a stale catalog.
_LAST: tuple[tuple[GpuSpec, ...], bytes | None, _Loaded] | None = None


def _user_file_state() -> bytes | None | Literal[False]:
    """The user's GPU file as a key: None when there is none, its bytes when it is a regular file of at most
    ``USER_GPUS_MAX_BYTES``, False for anything else (a symlink, a folder, an unreadable or oversized file), which
    is never cached: ``_user_gpus`` then says what is wrong with it, every time."""
    path = _gpus_file_in(data_dir_path())
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_size > USER_GPUS_MAX_BYTES:
        return False
    try:
        with open(path, "rb") as fh:
            return fh.read(USER_GPUS_MAX_BYTES + 1)
    except OSError:
        return False


@functools.lru_cache(maxsize=64)
def _gpus_file_in(folder: Path) -> str:
    return str(folder / "user_gpus.json")


def _loaded() -> _Loaded:
    global _LAST
    builtin, user = _builtin_gpus(), _user_file_state()
    last = _LAST
    if last is not None and last[0] is builtin and user is not False and last[1] == user:
        return last[2]
    gpus = tuple(_merged())
    made = _Loaded(gpus, {g.id: g for g in gpus}, [(g.id, _gpu_aliases(g)) for g in gpus])
    # kept only when the file read for the key is still what it is now (not rewritten while it was validated)
    if user is not False and _user_file_state() == user:
        _LAST = (builtin, user, made)
    return made


def _norm(text: str) -> str:
    """Lower case, runs of spaces/underscores/slashes as one hyphen: "H100 SXM" → "h100-sxm"."""
    return re.sub(r"[\s_/]+", "-", text.strip().lower()).strip("-")


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions), for "did you mean" suggestions."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _prefix_at_segment(name: str, key: str) -> tuple[bool, bool]:
    """(matches, whole): ``key`` starts at the beginning of a hyphen-separated segment of ``name``;
    ``whole`` when it also ends at a segment end ("4090" in "rtx-4090" is whole, in "rtx-4090d" it is not)."""
    best = (False, False)
    start = 0
    while start != -1:
        if name.startswith(key, start):
            end = start + len(key)
            whole = end == len(name) or name[end] in "-."
            if whole:
                return True, True
            best = (True, False)
        nxt = name.find("-", start)
        start = -1 if nxt == -1 else nxt + 1
    return best


MAX_ID_LENGTH = 200  # longer than any id or name; a longer text is not an id (and edit distance is quadratic)


def match_id(text: str, entries: list[tuple[str, list[str]]], kind: str) -> str:
    """The one id ``text`` names among ``entries`` (id, aliases): exact id or alias first, then an unambiguous
    prefix of a hyphen-separated segment ("4090" → rtx-4090, "h100 sxm" → h100-sxm-80g). Anything else,
    including an empty or one-character text, is a CatalogError with "did you mean" suggestions.
    ``kind`` is "gpu" or "model" (it picks the messages)."""
    key = _norm(text[:MAX_ID_LENGTH + 1])
    shown = text.strip() if len(text.strip()) <= 60 else text.strip()[:57] + "..."
    listing = tr(f"inputs.id.{kind}.listing")
    if len(re.sub(r"[^a-z0-9]", "", key)) < 1:
        raise CatalogError(tr(f"inputs.id.{kind}.empty", listing=listing))
    for ident, _ in entries:  # an exact id wins over another entry's alias
        if key == ident:
            return ident
    for ident, aliases in entries:
        if key in aliases:
            return ident
    if len(key) >= 2:
        # tiers: whole segments of the id, of an alias; then a segment's beginning in the id, in an alias
        tiers: list[list[str]] = [[], [], [], []]
        for ident, aliases in entries:
            in_id = _prefix_at_segment(ident, key)
            in_alias = [_prefix_at_segment(name, key) for name in aliases]
            if in_id[1]:
                tiers[0].append(ident)
            elif any(w for _, w in in_alias):
                tiers[1].append(ident)
            elif in_id[0]:
                tiers[2].append(ident)
            elif any(m for m, _ in in_alias):
                tiers[3].append(ident)
        found = next((t for t in tiers if t), [])
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise CatalogError(tr(f"inputs.id.{kind}.ambiguous", text=shown, matches=", ".join(found[:8]),
                                  listing=listing))  # fmt: skip
    close = suggestions(key, entries)
    if close:
        raise CatalogError(tr(f"inputs.id.{kind}.suggest", text=shown, suggestions=", ".join(close), listing=listing))
    raise CatalogError(tr(f"inputs.id.{kind}.unknown", text=shown, examples=", ".join(i for i, _ in entries[:4]),
                          listing=listing))  # fmt: skip


def suggestions(key: str, entries: list[tuple[str, list[str]]], limit: int = 3) -> list[str]:
    """Up to ``limit`` ids close to ``key`` by edit distance (to the whole id or alias, or, for keys of three
    characters or more, to its beginning: "llama3" is close to "llama-3-8b-instruct")."""
    allowed = max(1, len(key) // 3)
    if len(key) > MAX_ID_LENGTH:
        return []
    scored = []
    for ident, aliases in entries:
        best = allowed + 1
        for name in (ident, *aliases):
            if abs(len(name) - len(key)) <= allowed:  # the distance is at least the difference in length
                best = min(best, edit_distance(key, name))
            if len(key) >= 3:
                best = min(best, edit_distance(key, name[: len(key)]), edit_distance(key, name[: len(key) + 1]))
        if best <= allowed:
            scored.append((best, ident))
    return [ident for _, ident in sorted(scored)[:limit]]


_VENDOR_PREFIXES = ("nvidia geforce ", "nvidia ", "amd instinct ", "amd ", "huawei ", "intel ")


def _gpu_aliases(g: GpuSpec) -> list[str]:
    name = g.name.strip().lower()
    aliases = {_norm(name)}
    for prefix in _VENDOR_PREFIXES:
        if name.startswith(prefix):
            aliases.add(_norm(name.removeprefix(prefix)))
            break
    return sorted(aliases - {g.id})


def get_gpu(gpu_id: str) -> GpuSpec:
    """A GPU by id, full name, or an unambiguous prefix ("4090", "H100 SXM"); else CatalogError."""
    table = _loaded()
    hit = table.matched.get(gpu_id)
    if hit is None:  # only a match is remembered: an unknown name raises its message in the language of the moment
        hit = table.by_id[match_id(gpu_id, table.entries, "gpu")]
        if len(table.matched) >= 4096:  # names typed by hand or fuzzed: bounded
            table.matched.clear()
        table.matched[gpu_id] = hit
    return hit


def add_user_gpu(gpu: GpuSpec) -> None:
    """Save a user-defined GPU (replacing one with the same id), atomically."""
    rows = [g for g in _user_gpus() if g.id != gpu.id] + [gpu.model_copy(update={"user_defined": True})]
    write_text_atomic(user_gpus_path(), json.dumps([g.model_dump(mode="json") for g in rows], indent=2, ensure_ascii=False),
                      make_parents=True)  # the app's own data folder


@cache
def _preset_files() -> tuple[tuple[str, dict], ...]:
    """(file name, contents) of every preset in resources/models/, read once for the models and their aliases."""
    return tuple((p.name, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(resource_path("models").glob("*.json")))


@cache
def same_tensor_repos(model_id: str) -> tuple[str, ...]:
    """Other Hugging Face repositories a preset stands for: releases the engines load as exactly the same tensors,
    with the same context (GLM-4.6 for GLM-4.7). Naming one finds the preset instead of no match, or a prefix match
    on another model."""
    found = next((d for _, d in _preset_files() if d.get("id") == model_id), {})
    return tuple(found.get("same_tensors_as", ()))


@cache
def load_models() -> tuple[ModelSpec, ...]:
    """Model presets: each file in resources/models/ wraps a real Hugging Face config.json."""
    presets = []
    for file_name, data in _preset_files():
        try:
            presets.append(
                model_from_config(data["config"], model_id=data["id"], name=data.get("name"), hf_repo=data.get("hf_repo"))
            )
        except (KeyError, ModelImportError) as exc:
            raise CatalogError(f"model preset {file_name} is invalid: {exc}") from exc
    return tuple(presets)


def _preset_data(model_id: str) -> dict:
    """The preset file's data for ``model_id`` ({} when no preset has that id)."""
    return next((d for _, d in _preset_files() if d.get("id") == model_id), {})


@cache
def modelscope_id(model_id: str) -> str | None:
    """The preset's repository on ModelScope (modelscope.cn), where its publisher mirrors it there: what a mainland
    server downloads from (``VLLM_USE_MODELSCOPE=True``, ``modelscope download``). None where no publisher mirror is
    known: a community re-upload is not named as if it were the release."""
    return _preset_data(model_id).get("modelscope_id")


@cache
def modelscope_reupload(model_id: str) -> str | None:
    """A ModelScope re-upload of a preset whose publisher keeps no mirror there (Meta's Llama, Google's Gemma,
    Mistral and Microsoft releases under ModelScope's LLM-Research / AI-ModelScope organisations, as LLaMA-Factory's
    download table lists them: ``src/llamafactory/extras/constants.py`` @ff6d4d1). A mainland node cannot reach
    Hugging Face, so this is what it can download; the memo names it as a re-upload, never as the release."""
    return _preset_data(model_id).get("modelscope_reupload")


def _model_aliases(m: ModelSpec) -> list[str]:
    aliases = set()
    for repo in (m.hf_repo, *same_tensor_repos(m.id)):
        if repo:
            aliases.add(_norm(repo))
            aliases.add(_norm(repo.rsplit("/", 1)[-1]))
    return sorted(aliases - {m.id})


def get_model(model_id: str) -> ModelSpec:
    """A preset by id, Hugging Face repo ("Qwen/Qwen2.5-7B-Instruct") or an unambiguous prefix; else CatalogError."""
    models = load_models()
    by_id = {m.id: m for m in models}
    return by_id[match_id(model_id, [(m.id, _model_aliases(m)) for m in models], "model")]


def resolve_model(name_or_path: str) -> ModelSpec:
    """A preset id, or a path to a config.json (or a folder holding one)."""
    if not name_or_path.strip():
        return get_model(name_or_path)  # "no model given" (Path("") would be the current folder)
    path = Path(name_or_path)
    try:
        is_dir, is_file = path.is_dir(), path.is_file()
    except (OSError, ValueError):  # a name too long for a path, or with a NUL byte: not a file, so an id
        return get_model(name_or_path)
    if is_dir:
        if not (path / "config.json").is_file():
            raise ModelImportError(tr("inputs.config.folder_without_config", path=str(path)))
        path = path / "config.json"
    if path.suffix == ".json" or is_file:
        return model_from_config(path, model_id=path.parent.name if path.name == "config.json" else path.stem)
    return get_model(name_or_path)
