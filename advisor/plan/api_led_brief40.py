"""An API-led memo's self-hosted fallback said briefly (blind review 29, s38-shape: q13 grew to 6 pages; restored in
s39-sgp, issue #25, where q13's fallback moved to one L4 a replica on Singapore's own rows and grew to 6 again).

Where page 1 leads with a hosted API (``memo_self_host_rows.api_leads``), the self-hosted plan is what to move to,
not what is launched. Two of its details were said at full length there: section 2's "what decides the size" went on
past its KV figure to an FP8 KV cache's reach, the one-replica-down load and the dearer GPUs that hold the full
context, and section 7's "Reserve all 5 GPUs …" finding said again what page 1's cost row says beside the fallback's
month ("at the monthly/reserved price for all 5 GPUs, the peak-hour replicas too, as on-demand stock can run out at
peaks"). Under an API lead the memo keeps the binding's first limit, the why-this-GPU paragraph's opening sentence
(the chosen setup against the next ones, with their prices: not the per-card weighing after it) and leaves the finding
to that row; the plan (``--json``, the app) keeps every sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.plan import memo_self_host_rows
from advisor.plan.peak_reserve_rules import RULE as PEAK_RESERVE

RENT = "cost.rent"  # ``rules.cost_rent``: "Rent cloud GPUs: about … a month at the monthly/reserved price (…)"

# the binding's sentences past its limit: what would lift it, said for a plan that is launched (kvlimit28, kvfit33)
BEYOND_THE_LIMIT = ("kvlimit28.fp8_kv", "kvfit33.also", "kvfit33.remedies")


def binding_text(result: Any, lang: str, *, kv_said: bool | None = None) -> str:
    """Section 2's "what decides the size", less ``BEYOND_THE_LIMIT`` under an API lead; ``kv_said``: page 1 prints
    the memory condition, so the KV sentence points to it (``kv_said_once44``; None: read from the plan)."""
    from advisor.plan import kv_said_once44

    b = result.binding_constraint
    if b is None:
        return ""
    if memo_self_host_rows.api_leads(result):
        b = b.model_copy(update={"then": [p for p in b.then if p.get("tr") not in BEYOND_THE_LIMIT]})
    if kv_said is None:
        kv_said = kv_said_once44.condition_printed(result)
    if kv_said:
        b = b.model_copy(update={"then": kv_said_once44.section_two(list(b.then), True)})
    return str(b.text_in(lang))


def gpu_why(result: Any, lang: str) -> str:
    """Section 2's why-this-GPU under an API lead: its opening sentence (``gpu_lead.lead``); "" elsewhere, where that
    sentence is missing, where a part had in time leads the paragraph (``supply_lead.choice_text`` says it), or where
    a dearer card was taken for its KV cache (``kv_pick``: the paragraph's one sentence with both cards' figures)."""
    from advisor.plan import gpu_lead, headroom_quote42_words
    from advisor.plan.result import render

    g = result.gpu_choice
    if g is None or g.kv_pick or result.supply_switch is not None or not memo_self_host_rows.api_leads(result):
        return ""
    # the card at about the same price passed over only for its stand-in price: why, beside the sentence naming it
    # (reg42, review 32 q13: "over L40S at almost the same price … Pick 2 × L40S")
    d = g.headroom_quote
    if d:  # named once, in its own sentence (the memo's pages: q13 stays within five)
        named = g.model_copy(update={"alternatives": [a for a in g.alternatives if a.gpu != d["gpu"]]})
        lead = str(gpu_lead.lead(named, lang))
        if not lead:  # no other GPU weighed beside it (gl42, q13: the H100 out of scale): the setup, then the clause
            lead = gpu_lead.gpu_name(render(lang, "pages22.gpu_choice.meets",
                                            {"chosen": g._option_text(g.chosen, lang)}), lang)
        if lead:
            return lead + headroom_quote42_words.clause(d, lang, render)
    return str(gpu_lead.lead(g, lang))


def findings(found: Sequence[Any], result: Any) -> list[Any]:
    """Section 7's findings, less the reserve-every-GPU finding where page 1's month already reserves every GPU and
    says why (its ``reserved`` figure, ``reserved_price.phrase``) under an API lead, and the rent finding's month with
    its one basis, section 4 the others (``api_cost_brief42.basis``)."""
    if not memo_self_host_rows.api_leads(result):
        return list(found)
    from advisor.plan import api_cost_brief42

    kept = [f for f in found if not (f.id == PEAK_RESERVE and f.params.get("reserved"))]
    # s40-pages: the rent finding's month with its one basis, section 4 the others (as page 1's cost row says it)
    return [f.model_copy(update={"params": {**f.params, "basis": api_cost_brief42.basis(f.params["basis"])}})
            if f.id == RENT and isinstance(f.params.get("basis"), dict) else f for f in kept]


__all__ = ["BEYOND_THE_LIMIT", "binding_text", "findings", "gpu_why"]
