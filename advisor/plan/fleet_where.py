"""The region line of a plan that runs wholly on the team's own fleet (blind review 24, q18: "Region: US West" for 32
H100s already in a colocation site the answers never placed). Off the mainland the plan's region is the offshore
region nearest the users' markets (advisor.plan.regions.market_region), a choice for renting or buying new, not where
owned servers stand: there the line says the fleet's own place. On the mainland the region is the law's (data and
service stay in the country), so it is kept; a hybrid rents its bursts in the region, so it is kept too."""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.regions import MAINLAND_REGIONS
from advisor.plan.result import PlanResult

KEY = "nums35.region.own_fleet"
NODE_KEY = "nums35.region.fleet_node"


def on_own_fleet(result: PlanResult) -> bool:
    """The plan serves from the team's own GPUs alone (bought extra ones join the same fleet), renting none."""
    owned = result.costs.owned
    return (result.deployment_form in ("bare_metal", "on_premises") and owned is not None
            and bool(owned.fleet_gpus))


def facts_on_own_fleet(form: str, cost: Any) -> bool:
    """``on_own_fleet`` for the rules, before the result exists (``cost``: the engine's CostOutcome, whose
    ``forms.owned`` is the fleet's costed way when the team's fleet carries the plan, advisor.plan.forms)."""
    forms = getattr(cost, "forms", None)
    owned = getattr(forms, "owned", None)
    return form in ("bare_metal", "on_premises") and owned is not None and bool(owned.cost.fleet_gpus)


def node_region(form: str, cost: Any, region: str) -> dict[str, str]:
    """A finding's region parameter: the fleet's own site for an offshore plan on it, else the plan's region."""
    if region not in MAINLAND_REGIONS and facts_on_own_fleet(form, cost):
        return {"tr": NODE_KEY}
    return {"tr": f"plan.region.{region}"}


def region_text(result: PlanResult, lang: str, default: str) -> str:
    """"where your fleet already is" for an offshore plan on the team's own fleet; else ``default``."""
    if on_own_fleet(result) and result.region not in MAINLAND_REGIONS:
        return translate(lang, KEY)
    return default


__all__ = ["facts_on_own_fleet", "node_region", "on_own_fleet", "region_text"]
