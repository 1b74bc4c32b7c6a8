"""Whether a tight TTFT target the answers set placed the node near its users (rule 7; s20-hosted20b).

``region.latency_budget`` says so with its figures; the hosted-API lead (``hosted_lead``) and the finding
``cost.hosted_weighed`` read the same test so that an API they recommend is served from as near (q43: mainland
users on a Hong Kong node for a 150 ms target: an API across the Pacific would miss it). A module of its own, as
``rules`` imports ``hosted_weigh`` to register its rules.
"""

from __future__ import annotations

from advisor.plan.context import Ctx
from advisor.plan.data import facts
from advisor.plan.rule_base import Facts

TIGHT_TTFT_MS = 1000  # a TTFT target below this counts a network round trip as a real share of it (rule 7)


def ttft_target_given(c: Ctx) -> float | None:
    """The TTFT target the answers set (an assumed one decides no region), when tight."""
    slo = c.answers.latency_slo
    given = slo.ttft_p99_ms if slo is not None else None
    return given if given is not None and given < TIGHT_TTFT_MS and not c.is_batch else None


def latency_placed(f: Facts) -> str | None:
    """Whether a tight TTFT target the answers set placed the node (what ``region.latency_budget`` says): "mainland"
    (mainland users on an offshore node near them, as Hong Kong: a US one is a trans-Pacific round trip away),
    "overseas" (users outside the mainland, the node on their continent), else None."""
    c = f.ctx
    if ttft_target_given(c) is None or f.form == "hosted_api" or not f.offshore:
        return None
    if c.has_mainland_users:
        near = f.region in facts()["rtt_ms"] and f.region not in ("us_west", "us_east", "europe")
        return "mainland" if near else None
    return "overseas"


__all__ = ["TIGHT_TTFT_MS", "latency_placed", "ttft_target_given"]
