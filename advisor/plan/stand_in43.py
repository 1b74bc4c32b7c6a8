"""Page 1's fix priced on a stand-in says so in one short clause (blind review 34, pb43).

q20: "Allow other GPUs: 2 × NVIDIA L40S 48GB meets the target … (about 1,246–2,165 USD a month)" is a RunPod US row
times the Singapore uplift, said only further down (the cost row and section 4). Where the fix's month is the plan's
own and that price stands in for another region's (a marketplace's rows or a cloud's, times an uplift), the fix's cost
says "on a stand-in price (a GPU marketplace's rows): quote it, next step 1"; the quote step (``price_rows.
quote_steps``) names the parts and asks data-centre clouds, not a marketplace, where users' data is at stake.
"""

from __future__ import annotations

from typing import Any


def same_month(result: Any, month: Any) -> bool:
    """The fix's month is the plan's recommended month, priced on a stand-in for another region's rows, and the
    plan's first next step asks for the quote."""
    pb, rec = result.costs.price_basis, result.costs.recommended_monthly
    if pb is None or not pb.stand_in or rec is None or month is None \
            or not result.next_steps or result.next_steps[0].id != "quotes":  # "next step 1" is the quote
        return False
    return abs(rec.low - month.low) < 0.5 and abs(rec.high - month.high) < 0.5


def fix_key(result: Any) -> str:
    """The fix's cost clause: a marketplace's stand-in or a cloud's."""
    pb = result.costs.price_basis
    return "pb43.fix.cost_market" if pb is not None and pb.stand_in_marketplace else "pb43.fix.cost_uplift"


def priced_clause(result: Any, lang: str) -> str:
    """Beside a marketplace's stand-in month, which is a floor (next step 1 rules a marketplace out), plan B's month
    at a data centre's list price in the region where it meets the target within the budget (blind review 36, q20:
    "lead with the priced GCP L4 figure (2,546 USD) until an L40S quote arrives"); "" where there is none."""
    from advisor.plan.money_text import money_range
    from advisor.plan.result import MoneyRange, render

    fb = getattr(result, "in_region_fallback", None)
    if fb is None or not fb["meets"] or fb.get("over_budget"):
        return ""
    budget = result.costs.budget_monthly
    if budget is not None and fb["monthly"][1] > budget:
        return ""
    return render(lang, "prc44.fix.priced", {
        "n": fb["n"], "gpu": fb["gpu"], "offer": {"by_lang": {"en": fb["offer"].get("en", ""),
                                                              "zh_CN": fb["offer"].get("zh_CN", "")}},
        "monthly": money_range(MoneyRange(low=fb["monthly"][0], high=fb["monthly"][1]), fb["currency"])})


__all__ = ["fix_key", "priced_clause", "same_month"]
