"""A box bought on a one-off budget, with no monthly budget to rent from (ninth blind review, issue #25: for q01's
office-LAN purchase the cloud-rental table, its worked-out formula, the payback against the cloud and the cost per
million tokens read as filler). Renting is then only a yardstick: the memo's cost section says it in one line, the
cloud's month reserved for a year, when owning pays off against it, and the on-demand month, in place of those
rows."""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import rent_basis
from advisor.plan.money_text import money_range
from advisor.plan.result import render

# the rows the one line stands for (their labels' keys)
_FOLDED = ("memo4.cost.cloud_monthly", "memo.batchcost15.formula_label", "plan.breakeven.months.label",
           "plan.breakeven.utilisation.label", "memo4.cost.per_million", "memo.text15.cost.per_million",
           "memo.cost.per_million_tokens", "memo.cost.per_million_all", "memo.cost.cloud_per_gpu_hour")


def applies(result: Any) -> bool:
    """An on-premises purchase on a one-off budget with no monthly budget, nothing of a fleet the team runs."""
    a, c = result.answers or {}, result.costs
    owned = c.owned if c is not None else None
    return (result.deployment_form == "on_premises" and a.get("capex_budget") is not None
            and a.get("monthly_budget") is None and owned is not None and not owned.fleet_gpus
            and c.cloud_on_demand_monthly is not None)


def fold(rows: list[tuple[str, str]], result: Any, lang: str, payback: str) -> list[tuple[str, str]]:
    """``rows`` with the renting rows folded into one (``payback``: the months-to-pay-off text, "—" when none)."""
    if not applies(result):
        return rows
    labels = {translate(lang, k) for k in _FOLDED}
    kept = [(label, value) for label, value in rows if label not in labels]
    c = result.costs
    # review 19 (q17: "the on-demand ¥35,144–¥38,455 for 4 L20s does not follow from the 14.63 CNY/card-hour
    # shown"): each figure with the product that gives it, cards × hours × rate, reserved or on demand (the formula
    # row folded here said it; s24's "renting what the load needs" where it rents other GPUs than those bought)
    what = {"tr": "review30.office.what.sized", "gpus": c.gpus} if c.rent_sized else {"tr": "review30.office.what.same"}
    params: dict[str, Any] = {"what": what, "od": rent_basis.on_demand(c), "payback": payback,
                              "on_demand": money_range(c.cloud_on_demand_monthly, c.currency)}
    key, params["cost"] = "review30.office.rent_line_no_payback", params["on_demand"]
    if payback != "—" and c.cloud_monthly is not None:
        # s27-own27 (round 16, q01: "5.7–35 months does not obviously follow from the rent range given"): the payback
        # is counted against the rent reserved for a year (``costs.cloud_monthly``), so that is the range printed
        # beside it, the on-demand month after it
        key, params["cost"] = "review30.office.rent_line", money_range(c.cloud_monthly, c.currency)
        if c.payback_vm is not None:  # paid back against an always-on VM, which ``payback`` names (s30-payback31)
            key = "payback31.office.rent_line_vm"
        params["reserved"] = rent_basis.reserved(c)
    line = (translate(lang, "memo.office19.rent_label"), render(lang, key, params))
    at = next((i for i, (label, _) in enumerate(rows) if label in labels), len(rows))
    before = sum(1 for label, _ in rows[:at] if label not in labels)
    return kept[:before] + [line] + kept[before:]
