"""Page 1 says one thing where the plan's own middle favours renting (s27-ownrent27b, blind review 17: q26/q31 sent
back in both languages, "a reader cannot tell whether the advice is buy 2, buy 3 or rent").

The deployment form stays owning (the measured load, the horizon and the team's ops are why; the quotes may change
the figures), but ``cost.buy`` found renting what the load needs cheaper at the middle of today's stand-in prices
(``rent_cheaper_tie``). So page 1 leads with what to do at today's figures, renting, and states the purchase as the
condition; the rows that describe the purchase (hardware, cost, launch) say "if bought", and "feasible" says it holds
either way (the rent is the cheaper month and starts without the servers' delivery). One purchase branch only: the
servers sized below; the spare-less variant stays a finding's figure, not a second headline branch.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.own_rent_verdict import rent_what
from advisor.plan.rent_cheaper_tie import TIE_RENT_TITLE
from advisor.plan.result import render


def _tie(result: Any) -> Any:
    """``cost.buy`` where renting is cheaper at the middle and a purchase threshold is printed; None elsewhere."""
    f = next((x for x in result.findings if x.id == "cost.buy" and x.title_key == TIE_RENT_TITLE), None)
    if f is None or "max_purchase" not in (f.params.get("threshold") or {}) or not f.params.get("cloud"):
        return None
    return f


def compared_what(costs: Any) -> dict[str, Any]:
    """The rent in the own-or-rent finding's comparison sentence: where it is rented at a lower precision than the
    servers bought keep (gpu26), the sentence says why the two are not compared at one precision (blind review 17,
    q26: "mixes fp8 TP2 (rent) with bf16 TP2 (buy)"); else ``own_rent_verdict.rent_what``."""
    sized = costs.rent_sized or {}
    if sized.get("weights") and sized.get("bought_weights") and sized["weights"] != sized["bought_weights"]:
        return {"tr": "ownrent27b.rent.what.precision", "gpus": sized["gpus"], "weights": sized["weights"],
                "bought_weights": sized["bought_weights"]}
    return rent_what(costs)


def applies(result: Any) -> bool:
    """Page 1 leads with renting and the purchase is the condition."""
    # s28-own28: renting cheaper like for like on a measured load is the rent-now-buy-later form itself
    return result.deployment_form in ("bare_metal", "cloud_then_bare_metal") and _tie(result) is not None


def headline(result: Any, lang: str, own_form: str) -> str:
    """"Rent for now 16 × H20 (fp8), ¥X–Y a month …; own bare-metal servers … only if the quotes bring the purchase
    under about ¥Z"; "" where it does not apply. ``own_form``: the owning form's words as page 1 names it."""
    f = _tie(result) if applies(result) else None
    if f is None:
        return ""
    what = f.params.get("what") or {}
    weights = what.get("weights")
    own = own_form[:1].lower() + own_form[1:] if lang == "en" else own_form
    return render(lang, "ownrent27b.form.rent_first", {
        "gpus": what.get("gpus") or f.params.get("own_gpus"), "gpu": result.hardware.gpu_name or result.hardware.gpu,
        "weights": render(lang, "ownrent27b.form.weights", {"weights": weights}) if weights else "",
        "cloud": f.params["cloud"], "own": own, "max_purchase": f.params["threshold"]["max_purchase"]})


def own_form_key(result: Any, key: str) -> str:
    """The owning form's words the rent-first headline names as its condition: renting now and buying later on a
    measured load (s28-own28) buys bare-metal servers, not "once the load is proven" (it is measured)."""
    return "memo.form.bare_metal" if result.deployment_form == "cloud_then_bare_metal" and applies(result) else key


def if_bought(result: Any, lang: str, value: str) -> str:
    """A page-1 row that describes the purchase, marked as the condition's branch where the headline leads with
    renting; the value unchanged elsewhere."""
    return render(lang, "ownrent27b.key.if_bought", {"value": value}) if applies(result) else value


def feasible(result: Any, lang: str, value: str) -> str:
    """"yes" where the headline leads with renting: it holds rented or bought (the rent is the cheaper month)."""
    if not applies(result) or not result.feasible:
        return value
    return value + render(lang, "ownrent27b.key.feasible_either", {})


__all__ = ["applies", "compared_what", "feasible", "headline", "if_bought", "own_form_key"]
