"""Page 1 says, in one line, where a replica's KV cache at the full context holds fewer requests than it carries
(issue 25, blind review 26, q35 en and zh: "the biggest risk is buried in section 2 and belongs on page 1: only
'2.2 GiB for it (fp8), room for 8 requests a replica at the full 8,192-token context', and failover to 20 on one
node 'rel[ies] on average lengths'").

The figures and remedies are the plan's own KV fit (``kv_fit.kv_fit``, stored as ``Capacity.kv_fit``): the same
counts and the same remedies section 2's sentence gives (``kv_limit._remedy_phrase``), so page 1 never says a figure
section 2 does not. Only the remedies the plan sizes or backs are named: an FP8 cache or weights, a shorter
--max-model-len, the engines' data-parallel attention (kv_fit.DP_ATTENTION_FLAGS, a documented engine option), a card
the GPU choice lists with its price, else "a card with more memory" (a part the catalog does not hold, such as a
larger-memory variant it has no row for, is not named). Said only where the load rests on average lengths: where
even those do not hold it, the sizing has failed and says so elsewhere. Nothing here changes the plan.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import kv_condition40
from advisor.plan.kv_limit import _remedy_phrase
from advisor.plan.result import KvFit, PlanResult, render

# section 2's remedy points "below" to its own data-parallel sentence; on page 1 that sentence is in section 2
_DP_HERE = {"kvdef34.remedy.dp_attention": "ownedcost37_kv.dp_attention"}


def line(result: PlanResult, lang: str) -> str:
    """"**KV cache at the full context:** …" or "" (no setup, a hosted API, a batch job, a load the cache holds at
    the full context, or one it does not hold even at the average length)."""
    found = kv_condition40.case(result)
    if found is None:
        return ""
    fit, load, down = found
    phrases: list[dict[str, Any]] = _remedy_phrase(fit, set())
    for p in phrases:
        p["items"] = [{**i, "tr": _DP_HERE.get(str(i.get("tr")), i.get("tr"))} for i in p.get("items", [])]
    if kv_condition40.material(fit, load):  # a condition of the plan, with its fix (review 30)
        items = [i for p in phrases for i in p.get("items", [])]
        fix = kv_condition40.fix(result, load, items, lang)
        return kv_condition40.head(fit, load, bool(down), lang) + (" " if fix and lang != "zh_CN" else "") + fix \
            + _cap(fit, lang)
    remedies = "".join((" " if lang != "zh_CN" else "") + render(lang, str(p["tr"]), p) for p in phrases)
    return translate(lang, "ownedcost37_kv.down" if down else "ownedcost37_kv.peak", full_fit=f"{fit.at_full:,}",
                     context=f"{fit.context:,}", load=f"{load:,}", gib=f"{fit.kv_gib_per_gpu:g}",
                     dtype=fit.kv_dtype) + remedies + _cap(fit, lang)


def _cap(fit: KvFit, lang: str) -> str:
    """The serve command's --max-num-seqs read as what it is where it exceeds what the KV cache holds at the full
    context: a ceiling, not a promise (review 27, q35 zh: "each replica only has room for 8 full-length requests, yet
    the launch command allows 24 at once"). vLLM's scheduler admits a waiting request only when the KV cache has free
    blocks for it and preempts (recomputes) a running one when the cache runs out (vLLM docs, "Optimization and
    Tuning: Preemption"); the figures are the plan's own (``KvFit``)."""
    if not fit.max_num_seqs or fit.max_num_seqs <= fit.at_full:
        return ""
    return translate(lang, "layoutwhy37_kv.cap", cap=f"{fit.max_num_seqs:,}", full_fit=f"{fit.at_full:,}")


__all__ = ["line"]
