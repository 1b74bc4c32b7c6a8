"""Resolve the answers' ``model``: a preset id, a Hugging Face id, or a config.json path.

A Hugging Face id resolves to its own preset when there is one (``Qwen/Qwen2.5-14B-Instruct``: the chat release,
32,768 positions), a quantized repository to the preset of the model it quantizes (``…-Instruct-AWQ`` → the
Instruct preset), and otherwise to the preset with the same architecture, instruct and base alike (same tensors).
An id the app cannot resolve offline is refused with a message asking for the model's config.json.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from advisor.domain.model import ModelSpec
from advisor.plan.answer_errors import AnswerProblem, AnswersError

_QUANT_SUFFIX = re.compile(r"(-(awq|gptq(-int[48])?|int[48]|fp8|gguf|bnb-4bit))+$", re.IGNORECASE)
_VARIANT = re.compile(
    r"(-(instruct|chat|it|base|hf|sft|dpo|rlhf|\d{4})(-\d+[kK])?)+$"
    r"|(-(awq|gptq(-int[48])?|int[48]|fp8|gguf|bnb-4bit))+$",
)


@dataclass(frozen=True)
class ResolvedModel:
    spec: ModelSpec
    how: str  # "preset" | "hf_id" | "config" | "hf_variant"
    asked: str


def _norm(name: str) -> str:
    base = name.strip().lower().rsplit("/", 1)[-1]
    base = base.removeprefix("meta-")
    prev = None
    while prev != base:
        prev = base
        base = _VARIANT.sub("", base)
    return base


@cache
def _index() -> dict[str, str]:
    from advisor.catalog import load_models, same_tensor_repos

    out: dict[str, str] = {}
    # Unquantized presets first: "Qwen/Qwen2.5-7B" is the BF16 model, not its AWQ checkpoint.
    for m in sorted(load_models(), key=lambda m: (m.checkpoint_quant is not None, "awq" in m.id or "gptq" in m.id, m.id)):
        for key in (m.id, m.hf_repo or "", *same_tensor_repos(m.id)):
            if key:
                out.setdefault(_norm(key), m.id)
    return out


@cache
def resolve_plan_model(name: str) -> ResolvedModel:
    from advisor.catalog import CatalogError, get_model, model_from_config
    from advisor.model_import import ModelImportError

    asked = name.strip()
    if not asked or "\x00" in asked:
        raise AnswersError([AnswerProblem("model", "answers.error.model_empty")])
    try:
        path = Path(asked)
        looks_like_path = asked.endswith(".json") or asked.startswith((".", "~", "/", "\\")) or path.is_dir()
        if looks_like_path:
            p = path.expanduser()
            if p.is_dir():
                p = p / "config.json"
            if not p.is_file():
                raise AnswersError([AnswerProblem("model", "answers.error.config_missing", {"path": asked})])
            spec = model_from_config(p, model_id=p.parent.name if p.name == "config.json" else p.stem)
            return ResolvedModel(spec, "config", asked)
    except AnswersError:
        raise
    except (ModelImportError, OSError, ValueError, RuntimeError) as exc:
        raise AnswersError([AnswerProblem("model", "answers.error.config_unreadable", {"path": asked, "reason": str(exc)})]) from None
    try:
        spec = get_model(asked)
        return ResolvedModel(spec, "preset" if spec.id == asked.lower() else "hf_id", asked)
    except CatalogError:
        pass
    unquantized = _QUANT_SUFFIX.sub("", asked)
    if unquantized != asked:  # "Qwen/Qwen2.5-14B-Instruct-AWQ": the Instruct preset, not the base model's
        try:
            return ResolvedModel(_as_published_checkpoint(get_model(unquantized), asked), "hf_variant", asked)
        except CatalogError:
            pass
    preset = _index().get(_norm(asked))
    if preset:
        return ResolvedModel(get_model(preset), "hf_variant", asked)
    raise AnswersError([AnswerProblem("model", "answers.error.model_unknown", {"name": asked})])


def _as_published_checkpoint(spec: ModelSpec, asked: str) -> ModelSpec:
    """A publisher's quantized checkpoint named as such (``Qwen/Qwen2.5-72B-Instruct-AWQ``) is that checkpoint: the
    preset's tensors in the checkpoint's own format, so the plan sizes and serves 4-bit weights rather than the
    16-bit model under the quantized repository's name (it sized bf16 and printed ``vllm serve …-AWQ``). Only a
    repository listed in resources/models/quantized/checkpoints.json for a format vLLM loads; anything else is the
    preset as it is."""
    from advisor.sizing.advice import known_checkpoints
    from advisor.sizing.quant import WEIGHT_FORMATS

    for fmt_id, repo in known_checkpoints().get(spec.id, {}).items():
        fmt = WEIGHT_FORMATS.get(fmt_id)
        if fmt is not None and fmt.engine == "vllm" and repo.lower() == asked.lower():
            return spec.model_copy(update={"checkpoint_quant": fmt_id, "hf_repo": repo})
    return spec
