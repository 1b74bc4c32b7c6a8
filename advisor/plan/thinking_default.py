"""Qwen3's hybrid-thinking models think unless told not to, said once where a plan serves or proposes one (blind
review 19, q29: "the Qwen3-4B fix doesn't warn that Qwen3 thinks by default, which must be switched off or output
tokens and cost will balloon").

Qwen's model cards for the Qwen3 release of 2025-04 (Qwen3-0.6B … 32B, 30B-A3B, 235B-A22B, and their FP8/AWQ/GGUF
repositories: https://huggingface.co/Qwen/Qwen3-8B, "By default, Qwen3 has thinking capabilities enabled") and
Qwen's quickstart (https://qwen.readthedocs.io/en/stable/getting_started/quickstart.html: ``enable_thinking=True``
"Default is True") switch thinking off with ``enable_thinking=False`` in the chat template (``chat_template_kwargs``
through vLLM's or SGLang's OpenAI API) or ``/no_think`` in a turn. The 2507 Instruct releases think never and the
Thinking ones always (neither is hybrid); the -Base checkpoints have no chat template; other families are not known
here and stay unsaid. The plan's output tokens are the answers' answer lengths: its costs hold with thinking off.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.domain.model import ModelSpec

# the hybrid-thinking Qwen3 repositories by their published names (a quantized repository thinks as its base does)
_HYBRID = re.compile(r"^Qwen/Qwen3-(?:\d+(?:\.\d+)?B|30B-A3B|235B-A22B)(?:-(?:FP8|AWQ|GGUF|GPTQ-Int4|GPTQ-Int8))?$")


def thinks_by_default(model: ModelSpec | None) -> bool:
    """Whether ``model`` is a Qwen3 hybrid-thinking model (thinking on unless switched off)."""
    return model is not None and bool(model.hf_repo) and _HYBRID.match(model.hf_repo or "") is not None


def clause(model: ModelSpec) -> dict[str, Any]:
    """The sentence said once: it thinks by default, how to switch it off, and that the costs assume it is off."""
    return {"tr": "review30.thinking.fix", "model": model.name, "repo": model.hf_repo}


def say_once(fixes: list, served: ModelSpec | None) -> list:
    """``fixes`` with the thinking sentence on the first smaller-model fix that names a hybrid-thinking model; none
    where the served model is one (its assumption says it already: ``ASSUMPTION_KEY``)."""
    from advisor.catalog import CatalogError, get_model

    said = thinks_by_default(served)
    out = []
    for fix in fixes:
        if fix.id == "smaller_model" and not said:
            try:
                spec: ModelSpec | None = get_model(str(fix.change.get("model")))
            except CatalogError:  # not a preset: nothing is known of its thinking
                spec = None
            if spec is not None and thinks_by_default(spec):
                fix = fix.model_copy(update={"params": {**fix.params, "think": clause(spec)}})
                said = True
        out.append(fix)
    return out


ASSUMPTION_KEY = "review30.thinking.assume"
FIELD = "thinking_mode"  # not an answer: listed with the figures' other assumptions


__all__ = ["ASSUMPTION_KEY", "FIELD", "clause", "say_once", "thinks_by_default"]
