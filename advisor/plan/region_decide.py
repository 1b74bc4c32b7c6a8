"""Where the plan's node goes (region and reason) and whether a region is near the mainland: from the answers alone,
below both the engine and the hosted-API price rows, which price an API where it would run (s22-apisg22c moved these
here from ``engine``, which re-exports them, so ``hosted_prices`` reads the region without an import cycle)."""

from __future__ import annotations

from advisor.plan.context import Ctx
from advisor.plan.data import duration, facts
from advisor.plan.genai_paths import genai_remaining
from advisor.plan.regions import market_region

# a premium line's mainland round trip (resources/plan/facts.json rtt_ms, grade C) at most this at its high end: near
# enough for an interactive service's minority of mainland users (Hong Kong 12–45, Singapore 38–60, Japan 30–71 ms;
# US West 129–180 is not)
NEAR_MAINLAND_RTT_MS = 100


def near_mainland(region: str) -> bool:
    rtt = facts()["rtt_ms"].get(region)
    return region != "hong_kong" and rtt is not None and float(rtt["high"]) <= NEAR_MAINLAND_RTT_MS


def decide_region(c: Ctx) -> tuple[str, str]:
    """(region, reason). Hard constraints first: ICP lead time vs deadline, entity, then where the users are."""
    share = c.mainland_share
    if c.is_batch:
        return ("mainland", "data") if share > 0 or c.user_location == "mainland" else (market_region(c.overseas_markets), "data")
    if share == 0:
        return ("hong_kong", "users") if c.user_location == "hk_tw" else (market_region(c.overseas_markets), "users")
    if c.internal_only:
        return "mainland", "internal"
    if not c.entity:
        near = market_region(c.overseas_markets)
        if share < 0.5 and near_mainland(near):
            # most users are in Asia outside the mainland, and a premium line reaches their region from the mainland
            # in tens of ms: the node goes where the majority is, not to Hong Kong for the minority (sixth blind
            # review, q13: "a Singapore company with 80 % of its users in South-East Asia put on a Hong Kong node")
            return near, "no_entity_majority"
        return ("hong_kong" if share >= 0.2 else near), "no_entity"
    lo, hi = duration("icp_filing")
    if c.icp == "in_progress":
        lo, hi = max(1, lo // 3), max(1, hi // 2)
    icp_ok = c.icp == "filed" or c.deadline_days is None or c.deadline_days >= hi
    if not icp_ok and c.public_genai and not c.genai_covered and genai_remaining(c)[0] >= hi:
        # the generative-AI filing's months outlast the ICP filing: a Hong Kong node would not launch any sooner
        # (the filing applies to the mainland public wherever the node is), so the ICP deadline decides nothing
        icp_ok = True
    if share >= 0.8:
        return ("mainland", "users") if icp_ok else ("hong_kong", "icp_deadline")
    if share >= 0.2:
        return ("mainland_plus_overseas", "users") if icp_ok else ("hong_kong", "icp_deadline")
    return market_region(c.overseas_markets), "users"


__all__ = ["NEAR_MAINLAND_RTT_MS", "decide_region", "near_mainland"]
