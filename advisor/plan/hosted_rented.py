"""Why a plan on rented cloud GPUs keeps a hosted API out, said as what differs (blind review 24, q06, q07).

"The service is to be reached only on your own network, and a hosted API runs outside it" was the reason against a
hosted API on a plan that rents its GPUs from a cloud: those machines are outside the firm's own premises too, and
their cloud is an entrusted processor under the same contract the API would need. What differs is control: rented
GPUs run the prompts on machines the team controls, joined to its network, under the cloud's hosting contract;
an API provider processes each prompt on its own service under its own terms (how long it keeps them, whether it
trains on them, its sub-processors). A bought or colocated server keeps the old words, which are true there.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.hosted_processor import rents_machines
from advisor.plan.rule_base import Facts

PRIVATE = "fair35.why.private_rented"  # the contrast said here
PRIVATE_SAID = "fair35.why.private_rented_said"  # the contrast said in the data reason before it
PRIVATE_KEYS = frozenset({PRIVATE, PRIVATE_SAID})
DATA_CONTRAST = "fair35.data.rented"


def private_reason(f: Facts, said: bool) -> dict[str, Any]:
    """The own-network reason; ``said``: a reason before it gives the rented contrast already."""
    if not rents_machines(f):
        return {"tr": "plan.apiweigh18.why.private"}
    return {"tr": PRIVATE_SAID if said else PRIVATE}


def data_reason(f: Facts, why: dict[str, Any], said: bool = False) -> dict[str, Any]:
    """``why`` (``hosted_data_reason.data_reason``) with, on rented GPUs, the cloud's own contract and the difference
    from an API after the law's clause (the key stays, so its law's sources are still cited); ``said``: the highly
    sensitive reason before it says the difference in the words of control already (``hosted_processor.high_reason``)."""
    if said or not rents_machines(f):
        return why
    return {**why, "sector": {"tr": DATA_CONTRAST, "sector": why.get("sector") or ""}}


__all__ = ["DATA_CONTRAST", "PRIVATE", "PRIVATE_KEYS", "PRIVATE_SAID", "data_reason", "private_reason"]
