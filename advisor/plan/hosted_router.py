"""A hosted API's low price from a router: said so, with a direct provider's list beside it (s35-apipage).

Blind review 24, q24 (both languages): the lead's low end ($0.08 / $0.28 a million tokens) "comes from OpenRouter,
a router whose underlying providers' data terms vary"; "not a data processor you can contract with directly". A
price row's provider marked ``"router": true`` with its own ``rates`` (input, output, the row's currency) that set
the row's low end is named as a router in the lead's price bullet, and the cheapest provider on the same row that is
not a router and lists both rates is named beside it, at its list. Figures are the row's own (its source text);
nothing is computed. A row without a router at its low end, or without a direct provider's rates, adds nothing.

s35-apicost (blind review 26, q24): for a service carrying customers' data (``hosted_prices.customers_data``) the
router no longer sets the low end at all (``without_router``): the bullet says the direct list it is priced on and
the router's lower list left out, and why.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices

KEY = "apipage35.router"
ASIDE_KEY = "apicost37_lead.router_aside"  # s35-apicost (blind review 26, q24)


def _money(value: float, currency: str) -> str:
    """"$0.40" / "¥2.00": a list price a million tokens, two decimals as lists print them."""
    return f"{'¥' if currency == 'CNY' else '$'}{value:.2f}"


def clause(ctx: Any) -> dict[str, Any] | str:
    """The price bullet's router clause for ``ctx``'s hosted-API row; "" where its low end is not a router's."""
    tier = hosted_prices.hosted_rates(ctx).tier
    if tier is None:
        return ""
    providers = [p for p in tier.get("providers", []) if isinstance(p.get("rates"), list) and len(p["rates"]) == 2]
    low = (float(tier["input"][0]), float(tier["output"][0]))
    router = next((p for p in providers if p.get("router") and tuple(map(float, p["rates"])) == low), None)
    direct = min((p for p in providers if not p.get("router")), key=lambda p: tuple(p["rates"]), default=None)
    aside = tier.get("router_aside")  # s35-apicost: priced without the router (``hosted_prices.without_router``)
    if isinstance(aside, dict):
        router, low = aside, (float(aside["rates"][0]), float(aside["rates"][1]))
    if router is None or direct is None:
        return ""
    currency = str(tier.get("currency", "USD"))
    rates = " / ".join(_money(float(r), currency) for r in direct["rates"])
    if isinstance(aside, dict):  # a service carrying customers' data: the router's low end said apart, not used
        return {"tr": ASIDE_KEY, "router": router["name"], "direct": direct["name"], "rates": rates,
                "low": " / ".join(_money(r, currency) for r in low)}
    return {"tr": KEY, "router": router["name"], "direct": direct["name"], "rates": rates}


__all__ = ["KEY", "clause"]
