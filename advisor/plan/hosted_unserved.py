"""A hosted API no priced provider serves from where it would run: no priced lead, a quote asked for (s22-apilead22,
issue 25, re-check 11b of the eleventh blind review).

s21-apiregion21b said "a yardstick" at the figure, but the lead still opened with it ("Start in Singapore on a hosted
API … about $13 a month", priced on a US list, q13; q12/q22/q43 Hong Kong and q38's EU HR data on US lists, q21/q34
on mainland lists), and reviewers read the headline figure as the price: "for German HR data that points the reader
at exactly the transfer the memo then warns about" (q38); "at 150 ms it is not a real alternative" (q43).

Where none of the price row's providers serves from the API's region (``hosted_where.mismatch``), the memo keeps the
self-hosted plan as its headline and says under it, in one short paragraph: no provider serving the region is priced
here; the row's figure as one yardstick clause (never the headline figure); the next step, a quote from a provider
that serves the region, with the transfer an API served elsewhere makes. Where the plan's node was placed near
mainland users for a tight first-token target and the row's providers serve from the US, that endpoint is ruled out
by the round trip (``far_ruled_out``: the network round-trip facts the plan's latency finding cites).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import api_residency, hosted_where
from advisor.plan.data import facts
from advisor.plan.hosted_data_reason import processor_law
from advisor.plan.latency_place import latency_placed, ttft_target_given
from advisor.plan.rule_base import Facts, _region

KEY = "plan.apilead22"
# the processor terms in a clause short enough for the paragraph (q13: the PIPL's in full was 25 words of 330)
SHORT_LAW = {"plan.apiweigh18.law.pipl": f"{KEY}.law.pipl"}


def unserved(f: Facts) -> bool:
    """No provider of the API's price row serves from where the API would run: its figure is a yardstick only."""
    return f.ctx is not None and hosted_where.mismatch(f) is not None


def far_ruled_out(f: Facts) -> dict[str, Any] | None:
    """The row's US endpoint ruled out by latency (q43): the node was placed near mainland users for the first-token
    target the answers set (``latency_place.latency_placed``), and the US round trip's fastest end plus the plan's
    predicted first token (the capacity card's P99, 0 where none) is already past the target. A clause, else None."""
    got = hosted_where.mismatch(f)
    slo = ttft_target_given(f.ctx) if got is not None else None
    if got is None or slo is None or latency_placed(f) != "mainland" or "us" not in hosted_where.served_from(got["tier"]):
        return None
    far = facts()["rtt_ms"]["us_west"]  # the nearest US region to the mainland: the east is further still
    lo, hi = int(far["low"]), int(far["high"])
    if lo + float(f.card_ttft_p99 or 0) <= slo:
        return None
    return {"tr": f"{KEY}.far", "low": lo, "high": hi, "slo": round(slo), "grade": str(far["grade"])}


def near_too_far(f: Facts, where: str) -> bool:
    """The node was placed near mainland users for a tight first-token target, and the round trip to ``where`` (its
    slow end, from the mainland) plus the plan's predicted first token is past it. Round 14 (q43: a Singapore API
    weighed beside a 150 ms P99 target, 38 ms + 94 ms at the route's fast end): a neighbouring region's API is an
    option only where a P99 target holds on the route's slow end, as a P99 is measured on the slow requests, and the
    plan's own first token stands in for the API's, which a shared endpoint neither publishes nor guarantees
    (``far_ruled_out`` rules a US endpoint out on the fast end, where even that breaks it)."""
    slo = ttft_target_given(f.ctx)
    rtt = facts()["rtt_ms"].get(where)
    if slo is None or rtt is None or latency_placed(f) != "mainland":
        return False
    # compared as printed (blind review 18, q43: "60 + 94 = 154 ms" is what the reader adds up): the round trip's
    # slow end and the first token each rounded as the clause prints them, so rounding never flips the verdict
    return int(rtt["high"]) + round(float(f.card_ttft_p99 or 0)) > round(slo)


