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


# the models a smaller-model fix falls back on when the model's own family has no smaller preset (Llama 3.3 70B has
# none: the catalog's Llama 3.x stops at 70B and 8B), in the order they are preferred at a tie of size; their
# families (Qwen3, Qwen2.5 Instruct, Llama 3.1 Instruct: openly licensed chat models) are what is stepped down through
FALLBACK = ("qwen3-8b", "qwen2.5-7b-instruct", "llama-3.1-8b-instruct", "qwen3-4b")


def comparable_steps_down(model: ModelSpec) -> list[ModelSpec]:
    """For a model whose own family has no smaller preset: the presets of the fallback families (``FALLBACK``'s)
    with a smaller published size, largest first, one a size (the first family's at a tie), so that the fix can
    offer the nearest size that meets the target, not only a 4–8B model (blind review 17, q29: "does not price an
    intermediate size (14B or 32B)" beside a 70B → 7B jump). Empty when the name shows no size."""
    mine = size_of(model) if model.hf_repo and _family_of(model.hf_repo) else None
    if mine is None:
        return []
    from advisor.catalog import get_model

    families = []
    for alt in FALLBACK:
        fam = _family_of(get_model(alt).hf_repo or "")
        if fam is not None and fam[:2] not in families:
            families.append(fam[:2])
    own = _family_of(model.hf_repo or "")
    by_size: dict[float, tuple[int, ModelSpec]] = {}
    for m in _presets():
        other = _family_of(m.hf_repo) if m.hf_repo and m.checkpoint_quant is None else None
        if (
            other is None
            or other[:2] not in families
            or other[:2] == (own[:2] if own else None)
            or not 0 < other[2] < mine
            or m.id == model.id
        ):
            continue
        rank = families.index(other[:2])
        if other[2] not in by_size or rank < by_size[other[2]][0]:
            by_size[other[2]] = (rank, m)
    return [by_size[k][1] for k in sorted(by_size, reverse=True)]


def size_of(model: ModelSpec) -> float:
    """Billions of parameters as the published name gives them (7 for ``Qwen2.5-7B-Instruct``); every preset
    ``family_steps_down`` returns has one (1 for a name without a size)."""
    me = _family_of(model.hf_repo) if model.hf_repo else None
    return me[2] if me is not None and me[2] > 0 else 1.0


__all__ = ["FALLBACK", "comparable_steps_down", "family_steps_down", "size_of"]
