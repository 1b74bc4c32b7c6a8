"""Where the providers of a hosted API's price serve from, against where the lead says the API runs
(s21-apiregion21b, issue 25, eleventh blind review).

"Start on a hosted API served from Singapore … about $13 a month" was priced on W&B Inference (CoreWeave, US) (q13);
q12/q22's "Hong Kong" API on the same US list, q38's "served from Europe" API for employee HR data, q43's "HK API"
on DeepInfra and Together, q21's Hong Kong API on mainland lists (Bailian, SiliconFlow), q34's Singapore users on
mainland lists. A reviewer reads a figure said beside "served from X" as X's price; an API served elsewhere also
sends the prompts there, an onward transfer the memo did not address.

Each price row names its providers and where each serves from (``resources/plan/hosted_api_prices.json``,
``providers``: "us", "mainland", or null where not found). Where no provider of the row serves from the lead's
region (``mismatch``), the API is no priced lead at all since s22-apilead22: the plan keeps the headline and
``hosted_unserved`` says the figure as a yardstick, the quote to ask for and the transfer an API served elsewhere
makes under the law of the node's place (``transfer_law``). The old at-the-figure wording of a hosted-API lead
(``yardstick``, ``quote_here``) could no longer run and was removed (s22-cleanup22b).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices
from advisor.plan.regions import market_region
from advisor.plan.rule_base import Facts

KEY = "plan.apiregion21"

# the plan's regions a provider's "us" covers (the row says the country, not the coast)
US_REGIONS = frozenset({"us_west", "us_east"})


def providers(tier: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The row's providers the memo may name as candidates: a reseller (``"reseller": true``) is left out (rv43,
    blind review 34, q21: a reseller of others' models cannot be held to a filed model service and written data terms
    of its own, and the prompts carry personal data); its list price stays in the row's range as its high end."""
    return candidates(tier.get("providers", [])) if tier is not None else []


def candidates(rows: Any) -> list[dict[str, Any]]:
    """``rows`` (a price row's providers) without the resellers."""
    return [p for p in rows if not p.get("reseller")]


def served_from(tier: dict[str, Any] | None) -> list[str]:
    """The regions the row's providers are known to serve from ("us", "mainland"), in the row's order; [] unknown."""
    return list(dict.fromkeys(str(p["serves_from"]) for p in providers(tier) if p.get("serves_from")))


def serves_in(provider_region: str | None, region: str) -> bool:
    return provider_region is not None and (provider_region == region or
                                            (provider_region == "us" and region in US_REGIONS))


def api_region(f: Facts) -> str:
    """Where the lead says the API runs: the plan's node region; a split plan's other users' region (its mainland
    users' API is a mainland list's, which the mainland rows are)."""
    if f.region == "mainland_plus_overseas":
        node = f.overseas_node
        return str(node.region) if node is not None else market_region(f.ctx.overseas_markets)
    return f.region


def mismatch(f: Facts) -> dict[str, Any] | None:
    """The row and the region where none of its providers serves from the lead's region; None where one does (or the
    figure is the placeholder, which says so itself)."""
    tier = hosted_prices.hosted_rates(f.ctx).tier
    region = api_region(f)
    if tier is None or any(serves_in(p.get("serves_from"), region) for p in providers(tier)):
        return None
    return {"tier": tier, "region": region}


def names(tier: dict[str, Any]) -> str:
    """The row's providers as the memo names them ("W&B Inference (CoreWeave) / Together"), else whose list it is."""
    return " / ".join(str(p["name"]) for p in providers(tier)) or hosted_prices.priced_on(tier)


def transfer_law(f: Facts, region: str) -> dict[str, Any]:
    """The transfer an API served outside ``region`` makes with the prompts, under the law of that place."""
    if region == "hong_kong" and f.ctx.has_mainland_users:
        return {"tr": f"{KEY}.law.hong_kong_mainland"}
    if region in US_REGIONS:
        return {"tr": f"{KEY}.law.other"}
    known = {"singapore", "hong_kong", "europe", "japan", "mainland"}
    return {"tr": f"{KEY}.law.{region if region in known else 'other'}"}


__all__ = ["US_REGIONS", "api_region", "candidates", "mismatch", "names", "providers", "served_from", "serves_in", "transfer_law"]
