"""The smaller model a deployment engineer offers first: the same family stepped down one size at a time (Qwen2.5
72B Instruct → 32B → 14B → 7B …), not straight to a small model of another family (blind review q40: "the smaller-
model fix jumps to Qwen3 8B instead of, say, Qwen2.5-32B or 14B"). The family and the variant (Instruct, chat,
base) are read from the preset's published repository name; quantized presets are left out (their format is a fix
of its own)."""

from __future__ import annotations

import re
from functools import cache

from advisor.domain.model import ModelSpec

_SIZED = re.compile(r"^(?P<family>.+?)-(?P<size>\d+(?:\.\d+)?)[bB](?P<variant>(?:-.*)?)$")


def _family_of(repo: str) -> tuple[str, str, float] | None:
    m = _SIZED.match(repo)
    if m is None:
        return None
    return m["family"].lower(), m["variant"].lower(), float(m["size"])


@cache
def _presets() -> tuple[ModelSpec, ...]:
    from advisor.catalog import load_models

    return tuple(load_models())


def family_steps_down(model: ModelSpec) -> list[ModelSpec]:
    """Presets of the same family and variant with fewer parameters, largest first (empty when the name shows no
    family or size)."""
    if not model.hf_repo:
        return []
    me = _family_of(model.hf_repo)
    if me is None:
        return []
    out = []
    for m in _presets():
        if m.id == model.id or m.checkpoint_quant is not None or not m.hf_repo:
            continue
        other = _family_of(m.hf_repo)
        if other is not None and other[:2] == me[:2] and other[2] < me[2]:
            out.append((other[2], m))
    return [m for _, m in sorted(out, key=lambda x: -x[0])]


def size_of(model: ModelSpec) -> float:
    """Billions of parameters as the published name gives them (7 for ``Qwen2.5-7B-Instruct``); every preset
    ``family_steps_down`` returns has one (1 for a name without a size)."""
    me = _family_of(model.hf_repo) if model.hf_repo else None
    return me[2] if me is not None and me[2] > 0 else 1.0


__all__ = ["family_steps_down", "size_of"]
