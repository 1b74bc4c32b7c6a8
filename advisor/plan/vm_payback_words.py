"""The memo's words for a purchase paid back against an always-on cloud VM (``Costs.payback_vm``, set by
``advisor.plan.vm_yardstick``): which offer it is and why it is the yardstick, the deciding reason for buying (the
service stays on the team's own network), and what is assumed about the one-off payment no answer gave (blind review
20, q02: "the memo picks buying only because of the LAN requirement without saying so plainly"; the "can you pay up
front" question "is confusing when the owner clearly can pay ~¥20–28k once").
"""

from __future__ import annotations

import re
from typing import Any

from advisor.i18n import translate
from advisor.plan import budget_share, memo_text15, rent_fallback
from advisor.plan.answers import OWN_NETWORK_REACH
from advisor.plan.data import gpus_by_id
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange, render


def vm_offer(costs: Any, lang: str) -> str | None:
    """The VM's offer as the price table names it, without its bracketed detail, with its GPU ("Alibaba Cloud
    gn7i-c8g1.2xlarge, NVIDIA A10 24GB"); None where the payback is against the printed rent."""
    vm = getattr(costs, "payback_vm", None)
    if not vm:
        return None
    row = next((r for r in costs.prices if r.id == vm["offer_id"]), None)
    if row is None:
        return None
    name = re.split(r"\s*[(（]", memo_text15.price_offer(row, lang))[0]
    gpu = gpus_by_id().get(str(vm["gpu"]))
    return translate(lang, "payback31.vm_name", offer=name, gpu=gpu.name) if gpu is not None else name


def vm_rent(costs: Any) -> MoneyRange:
    return MoneyRange(low=float(costs.payback_vm["low"]), high=float(costs.payback_vm["high"]))


def market_payback(costs: Any) -> tuple[float, float | None] | None:
    """Months the purchase takes to pay back against the GPU-marketplace rent the cost table prints (its committed
    month): (best: the low purchase against the high rent less the low running costs; worst: the other way round,
    None where renting then costs no more than running the box); None without an owned box or that rent."""
    own, rent = getattr(costs, "owned", None), getattr(costs, "cloud_monthly", None)
    if own is None or rent is None:
        return None
    best_room, worst_room = rent.high - own.running_monthly.low, rent.low - own.running_monthly.high
    if best_room <= 0:
        return None
    return own.capex.low / best_room, (own.capex.high / worst_room if worst_room > 0 else None)


def _market_words(costs: Any) -> dict[str, Any] | str:
    """"about 14–117 months" / "about 14 months at best, never at worst" against the marketplace rent (blind review
    20b, q02: the memo quoted that rent and paid back only against the VM, "readers will notice")."""
    m = market_payback(costs)
    if m is None:
        return {"tr": "campus32.market.never"}
    best, worst = m
    if worst is None or worst > costs.horizon_months:
        return {"tr": "campus32.market.beyond", "best": f"{best:,.0f}", "months": costs.horizon_months}
    return {"tr": "campus32.market.range", "best": f"{best:,.0f}", "worst": f"{worst:,.0f}"}


def over_budget(costs: Any) -> bool:
    """The always-on VM costs more than the monthly budget even at its low end: a rent the team could not pay."""
    budget = getattr(costs, "budget_monthly", None)
    return bool(getattr(costs, "payback_vm", None)) and budget is not None and vm_rent(costs).low > budget


def lan_over_budget(costs: Any, reach: str) -> bool:
    """An office-LAN box under a monthly budget whose always-on VM is over it: no rent keeps the service on the LAN,
    the VM decides the payback, the purchase is paid once (``box41`` wording: issue #25, blind review 31, q02)."""
    return reach == "lan" and bool(getattr(costs, "budget_monthly", None)) and over_budget(costs)


def table_row(costs: Any, lang: str, said: str, answers: dict[str, Any] | None = None) -> str:
    """The cost table's "Owning pays off" value ``said``, with the VM it is against and why, where it is one, and
    the payback against the marketplace rent the table prints, with why that card is no alternative here. Where the
    VM is over the monthly budget, one line against the rent the budget covers (s33-rows34, blind review 23, q02:
    "pays back after about 2.9–6.4 months" against a VM the memo itself called over budget, beside "not within the
    24 months at worst" against the marketplace, read as self-contradictory): the marketplace's payback, and the VM
    only as why renting cannot keep the service on the team's network."""
    offer = vm_offer(costs, lang)
    if offer is None:
        return said
    if over_budget(costs):
        # issue #25 (review 29, q02): paid back first against the cheapest rent of the card the budget covers; the
        # VM is off-site cloud too (no more on the office LAN than the marketplace card), so it comes after, over the
        # budget, with the factors its month is multiplied out of
        basis = vm_basis(costs)
        reach = str((answers or {}).get("reach"))
        if basis is not None and lan_over_budget(costs, reach):
            # issue #25 (blind reviews 30 and 31, q02): no rent keeps the service on the office LAN; of the rents,
            # the always-on VM is the like-for-like one and its payback decides; the marketplace card, billed by the
            # hour with no data-centre contract, after it as not comparable, with the fallback if it cannot be paid
            # blind review 34 (q02): two paybacks in one cell read as "buying doesn't pay"; the like-for-like one
            # (the VM) alone carries a figure, the marketplace card one short clause on why it is not comparable
            # cst44 (blind review 35, q02): the like-for-like figure, the same card rented, said too, and the LAN-only
            # requirement named as the reason to buy ("against the 4090 D rent it is closer to two years")
            rent = getattr(costs, "cloud_monthly", None)
            if rent is not None:
                return render(lang, "cst44.lan.breakeven", {
                    "vm": offer, "be": said, "basis": basis, "rent": money_range(rent, costs.currency),
                    "market": _market_words(costs), "fallback": rent_fallback.clause(answers or {}, "")})
            return render(lang, "of43.breakeven_over", {
                "vm": offer, "be": said, "basis": basis, "fallback": rent_fallback.clause(answers or {}, "")})
        if basis is not None:
            return render(lang, "basis40_vm.breakeven_over", {"market": _market_words(costs), "vm": offer,
                                                               "be": said, "basis": basis})
        return render(lang, "rows34.breakeven.over", {"market": _market_words(costs), "vm": offer, "be": said,
                                                       "vm_rent": money_range(vm_rent(costs), costs.currency)})
    return render(lang, "campus32.breakeven.vm", {"be": said, "vm": offer, "market": _market_words(costs),
                                                  "vm_rent": money_range(vm_rent(costs), costs.currency)})


