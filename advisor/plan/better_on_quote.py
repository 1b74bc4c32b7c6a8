"""The better part's quote first, where only a stand-in price keeps it out of a one-off budget (issue #25, round 14,
q17: "4 × L20 FP8 rejected only because a grade-U placeholder price puts its high end over the ¥400k grant; get an
L20 quote first"; the reviewers would not sign 8 × A10, Ampere without FP8, for a four-year buy).

Where the setup set aside (``grant_straddle``) is priced on a stand-in (a placeholder, or a purchase price older
than the part's export rules) and the budget covers the middle of its range, the step after the purchase's start
is its quote: at or under the budget it is the buy, with what it gives that the chosen setup lacks; above it, the
plan's setup. "Why this GPU" names the condition in its opening sentence; this step puts it where the reader acts.
"""

from __future__ import annotations

from advisor.plan.critical_steps import GATE_IDS
from advisor.plan.result import NextStep, PlanResult, render

STEP_ID = "quote_better_part"
_SEP = {"en": "; ", "zh_CN": "；"}  # the reasons apart: each may hold a comma


def shown(g: dict | None) -> bool:
    """The set-aside setup ``g`` (``GpuChoice.grant``) is priced on a stand-in whose middle the budget covers."""
    return g is not None and bool(g.get("stand_in")) and bool(g.get("mid_fits"))


def quote_first(result: PlanResult) -> list[NextStep]:
    """``result.next_steps`` with the better part's quote first where the condition above holds."""
    choice = result.gpu_choice
    g = choice.grant if choice is not None else None
    steps = [s for s in result.next_steps if s.id != STEP_ID]
    if g is not None and g.get("fallback"):
        return _at_gate(steps, _fallback_step(result, g, choice.currency))  # type: ignore[union-attr]
    if g is None or not shown(g):
        return steps
    why = [{"tr": "gpupick21.grant.fp8"}] if g.get("fp8") else []
    if g.get("fewer"):
        why.append({"tr": "gpupick21.grant.fewer", "n": g["gpus"], "chosen_n": g["chosen_gpus"]})
    step = NextStep(id=STEP_ID, key="buyrank25.next.quote_better" + ("" if why else ".plain"), params={
        "n": g["gpus"], "gpu": g["gpu_name"], "weights": g["weights"], "low": f"{g['low']:,}", "high": f"{g['high']:,}",
        "budget": f"{g['budget']:,}", "currency": choice.currency, "chosen_n": g["chosen_gpus"],  # type: ignore[union-attr]
        "chosen_gpu": g["chosen_gpu_name"],
        "why": {"by_lang": {lang: sep.join(render(lang, w["tr"], w) for w in why) for lang, sep in _SEP.items()}}})
    return _at_gate(steps, step)


def _at_gate(steps: list[NextStep], step: NextStep) -> list[NextStep]:
    """``step`` right after the step the launch waits for (the purchase's lead time starts it: critical_steps),
    before the rest."""
    at = next((i + 1 for i, s in enumerate(steps[:2]) if s.id in GATE_IDS), 0)
    return [*steps[:at], step, *steps[at:]]


def _fallback_step(result: PlanResult, g: dict, currency: str) -> NextStep:
    """The chosen setup's quote before ordering, and the setup the budget surely covers if it comes in over the budget:
    fewer cards of the same GPU where they fit it at their high end, with what they give up (``same_gpu_fallback``,
    blind review 20, q17); else the other GPU's setup with what it lacks (``quote_fallback``)."""
    from advisor.plan import same_gpu_fallback
    from advisor.plan.gpu_lead import lacks

    same = same_gpu_fallback.step_params(result, g, currency)
    if same is not None:
        return NextStep(id=STEP_ID, key=same[0], params=same[1])

    return NextStep(id=STEP_ID, key="gpuswap26.next.quote_fallback", params={
        "n": g["gpus"], "gpu": g["gpu_name"], "weights": g["weights"], "low": f"{g['low']:,}", "high": f"{g['high']:,}",
        "budget": f"{g['budget']:,}", "currency": currency, "chosen_n": g["chosen_gpus"],
        "chosen_gpu": g["chosen_gpu_name"], "chosen_low": f"{g['chosen_low']:,}", "chosen_high": f"{g['chosen_high']:,}",
        "why": {"by_lang": {lang: lacks(g, lang) for lang in _SEP}}})


__all__ = ["STEP_ID", "quote_first", "shown"]
