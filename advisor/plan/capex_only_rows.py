"""A box bought on a one-off budget, with no monthly budget to rent from (ninth blind review, issue #25: for q01's
office-LAN purchase the cloud-rental table, its worked-out formula, the payback against the cloud and the cost per
million tokens read as filler).

The ninth review folded those rows into one "Renting instead (a yardstick only)" line. Blind review 23 (s33-rows34)
read that line too as noise: q01's partners refused monthly bills and q17's grant cannot pay rent, so "owning pays off
after about 2.9–6.6 months" against a cloud VM, beside "not within 36 months at worst" against a marketplace, compares
the purchase with a bill the team cannot take on ("means nothing to partners who refused monthly bills and should be
cut"). With no monthly budget there is no rent to weigh: the rows go, the line with them. The plan's JSON keeps the
rent figures (``costs.cloud_monthly``, ``costs.break_even_months``), and the price table its rent rows (the cards
ranked by them).
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate

# the renting rows a one-off budget leaves out (their labels' keys)
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


def fold(rows: list[tuple[str, str]], result: Any, lang: str) -> list[tuple[str, str]]:
    """``rows`` less the renting rows where the team buys on a one-off budget and has no monthly budget to rent
    from."""
    if not applies(result):
        return rows
    labels = {translate(lang, k) for k in _FOLDED}
    return [(label, value) for label, value in rows if label not in labels]


__all__ = ["applies", "fold"]
