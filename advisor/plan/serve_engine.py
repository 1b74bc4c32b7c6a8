"""The serve command in the team's engine (``PlanAnswers.serving_engine``, s19-engine19; issues #25/#28).

- vLLM (and no answer): ``vllm serve`` (``advisor.sizing.advice.vllm_command``), the plan's own recommendation.
- SGLang: ``python -m sglang.launch_server`` (``advisor.sizing.advice.sglang_command``, the Sizing page's line) with
  ``--mem-fraction-static`` at SGLang's default for this GPU and TP size (``sglang_pool``), ``--max-running-requests``
  at the plan's cap, ``--context-length`` and ``--tp``; the plan then sizes and simulates SGLang (``Ctx.engine``).
- llama.cpp, Ollama, TGI, LMDeploy: no command. Their settings do not map one to one onto the plan's (llama.cpp
  splits its context over its slots and runs GGUF files, Ollama sets parallel requests and context per server or
  per model, TGI caps tokens rather than requests, LMDeploy's KV share is of the memory left after the weights), so
  the plan lists the settings to set by hand, in words, and says its curve is predicted for vLLM.
"""

from __future__ import annotations

from typing import Any

from advisor.domain.sizing import SizingRequest
from advisor.plan.context import Ctx

ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "llama_cpp": "llama.cpp", "ollama": "Ollama", "tgi": "TGI",
                "lmdeploy": "LMDeploy"}  # fmt: skip
BY_HAND = ("llama_cpp", "ollama", "tgi", "lmdeploy")
SGLANG_HEAD = "python -m sglang.launch_server --model-path "


def team_engine(c: Ctx) -> str:
    """The engine the serve command starts: the team's answer, else vLLM."""
    return c.answers.serving_engine or "vllm"


def sglang_fraction(req: SizingRequest, gpu_memory_bytes: int, tp: int, multimodal: bool) -> float:
    """SGLang's ``--mem-fraction-static`` for this setup: its default for the GPU's memory and the TP size, the share
    the plan's KV pool was sized with (``estimate_memory(sglang_pool=True)``)."""
    from advisor.sizing.sglang_pool import share_and_free

    return share_and_free(req.engine, gpu_memory_bytes, tp, None, multimodal, 0)[0]


def serve_command(c: Ctx, req: SizingRequest, weights: str, tp: int, gpu_memory_bytes: int, seqs: int) -> str | None:
    """One replica's launch line in the team's engine; None for an engine whose settings are set by hand."""
    from advisor.sizing.advice import sglang_command, vllm_command
    from advisor.sizing.quant import get_format

    engine = team_engine(c)
    fmt = get_format(weights)
    if engine in BY_HAND:
        return None
    if engine == "sglang" and fmt.engine == "vllm":
        fraction = sglang_fraction(req, gpu_memory_bytes, tp, c.model.has_vision)
        return sglang_command(req, fmt, tp, c.max_context, seqs, fraction)
    return vllm_command(req, fmt, tp, c.max_context, seqs)


def engine_flags(c: Ctx, flags: list[str]) -> list[str]:
    """The hardware table's engine flags (written for vLLM) in the team's engine: SGLang's names; none for an
    engine set by hand (its settings are listed in words instead)."""
    from advisor.sizing.advice import sglang_flags

    engine = team_engine(c)
    if engine in BY_HAND:
        return []
    if engine == "sglang":
        return [f for f in (sglang_flags(x) for x in flags) if f]
    return flags


def by_hand(c: Ctx, tp: int, weights: str, kv_dtype: str, seqs: int) -> dict[str, Any] | None:
    """The settings to set by hand in an engine whose flags the plan does not map (None for vLLM and SGLang)."""
    engine = team_engine(c)
    if engine not in BY_HAND:
        return None
    settings = {"tr": "engine19.by_hand.settings", "context": c.max_context, "seqs": seqs, "tp": tp, "weights": weights,
                "kv": {"tr": "engine19.by_hand.kv_fp8"} if kv_dtype == "fp8" else "",
                "gguf": {"tr": "engine19.by_hand.gguf"} if engine in ("llama_cpp", "ollama") else ""}  # fmt: skip
    return {"engine": ENGINE_NAMES[engine], "settings": settings}


__all__ = ["BY_HAND", "ENGINE_NAMES", "SGLANG_HEAD", "by_hand", "engine_flags", "serve_command", "team_engine"]
