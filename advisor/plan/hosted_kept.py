"""A hosted API cheaper on the plan's own estimate of the volume: kept for a real reason, or led with, and the terms
to get first where the prompts are confidential (s25-apivol25, issue 25, round 14 of the blind review).

Round 14 (q10, q12, q13, q21, q22, q24, q34, q35, q42): "the memo keeps self-hosting while its own figures show a
hosted API 20–300× cheaper, and sets it aside because the volume is our estimate". An estimate is no reason to keep
a plan 20× dearer, and no reason to drop one either; what the user can confirm is the request count (asked first
on page 1, ``volume_flip``). So, where the volume is our estimate:

- a real reason keeps the plan, and is said as the reason (never the estimate): the only priced API served from
  another jurisdiction than the node's, the users not there, so every prompt would cross into it (``real_reason``).
  Review 15 (s25-apikept25) narrowed it: Hong Kong and Singapore are one class (q12, q22), and a filed mainland API
  for mainland users keeps their prompts at home (q21): those now lead, the place it is served said in the lead
  (``runs_reach``); another model's list is no reason either (q10, q24): the switch is a quality test away, said in
  the lead, as on a volume the user gave. The answers' own reasons are weighed before the volume,
  as on the user's own count (``hosted_weigh.choice``): a hard one keeps the plan whatever the volume; an ordinary
  one (a service on the team's network, a tight first-token target) does not keep a plan ten times dearer on the
  user's count, so it does not on the estimate either (q35 starts on the API, as with 2,000 requests a day);
- nothing but the estimate keeps it: the memo decides on the estimate and starts on the API, the volume that would
  flip it asked first (``hosted_weigh.lead_or_assumed``).

q10's must-not n3 ("a hosted API for confidential client documents without saying where the data goes"): wherever
the memo suggests an API for prompts the answers call confidential (personal information, or data above the low
level), it names the terms to get first: no training on the inputs, retention and deletion, a data-processing
agreement under the law that applies where personal information is in them, and the region that processes them
(``terms_clause``).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_assumed, hosted_prices, hosted_where
from advisor.plan.hosted_processor import short_law
from advisor.plan.rule_base import Facts, _region

KEY = "plan.apivol25"
# data levels the answers call confidential beside personal information (client documents, a firm's own reports)
CONFIDENTIAL_LEVELS = frozenset({"medium", "high"})


def real_reason(f: Facts) -> dict[str, Any] | None:
    """The reason this plan is kept beside an API cheaper on the estimated volume, as a clause ending in ``{more}``;
    None where nothing but the estimate keeps it (the memo then starts on the API).

    s25-apikept25 (review 15, q24): another model's list is no reason by itself. Where the plan's model is priced
    on a close hosted model of its family, the switch is a quality test away: the memo leads on the numbers with
    the switch said (``hosted_switch.switch_clause``), as it does on a volume the user gave (q10, q24 alike)."""
    return where_reason(f)


def jurisdiction(region: str) -> str:
    """The class of jurisdiction a region's data law puts prompts in: the mainland, or outside it ("offshore").
    Hong Kong and Singapore are one class here: neither keeps prompts from the other the way the mainland's export
    rules keep them in (review 15, q22: "compare jurisdictions, not cities")."""
    return "mainland" if region == "mainland" else "offshore"


def where_reason(f: Facts) -> dict[str, Any] | None:
    """The only priced API is served from another jurisdiction than the node's (``hosted_assumed.reachable``), and
    the users are not there: every prompt would leave the jurisdiction the node keeps them in, with the transfer it
    makes where they carry personal information.

    s25-apikept25 (review 15): never where the node and the API are in the same class (q22: a Singapore API beside a
    Hong Kong node, both offshore) nor where the users are where the API is (q21: a filed mainland API for mainland
    users keeps their prompts at home; the offshore node was for the pending ICP filing, not for the data)."""
    where = hosted_assumed.reachable(f)
    got = hosted_where.mismatch(f)
    if where is None or got is None:
        return None
    region = str(got["region"])
    if jurisdiction(where) == jurisdiction(region) or users_there(f, where):
        return None
    law: dict[str, Any] | str = ""
    if f.ctx.personal_info and where != "mainland":
        law = {"tr": "plan.api24.served.law", "law": hosted_where.transfer_law(f, region)}
    return {"tr": f"{KEY}.why.{'mainland' if where == 'mainland' else 'near'}",
            "where": {"tr": f"plan.apiregion21.where.{where}"}, "providers": hosted_where.names(got["tier"]),
            "region": _region(region), "law": law, "more": ""}


def users_there(f: Facts, where: str) -> bool:
    """The users are in the jurisdiction the API is served from (all of them, for the mainland)."""
    c = f.ctx
    if jurisdiction(where) == "mainland":
        return bool(c.mainland_share >= 1)
    return not c.has_mainland_users


def runs_reach(f: Facts) -> dict[str, Any] | None:
    """Where a lead's API is one the prompts may reach, served from another place than the node (``hosted_assumed
    .reachable``, no reason against it here): the sentence that says where it is served and why that is no bar,
    in place of "calls an API served from there" (review 15: q21's API is in the mainland, q22's in Singapore).
    None where the row serves the node's region (``hosted_bars.runs_clause`` says it)."""
    where = hosted_assumed.reachable(f)
    got = hosted_where.mismatch(f)
    if where is None or got is None or where_reason(f) is not None:
        return None
    region = str(got["region"])
    law: dict[str, Any] | str = ""
    if f.ctx.personal_info and where != "mainland":
        law = {"tr": "plan.api24.served.law", "law": hosted_where.transfer_law(f, region)}
    return {"tr": f"plan.apikept25.runs.{'mainland' if where == 'mainland' else 'near'}",
            "where": {"tr": f"plan.apiregion21.where.{where}"}, "providers": hosted_where.names(got["tier"]),
            "region": _region(region), "law": law}


