"""The supply lead's switch as its texts quote it (advisor.plan.supply_lead), apart from the lead so that the
two-node finding in ``rules`` can say it without importing the planner (the layering test's cycle check: rules →
supply_lead → sales_wait → api_lead_steps → hosted_lead → rules)."""

from __future__ import annotations

from typing import Any

from advisor.plan.money_text import round_money


def params(s: dict[str, Any]) -> dict[str, Any]:
    """The switch's figures as the texts quote them."""
    return {"gpu": s["gpu"], "n": s["n"], "lead_gpu": s["lead_gpu"], "lead_n": s["lead_n"],
            "region": {"tr": f"plan.region.{s['region']}"}, "below": round_money(s["below"]),
            "currency": s["currency"], "deadline": s.get("deadline_days") or "", "slack": s.get("slack_days") or 0,
            "hours": s.get("deadline_hours") or ""}


__all__ = ["params"]