def near_ruled_out(f: Facts) -> dict[str, Any] | None:
    """The clause saying why a neighbouring region's row is a yardstick only where its round trip's slow end and
    the plan's first token pass the target (``near_too_far``); None otherwise."""
    got = hosted_where.mismatch(f)
    if got is None:
        return None
    for where in hosted_where.served_from(got["tier"]):
        if where != "us" and near_too_far(f, where):
            rtt = facts()["rtt_ms"][where]
            ttft = round(float(f.card_ttft_p99 or 0))  # the sum printed beside the target it misses (q43)
            return {"tr": "consistent28.near_far", "where": {"tr": f"lead24.where.{where}"}, "low": int(rtt["low"]),
                    "high": int(rtt["high"]), "ttft": ttft, "sum": int(rtt["high"]) + ttft,
                    "slo": round(float(ttft_target_given(f.ctx) or 0)), "grade": str(rtt["grade"])}
    return None


def _yardstick(f: Facts, hosted: Any, plan: str, per: Any) -> dict[str, Any]:
    """The row's figure as one clause: whose list, the month against the plan's, a yardstick only."""
    kind = api_residency.miss(f)  # review 25 (q25, q38): a list served where the prompts may not go is no yardstick
    if kind is not None:
        return api_residency.yardstick(f, kind)
    got = hosted_where.mismatch(f)
    assert got is not None
    tier, where = got["tier"], hosted_where.served_from(got["tier"])
    if f.region == "mainland_plus_overseas" and where == ["mainland"]:
        variant = "split"  # a split plan's mainland users are served by the mainland lists; its others are not
    elif len(where) == 1 and all(p.get("serves_from") for p in hosted_where.providers(tier)):
        variant = "one"
    else:
        variant = "mixed"
    return {"tr": f"{KEY}.yardstick.{variant}", "hosted": hosted, "plan": plan, "per": per,
            "providers": hosted_where.names(tier),
            "where": {"tr": f"plan.apiregion21.where.{where[0]}"} if where else "", "region": _region(got["region"])}


def lead_params(f: Facts, hosted: Any, plan: str, per: Any) -> dict[str, Any]:
    """The paragraph under the headline: none priced in the region, the yardstick clause, the quote to ask for (with
    a data-processing agreement where the prompts carry personal information), the transfer an API served elsewhere
    makes, and the US endpoint ruled out by latency where it is."""
    got = hosted_where.mismatch(f)
    assert got is not None
    region = got["region"]
    law = processor_law(f)
    law = SHORT_LAW.get(law, law)
    dpa = {"tr": f"{KEY}.dpa", "law": {"tr": law}} if f.ctx.personal_info else ""
    return {"region": _region(region), "yardstick": _yardstick(f, hosted, plan, per), "dpa": dpa,
            "law": hosted_where.transfer_law(f, region), "far": far_ruled_out(f) or near_ruled_out(f) or "", "after": after_filing(f)}


def after_filing(f: Facts) -> dict[str, Any] | str:
    """A mainland company starting offshore while its filing is pending, priced on mainland lists (q21): those lists'
    filed providers serve it once the service moves to the mainland (re-check 11b: "a mainland-served API, once the
    front end is filed, may be the simpler route"); "" elsewhere."""
    got = hosted_where.mismatch(f)
    if got is None or f.region == "mainland_plus_overseas" or not f.ctx.entity or not f.offshore:
        return ""
    return {"tr": f"{KEY}.after_filing"} if hosted_where.served_from(got["tier"]) == ["mainland"] else ""


def finding_params(f: Facts, hosted: Any, plan: str, per: Any) -> dict[str, Any]:
    """The finding ``cost.hosted_weighed``'s "unserved" variant: the region, the yardstick clause, the far endpoint."""
    got = hosted_where.mismatch(f)
    assert got is not None
    return {"region": _region(got["region"]), "yardstick": _yardstick(f, hosted, plan, per),
            "far": far_ruled_out(f) or near_ruled_out(f) or "", "peak": f.ctx.peak}


__all__ = ["KEY", "after_filing", "far_ruled_out", "finding_params", "lead_params", "near_ruled_out", "near_too_far",
           "unserved"]