def confidential(c: Any) -> bool:
    """The prompts are what the answers call confidential: personal information, or data above the low level."""
    return bool(c.personal_info) or c.level in CONFIDENTIAL_LEVELS


def _served(f: Facts) -> dict[str, Any]:
    """Which region processes the prompts, with where the priced providers serve from where the list says."""
    where = hosted_where.served_from(hosted_prices.hosted_rates(f.ctx).tier)
    if not where:
        return {"tr": f"{KEY}.terms.region"}
    if where[0] in ("mainland", "us"):  # "the mainland", "the US": said with the article in English
        return {"tr": f"{KEY}.terms.where.{where[0]}"}
    return {"tr": f"{KEY}.terms.where.other", "where": {"tr": f"plan.apiregion21.where.{where[0]}"}}


def terms_clause(f: Facts, *, lead: bool = False) -> dict[str, Any] | str:
    """The terms to get before confidential prompts go to an API (a sentence, leading space); "" for data the answers
    call neither personal nor confidential. ``lead``: the lead already names the company that keeps them, where, and
    the data-processing agreement (``hosted_bars.runs_clause``, ``plan.apisg23.lead_dpa``): the rest only."""
    c = f.ctx
    if not confidential(c):
        return ""
    if lead:
        return {"tr": f"{KEY}.terms.lead"}
    dpa = {"tr": f"{KEY}.terms.dpa", "law": short_law(f)} if c.personal_info else ""
    return {"tr": f"{KEY}.terms", "dpa": dpa, "where": _served(f)}


def short_break_even(be: dict[str, Any] | str) -> dict[str, Any] | str:
    """The break-even sentence where page 1's first question gives the same volume in requests a day: pointing to it
    instead of the price list's title (the cost table and the finding cite it), one line shorter on page 1."""
    if not isinstance(be, dict) or be.get("tr") not in ("plan.hostedlead20.be.high", "plan.hostedlead20.be.flat"):
        return be
    return {**be, "tr": f"{KEY}.be.{str(be['tr']).rsplit('.', 1)[-1]}"}


def kept_params(f: Facts, why: dict[str, Any]) -> dict[str, Any]:
    """The kept plan's paragraph (``plan.apivol25.kept``) beyond the costs: the reason (which says where the API is
    served from, ``where_reason``), the model switch, the context check, the terms."""
    return {**hosted_assumed.lead_params(f), "why": why, "terms": terms_clause(f)}


__all__ = ["CONFIDENTIAL_LEVELS", "KEY", "confidential", "jurisdiction", "kept_params", "real_reason",
           "runs_reach", "short_break_even", "terms_clause", "users_there", "where_reason"]
