"""The one-off budget judged on the HIGH end of the purchase, in the feasibility verdict (issue 25 item 4, blind review
18, q17: a university lab's ¥400,000 grant; the recommended 4 × L20 server priced ¥340,000–460,000, its high end over
the grant, and the page-1 row still read "Feasible as asked: yes").

The monthly budget was already judged on the high end (``cost.judge_budget``, worded by ``budget_words``); the
purchase's verdict (``OwnedFormCost.capex_within_budget``) is too, but a purchase whose low end fits and high end does
not is still planned (a stand-in price decides nothing alone: the quote does, ``quote_fallback``). The verdict then
says the condition, and what the same GPU buys within the budget even at its high end: fewer replicas, with the
requests they hold at the target against the peak (the smaller setup a reviewer would size instead), or that no
replica of it fits.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.money_text import round_money


def owned(result: Any) -> Any:
    """The bought setup's costing where the plan buys the whole setup (on premises or in colocation); None otherwise
    (a hybrid's purchase is its base only, not the replicas the hardware lists)."""
    if result.costs is None or result.deployment_form not in ("on_premises", "bare_metal"):
        return None
    return result.costs.owned


def straddles(result: Any) -> bool:
    """A feasible plan that buys a setup whose purchase fits the one-off budget at its low end, not its high end."""
    o = owned(result)
    return bool(result.feasible and o is not None and o.capex_within_budget is False and o.capex_budget is not None
                and o.capex.low <= o.capex_budget < o.capex.high)


def smaller(result: Any) -> dict[str, Any] | None:
    """The most replicas of the planned GPU whose purchase fits the one-off budget at its high end, fewer than the plan
    buys, with their purchase and the requests they hold within the target; None where none fits or the plan has no
    per-replica figures. The purchase is prorated by replica (cards and their server share are priced per card)."""
    o, hw, cap = result.costs.owned, result.hardware, result.capacity
    if not hw.replicas or not hw.gpus_per_replica or cap is None or not cap.max_concurrency_per_replica:
        return None
    per_low, per_high = o.capex.low / hw.replicas, o.capex.high / hw.replicas
    n = min(hw.replicas - 1, int(o.capex_budget // per_high))
    if n < 1:
        return None
    out = {"replicas": n, "gpus": n * hw.gpus_per_replica, "low": n * per_low, "high": n * per_high,
           "holds": n * cap.max_concurrency_per_replica, "peak": cap.peak_concurrency}
    # price36 (blind review 25, q17: "每卡分摊更多，此处未计价" undercut "within the budget even at its high end"): a
    # purchase row built on a larger server than the smaller setup's says nothing of its server's share: said so
    rows = [r for r in getattr(result.costs, "prices", []) or [] if r.kind == "capex" and r.gpu == hw.gpu
            and getattr(r, "server_gpus", None)]
    row_gpus = max((int(r.server_gpus) for r in rows), default=0)
    if row_gpus > out["gpus"]:
        out["share_row_gpus"] = row_gpus
    return out


def text(result: Any, lang: str) -> str:
    """"only if the quote comes in at or under {budget} …", with the smaller setup on the same GPU within the budget
    at its high end and whether it carries the peak, or that none does."""
    o, hw = result.costs.owned, result.hardware
    cur = result.costs.currency
    head = translate(lang, "budget28.capex_if_quote", budget=round_money(o.capex_budget), currency=cur,
                     low=round_money(o.capex.low), high=round_money(o.capex.high))
    s = smaller(result)
    if s is None:
        return head + translate(lang, "budget28.no_smaller", gpu=hw.gpu_name or hw.gpu or "")
    key = "budget28.smaller_meets" if s["holds"] >= s["peak"] else "budget28.smaller_short"
    if s.get("share_row_gpus"):  # its row's server share is a larger server's: the high end is no bound (price36)
        key = key.replace("budget28.", "price36.")
    return head + translate(lang, key, gpus=s["gpus"], gpu=hw.gpu_name or hw.gpu or "", currency=cur,
                            low=round_money(s["low"]), high=round_money(s["high"]), holds=s["holds"],
                            peak=s["peak"], row_gpus=s.get("share_row_gpus", 0))


__all__ = ["owned", "smaller", "straddles", "text"]
