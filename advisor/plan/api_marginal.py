"""A hosted API weighed against cards the team already owns: the marginal comparison, never the sunk cost (issue 25,
blind review 25).

q39 (zh): "'这些卡已是你们自己的，不管 API 多便宜都已买下' is a sunk-cost argument. The right comparison is marginal run
cost (¥24,927–70,282) against the API (¥20,193–40,386), which are close." What the cards cost to buy is spent either
way; what decides is what running them costs from here (power, space, staff, any rent for the bursts: the plan's
month, nothing bought) against the API's month for the same tokens. Where the two ranges meet the reason is that they
cost about the same and the API would leave paid-for cards idle; where the API is cheaper even than running them, the
memo says so as a ratio and names what keeping them buys (its own rate limits, data terms and model versions).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import fair35_lead

KEY = "apiweigh36.owned"
LOWER = "burst40_api.why.lower"  # the API's range below the running cost's, the two meeting only at its top
# the Decision's headline keys for cards already owned, and the ones that label the plan's month as its running cost
LEAD_KEYS = {"plan.hostedlead20.owned": f"{KEY}.lead", "q39h35.lead.owned_base": f"{KEY}.lead_base"}


def reason(hosted: Any, plan: Any) -> dict[str, Any]:
    """The keep clause for cards already owned (``hosted_weigh.KEEP_REASONS['owned']``'s place): the plan's running
    month against the API's, "about the same" where the ranges meet, else "N times less even so"."""
    if hosted.high >= plan.low and hosted.low < plan.low and hosted.high < plan.high:
        # s38-burst40 (review 29, q39: "'About the same' for the API (¥20,193–¥40,386) against running costs
        # (¥25,857–¥69,099) is loose"): a range lying lower that meets the other only at its top is cheaper at every
        # point but the overlap, said as such
        return {"tr": LOWER, "more": ""}
    if hosted.high >= plan.low:
        return {"tr": f"{KEY}.why.same", "more": ""}
    return {"tr": f"{KEY}.why.less", "more": "",
            "times": fair35_lead.times(hosted.low, hosted.high, plan.low, plan.high)}


def lead_key(key: str) -> str:
    """The headline key whose figures label the plan's month as its running cost (``LEAD_KEYS``), else ``key``."""
    return LEAD_KEYS.get(key, key)


__all__ = ["KEY", "LEAD_KEYS", "LOWER", "lead_key", "reason"]
