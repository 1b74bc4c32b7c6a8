"""Renting as the fallback for a purchase that cannot be paid up front, said only where renting is the same service
(blind review 19). A rented GPU sits in the provider's data centre, not on the team's network: q02's office tool on
the LAN was told "rent it if the purchase cannot be paid up front" (a rented GPU is not on the office LAN, so "that is
not the same service"), and q03's hospital, whose highly sensitive data the answers keep on its private network, got
the same fallback "via site-to-site VPN", which "contradicts 'the data must stay in the private network'".

The rule is the one that rules a hosted API out for the same answers (``hosted_bars.ruled_out``: the reach as answered
and highly sensitive data): where the data must stay on the office LAN or the private network, renting is no
fallback; where the service is reached only on a LAN or private network, renting is offered with its condition (the
service then runs outside that network, reached over a VPN); elsewhere as before.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.answers import OWN_NETWORK_REACH


def data_stays_inside(answers: dict[str, Any]) -> bool:
    """Whether the answers keep highly sensitive data on the team's own network (a LAN or private network as
    answered, sensitivity "high"): what rules out both a hosted API and a rented GPU."""
    level = (answers.get("data_sensitivity") or {}).get("level")
    return answers.get("reach") in OWN_NETWORK_REACH and level == "high"


def clause(answers: dict[str, Any], terms: dict[str, Any] | str) -> dict[str, Any]:
    """The renting fallback after "renting instead costs …" (a leading "; "): none where the data must stay inside,
    conditional on the service leaving the network where it is reached only there, else plain; ``terms`` are the
    data duties a rented GPU carries (personal information), said wherever renting is offered."""
    reach = answers.get("reach")
    if data_stays_inside(answers):
        return {"tr": f"review30.rent_fallback.none_{reach}"}
    if reach in OWN_NETWORK_REACH:
        return {"tr": f"review30.rent_fallback.outside_{reach}", "terms": terms}
    return {"tr": "review30.rent_fallback.rent", "terms": terms}


__all__ = ["clause", "data_stays_inside"]
