"""Whose list a hosted API's price is and where it serves from, said with the price (s22-apisg22c, twelfth blind
review).

q13/q20: "Alibaba Cloud Model Studio International serves Qwen from Singapore": a plan whose API would run there is
now priced on that list (``hosted_prices.row_for``'s region rows), and a reader must see that the rates are that
provider's in that place, not a US list's. q10: "the API comparison is priced on Qwen2.5-72B rows and names no
provider or data location": a figure on another model's list names whose list it is and where they serve from.

Said where the row's providers all serve from one known place and the row is a region's or another model's list;
a row of the model's own market list keeps its shorter basis (its providers are in the sources).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices

KEY = "plan.apisg22c"
# the basis texts that gain "at {providers}, served from {where}", and the clause after the rates for each
BASIS = {"plan.prices19.basis.model": f"{KEY}.basis.model", "plan.prices19.basis.other": f"{KEY}.basis.other",
         "plan.prices19.basis.nearest": f"{KEY}.basis.nearest"}
SHORT = {f"{KEY}.basis.model": f"{KEY}.short.model", f"{KEY}.basis.other": f"{KEY}.short.other",
         f"{KEY}.basis.nearest": f"{KEY}.short.nearest"}


def at_where(tier: dict[str, Any] | None) -> dict[str, Any] | None:
    """{"providers", "where"} where the row's providers all serve from one known place and the row is a region's
    list or another model's; None otherwise (a US own-model list, a gateway whose place is unknown)."""
    if tier is None or not (tier.get("region") or not hosted_prices.same_model(tier)):
        return None
    named = [p for p in tier.get("providers", []) if not p.get("reseller")]  # never a reseller (rv43, q21)
    places = {p.get("serves_from") for p in named}
    if len(places) != 1 or None in places:
        return None
    names = " / ".join(str(p["name"]) for p in named)
    return {"providers": names, "where": {"tr": f"{KEY}.served.{places.pop()}"}}


def basis_at(basis: dict[str, Any], tier: dict[str, Any] | None) -> dict[str, Any]:
    """``basis`` (``hosted_weigh.price_basis``) with whose list and where, where ``at_where`` says so."""
    at = at_where(tier)
    if at is None or basis.get("tr") not in BASIS:
        return basis
    return {**basis, **at, "tr": BASIS[basis["tr"]]}


__all__ = ["BASIS", "KEY", "SHORT", "at_where", "basis_at"]
