"""Beside the serve command: its ``--max-num-seqs`` read against what the KV cache holds, where the cap admits more
requests than the cache holds at the full context (issue 25 point 5, blind review 27, q35 zh: "each replica holds
only 8 full-length requests … yet the launch command sets --max-num-seqs 24"). Page 1 says it where the load itself
rests on average lengths (kv_page_one37.py, not under an API lead); elsewhere (q12: 36 admitted, 30 at the full
4,096; q21 under an API lead) the sentence sits under the command it qualifies.

Figures are the plan's own KV fit (``kv_fit.kv_fit``: the sizing core's KV tokens, at the full context the command
sets and at the average prompt plus answer). What happens above it is vLLM's scheduler: a waiting request is
admitted only while the KV cache has free blocks for it, and a running one is preempted (recomputed later) when the
cache runs out (vLLM docs, "Optimization and Tuning: Preemption"); so the sentence is said for a vLLM command only."""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan.result import PlanResult


def note(result: PlanResult, lang: str, *, page_one: bool) -> str:
    """The cap sentence, or "" (no vLLM command, no KV fit, a cap the full-context cache holds, or ``page_one``:
    page 1's KV line, which reads the cap too, is shown)."""
    fit = result.capacity.kv_fit if result.capacity is not None else None
    command = result.hardware.command or ""
    if fit is None or "vllm serve" not in command or not fit.max_num_seqs or fit.max_num_seqs <= fit.at_full:
        return ""
    if page_one:  # page 1 already reads the cap (kv_page_one37._cap)
        return ""
    return translate(lang, "dsv3cmd38_cap.note", cap=f"{fit.max_num_seqs:,}", full_fit=f"{fit.at_full:,}",
                     context=f"{fit.context:,}", typical=f"{fit.at_typical:,}", avg=f"{fit.typical_tokens:,}")


__all__ = ["note"]
