"""The serve command's prefix caching, said where the use repeats context (ninth blind review, q33: "add
--enable-prefix-caching, which matters for repeated code context").

No flag is added: the engines the commands start keep a repeated prompt prefix's KV cache by default — vLLM's V1
engine (the default engine since 0.8.0; the engine profile ``resources/engines/profiles.json`` ``vllm``,
``prefix_caching_default``, source: docs.vllm.ai design/prefix_caching, "on by default in V1") and SGLang's radix
cache. What the memo says is that it is on, what it buys on repeated context, and that the predictions do not
count it. Said for interactive use with long prompts (a chat resends its history, an assistant the same files or
excerpts); not for an API whose callers' prompts are not known, nor on Ascend (vLLM-Ascend's default is not
checked here)."""

from __future__ import annotations

from typing import Any

from advisor.plan import prefix_reuse
from advisor.plan.commands import HEADS
from advisor.plan.result import PlanResult, render

LONG_PROMPT = 2_000  # average prompt tokens from which the repeated part is worth saying


def applies(result: PlanResult) -> bool:
    """Interactive use with long prompts on a vLLM or SGLang command (not on a domestic accelerator)."""
    answers: dict[str, Any] = result.answers or {}
    command = result.hardware.command or ""
    starts = any(command.startswith(h) or command.startswith(env + h) for h, env in HEADS.items())
    prompt = (answers.get("prompt_tokens") or {}).get("avg") or 0
    if prefix_reuse.said(result.binding_constraint):  # said once, where the sizing counts prefill (prefix_reuse.py)
        return False
    return bool(starts and answers.get("use_case") == "interactive" and prompt >= LONG_PROMPT
                and result.finding("gpu.domestic") is None)  # fmt: skip


def note(result: PlanResult, lang: str) -> str:
    """The sentence after the serve command ("" where it does not apply)."""
    if not applies(result):
        return ""
    sglang = "sglang" in (result.hardware.command or "")
    return render(lang, "memo.owned20.prefix_cache", {"engine": "SGLang" if sglang else "vLLM",
                                                      "how": {"tr": f"memo.owned20.prefix_cache.{'sglang' if sglang else 'vllm'}"}})


__all__ = ["applies", "note"]
