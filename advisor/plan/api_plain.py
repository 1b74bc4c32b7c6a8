"""The reason a cheaper hosted API is set aside, said as the trade it is where that reason is the team's running of
the service today (issue 25, blind review 25).

q31 (zh): "The API option (¥12,158–27,425) is rejected only because 'you already run it'; the boss needs one clear
sentence on why that outweighs a 3× cost gap"; (en) "The dismissal ('not a saving this plan can book') is a product
argument the boss should see stated plainly, not buried". Running the service today is no reason by itself (what was
spent is spent); what an API would change is who sets the service's rate limits, data terms and model versions. So
where the API costs less at every price (``hosted_weigh``'s ``clear``), page 1's set-aside line says that trade with
the month it costs (the plan's month less the API's, end for end: the least and the most that control costs), and
that the API is the cheaper move if the control is not worth it; where the two months meet, that they cost about the
same and the control comes at no clear extra cost. Other reasons (sensitive data, a filing that names the deployed
model, a fine-tune no provider serves) are bars that say themselves, and keep the line as it was.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.rule_base import Facts, _range

RUNNING = "plan.hostedrun21.why.running"
KEY = "apiweigh36.set_aside.running"


def running(f: Facts, first: dict[str, Any], plan: Any, hosted: Any, top: float) -> dict[str, Any] | str:
    """The set-aside line's plain clause where the first reason is the team's running of the service (``RUNNING``):
    "gap" with what the control costs a month where the API costs less at every price, "same" where the months
    meet; "" for any other reason."""
    if first.get("tr") != RUNNING:
        return ""
    if top < plan.low:
        return {"tr": f"{KEY}.gap", "diff": _range(plan.low - top, plan.high - hosted.low, f)}
    return {"tr": f"{KEY}.same"}


__all__ = ["KEY", "RUNNING", "running"]
