"""A hosted API at about the plan's cost, and a list that marks its model deprecated (s23-apisg23, issue 25,
re-check 12b of the twelfth blind review).

q20: "the API is cheaper at every list price on the volume costed" of $1,009 against this plan's $1,010 read as a
contradiction beside a plan that is kept. Where the two are within ``hosted_verdict.TIE`` (the verdict ``tie``), the
memo says they cost about the same and names what decides instead: a fixed month and capacity the team controls
against the API's rate limits at the peak and its speed on the team's prompts, and, where the API's list marks the
model deprecated, that a plan of many months cannot count on it.

q13, q20: Alibaba Cloud Model Studio International's list (as mirrored by models.dev) marks the Qwen2.5 models
deprecated; the price row says so (``deprecated`` in ``resources/plan/hosted_api_prices.json``) and the API's price
basis says it once, with the plan's horizon.

Blind review 20 (q12, q13, q22: "the API-first advice relies on a model the provider has marked deprecated", for a
24-month product): such a model never leads a plan that runs longer than ``LEAD_MAX_MONTHS`` (``outlived``); the
plan leads and the API's price stays beside it as a yardstick labelled so, its successor to be priced
(``KEPT_REASON``, s31-publicsaas31).
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import hosted_prices
from advisor.plan.hosted_verdict import ApiVerdict

KEY = "plan.apisg23"
# the longest plan a model its provider marks deprecated may lead: "a few months" — a policy, not a sourced figure
# (no provider list read here gives a retirement date; a deprecated model is the one next withdrawn)
LEAD_MAX_MONTHS = 3
KEPT_REASON = "publicsaas31.hosted.why.deprecated"  # the yardstick's label, as the reason the plan is kept


def deprecated_params(c: Any) -> dict[str, Any] | None:
    """{"model", "months"} where the API's price row marks its model deprecated at that provider; None elsewhere."""
    tier = hosted_prices.hosted_rates(c).tier if c is not None else None
    if tier is None or not tier.get("deprecated"):
        return None
    marked = [t for t in tier.get("parts", [tier]) if t.get("deprecated")]  # a split plan's: the list that says so
    names = " / ".join(dict.fromkeys(str(p["name"]) for t in marked for p in t.get("providers", [])
                                     if not p.get("reseller")))  # never a reseller (rv43, q21)
    return {"model": hosted_prices.priced_on(tier), "months": int(c.duration_months), "providers": names}


def outlived(c: Any) -> bool:
    """The API's price row marks its model deprecated and the plan runs longer than ``LEAD_MAX_MONTHS``."""
    return deprecated_params(c) is not None and int(c.duration_months) > LEAD_MAX_MONTHS


def noted_basis(c: Any, basis: dict[str, Any]) -> dict[str, Any]:
    """The API's price basis (``hosted_weigh.price_basis``) with the deprecation where the row marks it."""
    dep = deprecated_params(c)
    return basis if dep is None else {"tr": f"{KEY}.deprecated", "basis": basis, **dep}


def lead_clause(c: Any) -> dict[str, Any] | str:
    """The deprecation as a sentence of a lead that starts on the API (q13: "matters for a 24-month plan"); ""
    where the row does not mark its model deprecated."""
    dep = deprecated_params(c)
    return {"tr": f"{KEY}.lead_deprecated", **dep} if dep is not None else ""


def tie_params(c: Any, verdict: ApiVerdict) -> dict[str, Any]:
    """The ``tie`` keep clause's parameters: the gap in whole per cent (at least 1) and the deprecation clause."""
    dep = deprecated_params(c)
    return {"pct": max(1, math.ceil(verdict.gap_pct)),
            "deprecated": {"tr": f"{KEY}.why.tie.deprecated", **dep} if dep is not None else ""}


__all__ = ["KEPT_REASON", "LEAD_MAX_MONTHS", "deprecated_params", "lead_clause", "noted_basis", "outlived", "tie_params"]
