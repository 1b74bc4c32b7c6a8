"""A budget inside a rented plan's cost range, said as the quote at which the plan fits it (blind review 34, pb43).

q10 said the ¥150,000 budget against ¥67,121–¥178,017 a month as "within it over 74 %" / "区间的 74 % 在预算内", and the
two-server upgrade as "only 7 % of that range is within the budget". Reviewers read those shares as probabilities; the
range is a spread of stand-in prices, not a distribution. What a reader can act on is the price at or under which the
plan fits the budget: the per-GPU price between the range's ends (the plan's month is linear in it, the line and the
overhead riding along), said a GPU a month at the plan's term and a GPU-hour in the price list's currency ("sign only if
the quote is at or under about ¥15,700 a GPU a month (about 3.1 USD a GPU-hour)"). A range not built on one hourly
GPU price (a purchase; a mixed on-demand and reserved month) keeps its older wording.
"""

from __future__ import annotations

from typing import Any

HOURS_PER_MONTH = 730.0  # as advisor.plan.cost bills a month (cost imports modules that import this one)



def _same(a: Any, b: Any) -> bool:
    return a is not None and b is not None and abs(a.low - b.low) < 0.5 and abs(a.high - b.high) < 0.5


def hourly_ends(costs: Any) -> tuple[float, float] | None:
    """The per-GPU-hour price at the low and the high end of the plan's month, at its term (a monthly commitment's
    factor applied where the month is the committed one), in the plan's currency; None where the month is not one
    hourly price times the GPUs (a purchase, a mixed floor, a batch)."""
    rate = getattr(costs, "cloud_per_gpu_hour", None)
    rec = getattr(costs, "recommended_monthly", None)
    if rate is None or rec is None or getattr(costs, "per_job", False) or getattr(costs, "cloud_reserved_floor", None):
        return None
    if _same(rec, costs.cloud_monthly):
        f = costs.cloud_monthly_factor
        if f is None:
            return None
        return rate.low * f.low, rate.high * f.high
    if _same(rec, costs.cloud_on_demand_monthly):
        return rate.low, rate.high
    return None


def quote_at(costs: Any, low: float, high: float, budget: float) -> dict[str, Any] | None:
    """``{"tr": "pb43.fit.quote", …}``: the per-GPU price at or under which a month of ``low``–``high`` (a range on
    the plan's own per-GPU prices) fits ``budget``; None where the budget is not inside the range or the month is not
    one hourly price times the GPUs."""
    ends = hourly_ends(costs)
    if ends is None or not (low < budget < high):
        return None
    share = (budget - low) / (high - low)
    hour = ends[0] + share * (ends[1] - ends[0])  # the plan's currency a GPU-hour
    month = hour * HOURS_PER_MONTH
    usd = hour / costs.fx_rate if costs.currency == "CNY" and costs.fx_rate else hour
    sym = "¥" if costs.currency == "CNY" else "$"
    return {"tr": "pb43.fit.quote", "month": f"{sym}{float(f'{month:.3g}'):,.0f}", "hour": f"{usd:.2g}"}


UPGRADE = ("q10lead32.sp.upgrade", "pb43.q10lead32.sp.upgrade")  # the single-point finding's upgrade verdict, either


def key(base: str, fit: Any) -> str:
    """``base``'s wording with the quote the plan fits at (``pb43.<base>``) where ``fit`` is set, else ``base``."""
    return f"pb43.{base}" if fit else base


__all__ = ["UPGRADE", "hourly_ends", "key", "quote_at"]
