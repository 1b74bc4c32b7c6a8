"""The region line of a plan that runs wholly on the team's own fleet (blind review 24, q18: "Region: US West" for 32
H100s already in a colocation site the answers never placed). Off the mainland the plan's region is the offshore
region nearest the users' markets (advisor.plan.regions.market_region), a choice for renting or buying new, not where
owned servers stand: there the line says the fleet's own place. On the mainland the region is the law's (data and
service stay in the country), so it is kept; a hybrid rents its bursts in the region, so it is kept too."""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan.regions import MAINLAND_REGIONS
from advisor.plan.result import PlanResult

KEY = "nums35.region.own_fleet"


def on_own_fleet(result: PlanResult) -> bool:
    """The plan serves from the team's own GPUs alone (bought extra ones join the same fleet), renting none."""
    owned = result.costs.owned
    return (result.deployment_form in ("bare_metal", "on_premises") and owned is not None
            and bool(owned.fleet_gpus))


def region_text(result: PlanResult, lang: str, default: str) -> str:
    """"where your fleet already is" for an offshore plan on the team's own fleet; else ``default``."""
    if on_own_fleet(result) and result.region not in MAINLAND_REGIONS:
        return translate(lang, KEY)
    return default


__all__ = ["on_own_fleet", "region_text"]
