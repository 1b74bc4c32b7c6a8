"""EAGLE-3 head presets (issue #28, s26-spec28): heads SGLang's SpecForge released for models in the catalog (its
docs/community_resources/specbundle.md), in the shape SpecForge trains them in for that model, read from
resources/models/speculative/heads.json (each its config.json as SpecForge keeps it, the file and commit named there;
the released head's own config.json is not stored here). The vLLM command serves the released repository. A head's size follows from its shape; the published checkpoint's bytes are stated
only where known (``checkpoint_bytes``, else unknown). A head someone released with another shape is imported from
its own config.json, as before."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from advisor.domain.model import ModelSpec
from advisor.model_import import model_from_config
from advisor.resources import resource_path


@dataclass(frozen=True)
class HeadPreset:
    head: ModelSpec
    method: str  # vLLM's method for it ("eagle3")
    targets: tuple[str, ...]  # catalog ids of the models it drafts for
    draft_vocab_size: int | None  # its config's draft_vocab_size (EAGLE-3's own LM head)
    source: str  # repository and file the config is from
    commit: str
    released: tuple[str, ...]  # heads SpecForge's docs name as trained by it for the same target
    checkpoint_bytes: int | None  # the published safetensors' size; None: unknown here


@cache
def head_presets() -> tuple[HeadPreset, ...]:
    raw = json.loads(resource_path("models", "speculative", "heads.json").read_text(encoding="utf-8"))
    presets = []
    for row in raw["heads"]:
        vocab = row["config"].get("draft_vocab_size")
        presets.append(HeadPreset(head=model_from_config(row["config"], model_id=row["id"], name=row["name"],
                                                            hf_repo=row["released"][0]),
                                  method=row["method"], targets=tuple(row["targets"]),
                                  draft_vocab_size=vocab if isinstance(vocab, int) else None, source=row["source"],
                                  commit=raw["commit"], released=tuple(row["released"]),
                                  checkpoint_bytes=row["checkpoint_bytes"]))  # fmt: skip
    return tuple(presets)


def head_preset(head_id: str) -> HeadPreset | None:
    return next((p for p in head_presets() if p.head.id == head_id), None)


def heads_for(target_id: str) -> tuple[HeadPreset, ...]:
    return tuple(p for p in head_presets() if target_id in p.targets)


__all__ = ["HeadPreset", "head_preset", "head_presets", "heads_for"]
