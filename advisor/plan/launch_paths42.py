"""Page 1's first line gives both launch dates where the memo's reading of the audience, not the user's answer, sets
the later one (issue #25, blind review 32, q11).

q11 (zh): "The headline date '最早 181–245 天后上线' rests on the memo overriding the client's '不面向公众' answer … show
both paths up front"; (en): "Make it a named question for counsel on page 1, since it moves the launch by months."

Where the launch is set by a filing planned only on the memo's likely reading (a timeline step ``…_likely``: a
per-token API sold to any business read as offered to the public although the answer said not), and the launch
without that step comes at least ``MONTHS_APART`` days earlier, the first line says that earlier date, what sets it,
and that which reading holds is the question for counsel. The earlier date is the engine's own launch rule
(``engine.timeline``: the longest timed blocking step, then the set-up) over the steps left.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import FULL_FILING_LABEL, render

LIKELY = "_likely"  # a timeline step planned on the memo's reading against the user's answer
MONTHS_APART = 30  # a launch at least a month earlier on the user's own reading: said beside the planned one


def both(result: Any, lang: str) -> str:
    """" The launch date depends on whether counsel reads … as offered to the public, which decides whether the
    generative-AI filing (180–240 days) applies: if it does, launch in 181–245 days …; if not …, in 61–95 days …"
    where ``clause`` applies, else "": the planned date and the answer's date in one line (blind review 34, q11: "one
    line: the launch date depends on whether counsel reads a self-serve B2B API as public (which decides whether the
    180–240-day filing applies), with both dates"), in place of the planned date's line followed by this one."""
    tl = result.timeline
    g = tl.gate
    found = early(result, lang)
    if found is None or g is None:
        return ""
    days, step = found
    if g.shorter_low is not None:  # the days counted are the full filing's (``Timeline.gate_text``)
        g = g.model_copy(update={"label_key": FULL_FILING_LABEL, "label_params": {}})
    low, high = tl.launch_days_low, tl.launch_days_high
    flow, fhigh = g.days_low, g.days_high
    return render(lang, "ld43.launch.both", {
        "filing": g.label_in(lang, clause=True), "filing_days": f"{flow}" if flow == fhigh else f"{flow}–{fhigh}",
        "late": f"{low}" if low == high else f"{low}–{high}", "early": days, "step": step})


def clause(result: Any, lang: str) -> str:
    """" If you sell only to customers under a contract you name, …: launch in 61–95 days …" or ""."""
    found = early(result, lang)
    if found is None:
        return ""
    return render(lang, "red42.launch.contracted", {"days": found[0], "step": found[1]})


def early(result: Any, lang: str) -> tuple[str, str] | None:
    """The launch days and the step setting them on the user's own reading, where at least ``MONTHS_APART`` days
    earlier than the planned launch set by a filing planned on the memo's likely reading; else None."""
    tl = result.timeline
    g = tl.gate
    if not result.feasible or g is None or not g.id.endswith(LIKELY):
        return None
    setup = next((i for i in tl.items if i.id == "setup" and i.length_known), None)
    if setup is None:
        return None
    rest = [i for i in tl.items if i.blocking and i.id != "setup" and i.length_known and not i.id.endswith(LIKELY)
            and i.within != g.id]
    top = max(rest, key=lambda i: (i.days_high or 0, i.days_low or 0), default=None)
    low = max((i.days_low or 0 for i in rest), default=0) + (setup.days_low or 0)
    high = max((i.days_high or 0 for i in rest), default=0) + (setup.days_high or 0)
    if tl.launch_days_low - high < MONTHS_APART:
        return None
    days = f"{low}" if low == high else f"{low}–{high}"
    step = top.label_in(lang, clause=True) if top is not None else setup.label_in(lang, clause=True)
    return days, step


__all__ = ["MONTHS_APART", "both", "clause", "early"]
