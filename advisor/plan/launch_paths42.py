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

from advisor.plan.result import render

LIKELY = "_likely"  # a timeline step planned on the memo's reading against the user's answer
MONTHS_APART = 30  # a launch at least a month earlier on the user's own reading: said beside the planned one


def clause(result: Any, lang: str) -> str:
    """" If you sell only to customers under a contract you name, …: launch in 61–95 days …" or ""."""
    tl = result.timeline
    g = tl.gate
    if not result.feasible or g is None or not g.id.endswith(LIKELY):
        return ""
    setup = next((i for i in tl.items if i.id == "setup" and i.length_known), None)
    if setup is None:
        return ""
    rest = [i for i in tl.items if i.blocking and i.id != "setup" and i.length_known and not i.id.endswith(LIKELY)
            and i.within != g.id]
    top = max(rest, key=lambda i: (i.days_high or 0, i.days_low or 0), default=None)
    low = max((i.days_low or 0 for i in rest), default=0) + (setup.days_low or 0)
    high = max((i.days_high or 0 for i in rest), default=0) + (setup.days_high or 0)
    if tl.launch_days_low - high < MONTHS_APART:
        return ""
    days = f"{low}" if low == high else f"{low}–{high}"
    step = top.label_in(lang, clause=True) if top is not None else setup.label_in(lang, clause=True)
    return render(lang, "red42.launch.contracted", {"days": days, "step": step})


__all__ = ["MONTHS_APART", "clause"]
