"""A sourced setup passed over for a placeholder-priced part sold by the month, priced on the chosen plan's own
billing basis (issue #25, blind review 29, q11: "the L20 is rejected at '170,878 CNY a month', an on-demand figure,
while the H20 is costed at the reserved price. On the same basis (×0.61–0.75) the L20 would be about ¥104k–128k,
around the ¥120k budget").

A rented plan's page-1 month is the committed one (monthly/reserved, ``budget_basis``), and a part the cloud sells
only through its sales is quoted by the month, a committed price too. So the other setup's month, the quote a card
above which it costs less, and the placeholder's own top are all said at the monthly/reserved price (the commitment
discount of ``prices.json``'s ``monthly_factor`` on the on-demand month), with the on-demand month beside it. The
budget is judged on that same month: over it at the low end (no public part fits), around it (the budget does not
surely cover it, so the plan still waits on the quote, with the quote that would tip it), or within it (the switch
rule)."""

from __future__ import annotations

from typing import Any

from advisor.plan.data import factor_range


def reserved_pick(pick: dict[str, Any], budget: float | None) -> dict[str, Any]:
    """``pick`` (``gpu_choice._placeholder_pick``'s sales-only fields: ``other_month`` on demand, ``top_month`` the
    placeholder's top a card-month on demand, ``gpus``) with the same figures at the monthly/reserved price:
    ``other_low``/``other_high``, ``switch_low``/``switch_high`` a card, ``top_month`` (the on-demand one kept as
    ``top_month_on_demand``) and the budget's reading of that month (``over_budget`` only where even its low end
    is over the budget; ``straddles`` where the budget sits inside it)."""
    lo, hi = factor_range("monthly_factor")
    n = max(1, int(pick.get("gpus") or 1))
    other = float(pick["other_month"])
    other_low, other_high = round(other * lo), round(other * hi)
    out = {**pick, "other_low": other_low, "other_high": other_high,
           "switch_low": round(other_low / n), "switch_high": round(other_high / n),
           "top_month_on_demand": pick["top_month"], "top_month": round(float(pick["top_month"]) * hi)}
    out.pop("over_budget", None)
    out.pop("straddles", None)
    if budget is not None and other_high > budget:
        out["over_budget"] = round(budget)
        if other_low <= budget:
            out["straddles"] = True
    return out


__all__ = ["reserved_pick"]