def vm_basis(costs: Any) -> dict[str, Any] | None:
    """The VM's month multiplied out: "9.74 CNY/GPU·h × 730 h = 7,110 CNY on demand, × 0.61–0.75 (a year's
    commitment) × 1.05–1.15 (storage) = 4,554–6,133 CNY a month"; None for a plan stored without its factors."""
    vm = getattr(costs, "payback_vm", None) or {}
    if not all(k in vm for k in ("gpus", "price", "discount", "factor")):
        return None
    from advisor.plan.cost import HOURS_PER_MONTH
    from advisor.plan.memo_cost_formula import _r
    from advisor.plan.printed_factors import fit

    (plo, phi), (dlo, dhi), (flo, fhi), n = vm["price"], vm["discount"], vm["factor"], int(vm["gpus"])
    price, discount, factor = fit((plo, phi), (dlo, dhi), (flo, fhi))
    return {"tr": "basis40_vm.basis", "gpus": n, "price": price, "hours": f"{HOURS_PER_MONTH:,.0f}",
            "on_demand": _r(n * HOURS_PER_MONTH * plo, n * HOURS_PER_MONTH * phi), "discount": discount,
            "factor": factor, "currency": costs.currency, "month": money_range(vm_rent(costs), costs.currency)}


def open_question(q: Any, result: Any, lang: str) -> str | None:
    """The unanswered one-off budget beside a purchase judged on the monthly budget: what is assumed (it is paid once)
    and what changes if it cannot be; None for any other question or plan."""
    c = result.costs
    if q.field != "capex_budget" or c is None or c.capex_budget is not None or not getattr(c, "payback_vm", None):
        return None
    owned = c.owned if result.deployment_form == "on_premises" else None
    capex = owned.capex if owned is not None else c.bare_metal_capex
    if capex is None:
        return None
    reach = str((getattr(result, "answers", None) or {}).get("reach"))
    key = "box41.question.capex" if lan_over_budget(c, reach) else "payback31.question.capex"
    return translate(lang, key, capex=money_range(capex, c.currency))


def capex_note(c: Any, lang: str, reach: str, params: dict[str, Any]) -> str | None:
    """Page 1's note beside a purchase with no one-off budget, where it is paid back against an always-on VM: assumed
    paid once, bought because the service stays on the team's own network, paid back against that VM (named), and the
    marketplace rent of the same card with what it is fit for and the fallback (``params``: the rent note's own
    ``rent``, ``fits`` and ``fallback``); None where it does not apply."""
    offer = vm_offer(c, lang)
    be = c.break_even_months
    if offer is None or be is None or reach not in OWN_NETWORK_REACH:
        return None
    vm = vm_rent(c)
    # the VM against the monthly budget too: what renting it would mean if the purchase cannot be paid once
    fits: dict[str, Any] | str = ""
    if c.budget_monthly:
        fits = {"tr": f"plan.inputs17.capex.rent_{budget_share.part(vm.low, vm.high, c.budget_monthly)}"}
        if fits["tr"].endswith("_most"):
            fits = {"tr": "ownrent24.capex.rent_most", "pct": budget_share.percent(vm.low, vm.high, c.budget_monthly)}
    if over_budget(c):  # a VM the team could not rent: no payback against it on page 1 (s33-rows34, q02)
        # on the office LAN no rent keeps the service there, the VM no more than the marketplace card, and the sum
        # paid once is the owner's to sign off beyond the monthly budget (issue #25, review 29, q02 en+zh)
        # blind review 31 (q02): the cell is the price and one line of reason; renting is weighed in section 4
        key = "box41.capex_over_lan" if lan_over_budget(c, reach) else f"rows34.capex.vm_over_{reach}"
        return render(lang, key, {**params, "vm": offer, "vm_rent": money_range(vm, c.currency),
                                  "budget": money_range(MoneyRange(low=c.budget_monthly, high=c.budget_monthly),
                                                        c.currency) if c.budget_monthly else ""})
    # the payback as the cost table's row says it (one figure, one rounding: page_one_payback)
    return render(lang, f"payback31.capex.vm_{reach}", {**params, "vm": offer, "payback": be.text(lang, "months"),
                                                         "vm_fits": fits, "vm_rent": money_range(vm, c.currency)})

__all__ = ["capex_note", "lan_over_budget", "market_payback", "open_question", "over_budget", "table_row", "vm_basis", "vm_offer", "vm_rent"]
