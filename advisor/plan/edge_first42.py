"""A plan at the edge leads with "pilot and measure before any commitment" (issue #25, blind review 32, q10).

q10 (en): "With '0 % headroom', no spare, P99 TTFT 24.7 s inside the predictor's error, and a cost straddling the
budget, state it bluntly as 'pilot and measure before any commitment'"; (zh): "The headline should say plainly 'no
commitment until a quote and a 60k-token test'; it currently takes three paragraphs to say that."

Where page 1 gathers ``edge_risks38.MIN_RISKS`` or more edge risks (its risks line), the recommendation's first words
say so, with what the commitment waits on taken from the same conditions the risks line names (the written quote,
the pressure test on the real prompts): one rule, said where a boss reads first, the line below keeping the detail.
"""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan import edge_risks38
from advisor.plan.result import PlanResult


def form(result: PlanResult, lang: str, form_text: str) -> str:
    """``form_text`` (the recommendation's form) led by the pilot-first rule where the plan is at the edge; else
    ``form_text`` unchanged."""
    if not form_text or not result.feasible:
        return form_text
    found = edge_risks38.risks(result)
    if len(found) < edge_risks38.MIN_RISKS:
        return form_text
    kinds = {str(c["tr"]).split(".")[1] for c in edge_risks38.conditions(result, found)}
    quote, bench = "quote" in kinds, "bench" in kinds
    waits = "both" if quote and bench else "quote" if quote else "bench" if bench else ""
    if not waits:
        return form_text
    return translate(lang, "red42.edge.first", form=form_text, waits=translate(lang, f"red42.edge.waits.{waits}"))


__all__ = ["form"]
