"""The plan's month beside a hosted API's, said as the GPUs alone where page 1's month adds a line (issue 25).

Blind review 29 (q10, zh): "Monthly figures are inconsistent: '¥65,326–¥175,937' in the API comparison vs
'¥67,121–¥178,017' elsewhere". The API is weighed against the setup's own month (``recommended_monthly``: the line
carries the users' traffic on either path, so it is no part of the difference, ``line_total``), while page 1 and
the budget row give the month with the priced line (``monthly_with_line``). Where the two differ, the comparison's
figure names itself the GPUs' and says the line it leaves out, so the reader can add the two up to page 1's month.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import MoneyRange

KEY = "onemonth40_plan.gpus_alone"


def plan_figure(costs: Any, plan: MoneyRange | None, text: str, span: Any) -> str | dict[str, Any]:
    """``text`` (``plan`` formatted) as a phrase that says it is the GPUs alone, without the line's month
    (``span(low, high)`` formats it alike), where ``costs`` has a month with a priced line and ``plan`` is the setup's
    own month (not a hybrid's API-led running, which is another figure); else ``text`` unchanged."""
    with_line, own = getattr(costs, "monthly_with_line", None), getattr(costs, "recommended_monthly", None)
    if with_line is None or own is None or plan is None or (plan.low, plan.high) != (own.low, own.high):
        return text
    lo, hi = with_line.low - own.low, with_line.high - own.high
    if hi <= 0:
        return text
    return {"tr": KEY, "amount": text, "line": span(lo, hi)}


def bare(figure: Any) -> Any:
    """The figure without the label, for a sentence that adds the line to both sides itself (``lead_line``)."""
    return figure["amount"] if isinstance(figure, dict) and figure.get("tr") == KEY else figure


__all__ = ["KEY", "bare", "plan_figure"]
