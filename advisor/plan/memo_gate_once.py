"""Page 1 names the steps a launch waits for once: in the next step that starts them (issue 25, a typical memo in 4
pages; session 26).

A launch that waits on steps of unknown length (an impact assessment, an outsourcing review, the 等保 grading) listed
them three times on page 1: in the earliest-launch row, in the feasible row and in next step 1 ("Before launch,
settle what it waits for: …" or "Start this now …; start alongside it: …"), each time in full (q38: three lines of
the same two duties). The step is where they are acted on, so it keeps them; the two rows point at it.

Only where the step on page 1 names every one of them (checked on the rendered text, so a wording change elsewhere
cannot leave a row pointing at a step that does not list them); otherwise the rows keep their own list. The
timeline section lists each step again, as a table, with its days. ``--json`` and the app keep the full texts.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.i18n import translate
from advisor.plan import batch_clock43
from advisor.plan.result import PlanResult, render

GATE_STEP_IDS = ("gate", "waits")  # critical_steps: the timed step that sets the launch, or the untimed waits


def step_number(result: PlanResult, first_steps: Sequence[str], lang: str) -> int | None:
    """The number (1-based) of page 1's next step that names every step of unknown length the launch waits for, the
    timed one that sets its date too where there is one; None when none does (the rows then keep their lists)."""
    tl = result.timeline
    waits = tl.untimed
    if not waits:
        return None
    named = [i.label_in(lang, clause=True) for i in waits + ([tl.gate] if tl.gate is not None else [])]
    for n, (step, text) in enumerate(zip(result.next_steps, first_steps, strict=False), start=1):
        if step.id in GATE_STEP_IDS and all(label in text for label in named):
            return n
    return None


def launch_text(result: PlanResult, lang: str, days: str, n: int) -> str:
    """The earliest-launch row pointing at step ``n`` for what it waits for: "after what next step 1 lists (length
    unknown), then 1–5 days to set up", or with a timed step setting the date, "not before what next step 1 lists
    is done; at the earliest in 31–95 days (set by: …)" — the date and what sets it stay in the row."""
    tl = result.timeline
    if tl.node_only is not None:  # the mainland node after the set-up, the overseas one after the step (s37-seq, q34)
        return render(lang, "seq39_launch.node_after_step", {"n": n, "days": days,
                                                               "region": {"tr": f"plan.region.{tl.node_only}"}})
    if tl.gate is None:
        return render(lang, "pages26.launch.after_step", {"n": n, "days": days})
    key = "pages26.launch.plan_on_step" if tl.earliest_low is not None else "pages26.launch.not_before_step"
    return render(lang, key, {"n": n, "days": days}) + tl.gate_text(lang) + tl.earliest_text(lang)


def feasible_text(n: int, lang: str, result: PlanResult | None = None) -> str:
    """"yes, once what next step 1 lists is done"; where that holds the overseas node alone, "yes; the node in
    Singapore once …" (s37-seq, q34)."""
    clock = batch_clock43.feasible_text(result, n, lang) if result is not None else None
    if clock is not None:  # a job's deadline read both ways, as its step says (blind review 34, q28)
        return clock
    node = result.timeline.node_only if result is not None else None
    if node is not None:
        return render(lang, "seq39_feasible.node_once_step", {"n": n, "region": {"tr": f"plan.region.{node}"}})
    return translate(lang, "pages26.feasible.once_step", n=n)
