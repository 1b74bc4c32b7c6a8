"""A failed server covered the same way on both sides of own-vs-rent (issue 25; blind review 22 sent q26 back in both
languages: "the comparison is asymmetric: the rented plan is also 2 × 8-GPU H20 servers with no server-level spare,
and the memo itself says H20 cloud supply is 'unsure'. It counts cloud replacement as cover when renting but not
when owning … state 'buy on quotes at ≤ ~¥1.2M a server' with part-level support"; zh: "renting assumes the cloud
replaces failed instances, even though the memo itself says H20 instances are sales-only, monthly and not
guaranteed … buy 2 servers with vendor NBD or 4-hour parts cover, keeping the existing cluster as failover").

``repair_cover.unsure`` doubts renting a failed owned server's cards, and ``rent_until_covered`` then weighed owning
with a third server against renting with none. That is like for like only where the cloud can replace a failed
rented server at once. Where the doubt is the part's supply (an export-sensitive part on the mainland, or a cloud
family sold through its sales, by the month: ``sales_only``), the rented plan waits on the same supply: its servers
hold the same replicas, N+1 by the replica, with no server-level spare either. Both sides are then covered alike:
the spare replica for a failed GPU or part (most failures), the vendor's parts cover (next business day or 4-hour,
named with the purchase) for a failed server, and, where a measured load says the service runs today, that capacity
as the failover while a server is repaired. The third server stays the named upgrade, not the comparison's price.

Blind review 33 read the other side (q26 en: "the argument that renting 'replaces a failed server no surer' is
debatable, since a cloud re-provisions a failed host"; zh: "compares a 3-server purchase with 2-server rental … not
like-for-like"). The comparison stays the same servers on both sides, each with its own cover, and the memo now says
so: a failed rented server is re-provisioned by the cloud (usually within hours, where it holds the part: the doubt
is said with an ask for its replacement time), so the rented plan counts no spare; owning's cover is the parts cover
and today's capacity. Where page 1 weighs a third bought server against the rented ones it says the rented ones
need no spare (``fx42.cover.dearer``).

Where only the rent's price is a placeholder (a part sold generally), the cloud does replace a failed instance, the
asymmetry is real, and the third server stays the owned side's cover (unchanged).
"""

from __future__ import annotations

from typing import Any

SUPPLY_DOUBTS = ("supply", "both")  # ``repair_cover`` doubts: the rented part's own supply is unsure


def rent_no_surer(doubt: dict[str, Any] | None) -> bool:
    """Renting the part replaces a failed server no surer than owning does (``doubt``: ``repair_cover.unsure``'s)."""
    return doubt is not None and doubt.get("doubt") in SUPPLY_DOUBTS


def failover_part(measured: bool) -> dict[str, Any] | str:
    """The clause naming today's capacity as the failover, where a measured load says the service runs today."""
    return {"tr": "owncover33.failover"} if measured else ""


__all__ = ["SUPPLY_DOUBTS", "failover_part", "rent_no_surer"]
