"""Cost rows a memo leaves out where they tell its reader nothing (s23-pages23, issue 25: "a typical memo fits in 4
PDF pages"; blind re-check 12b named them as filler).

- The exchange-rate row where nothing was converted: the answers' money is USD and every price row the plan used is
  in USD, with no premium line (priced in CNY per Mbps) and no hosted API priced on a mainland (CNY) list (q20, q24:
  "1 USD = 6.99 CNY" under a memo of US dollars only).
- The buy-and-colocate row beside a rented plan for a team whose operations are basic or none: buying servers and
  running them in a data centre is not open to that team (the rent finding still says whether owning would pay back,
  which is the reason the plan rents), q20.
"""

from __future__ import annotations

from typing import Any

OPS_CANNOT_COLOCATE = (None, "basic", "none")  # unanswered is planned as basic (advisor.plan.context)


def fx_row_needed(result: Any) -> bool:
    """Whether a figure of the memo was converted between CNY and USD (the exchange-rate row then says at what)."""
    c = result.costs
    if c.currency != "USD" or result.line_cost is not None or "mainland" in str(result.region):
        return True
    if any(not p.unit.startswith("USD") for p in c.prices if p.kind != "fx"):
        return True
    served = getattr(c, "hosted_api_served_from", None) or []
    return c.hosted_api_monthly is not None and "mainland" in served


def bare_metal_row_needed(result: Any) -> bool:
    """Whether the buy-and-colocate row belongs beside the plan: not beside renting for a basic- or no-ops team."""
    if result.deployment_form != "cloud":
        return True
    return (result.answers or {}).get("ops_capability") not in OPS_CANNOT_COLOCATE


__all__ = ["bare_metal_row_needed", "fx_row_needed"]
