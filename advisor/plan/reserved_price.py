"""Which cloud price the plan's monthly cost stands on, said wherever that cost is quoted.

The cost model takes the cheaper of on-demand and the monthly/reserved commitment price (``cost.compute``), and
the monthly commitment is nearly always the cheaper: the headline then quoted the reserved figure while the cost
table's worked product was on demand, with nothing saying which (q35, fifth blind review: "the headline cost quietly
uses the reserved price, while other tables use on-demand").
"""

from __future__ import annotations

from typing import Any

from advisor.plan import cloud_price_labels, od_label42, reserved_floor
from advisor.plan.result import MoneyRange


def on_reserved(costs: Any) -> bool:
    """True when the recommended monthly cost is the monthly/reserved cloud price, not the on-demand one."""
    rec, mon, od = costs.recommended_monthly, costs.cloud_monthly, costs.cloud_on_demand_monthly
    if rec is None or mon is None or od is None or costs.per_job:
        return False
    return same(rec, mon) and not same(mon, od)


def same(a: Any, b: Any) -> bool:
    """Two money ranges the memo shows alike: equal to the cent's rounding (a two-node plan's sum of rounded node
    figures is a cent off the total costed in one go, and its headline lost the basis it stands on, q05)."""
    return a is not None and b is not None and abs(a.low - b.low) < 0.05 and abs(a.high - b.high) < 0.05


def premium(costs: Any) -> MoneyRange | None:
    """What reserving every GPU (page 1's month, ``peak_reserved39``) costs at most over starting the peak-hour
    replicas on demand, the high ends' difference (rv43, blind review 34, q07: "recommends reserving all 9 GPUs at up
    to ¥82,903 while on demand is ¥56,854–65,708: the headline does not say reserving can cost more"); None where
    the plan does not reserve them or reserving costs no more."""
    peak, mon = costs.cloud_peak_floor, costs.cloud_monthly
    if peak is None or mon is None or mon.high - peak["high"] < 0.5:
        return None
    diff = mon.high - peak["high"]
    return MoneyRange(low=diff, high=diff)


def who(audience: str | None) -> dict[str, Any]:
    """The people whose peak a reservation keeps served, by the audience answered (cst44, blind review 35: "a public
    service's peak" said of a B2B API, q19/q42/q43); an unanswered audience is assumed business, as the plan does."""
    kind = audience if audience in ("public", "internal") else "business"
    return {"tr": f"cst44.who.{kind}"}


def phrase(costs: Any, money: Any, why: bool = True, audience: str | None = None) -> dict[str, Any] | str:
    """A ``{"tr": …}`` phrase naming the reserved basis and the on-demand figure beside it; "" on demand.
    ``money(range) -> str`` writes a range in the plan's currency. ``why``: where every GPU is reserved for a
    public peak's stock, say so with the cheaper option (page 1); else the plain basis (a finding's title).
    ``audience``: the answered audience, naming whom the reserved peak serves."""
    if not on_reserved(costs):
        return ""
    peak = costs.cloud_peak_floor
    if peak is not None and why and premium(costs) is None:  # reserving costs no more: the old basis (review 29)
        return {"tr": "res39_peak.basis", "gpus": costs.gpus, "on_demand": money(costs.cloud_on_demand_monthly),
                "mixed": money(MoneyRange(low=peak["low"], high=peak["high"])), "od": od_label42.phrase(costs)}
    if peak is not None and why:  # every GPU reserved for a public peak's stock, why, and what it costs more (rv43)
        return {"tr": "cst44.peak.basis", "gpus": costs.gpus, "premium": money(premium(costs)), "who": who(audience)}
    if peak is not None:  # a finding's title: the basis alone, the premium said once where the choice is (rv43, q07)
        return {"tr": "rv43.peak.plain", "gpus": costs.gpus}
    if costs.cloud_reserved_floor is not None and not why:  # a finding's title: the basis alone; page 1 gives the
        return reserved_floor.plain_phrase(costs)  # on-demand figure and why (cst44, q23: said twice, then thrice)
    if costs.cloud_reserved_floor is not None:  # s19-reserve19: the floor reserved, the bursts on demand
        return reserved_floor.basis_phrase(costs, money(costs.cloud_on_demand_monthly))
    if cloud_price_labels.scaled(costs):  # s18-apiweigh: the two bill different GPU counts; each says which
        return {"tr": "plan.apiweigh18.reserved_scaled", "on_demand": money(costs.cloud_on_demand_monthly),
                **cloud_price_labels.label_params(costs)}
    return {"tr": "plan.basis16.reserved", "on_demand": money(costs.cloud_on_demand_monthly)}
