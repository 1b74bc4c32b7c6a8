"""Reserved for the always-on floor, the burst replicas on demand (issue 25, s19-reserve19).

A plan whose replica count follows the load (bursts, day and night) was offered two cloud bases: on demand scaled to
the load, or a monthly/reserved commitment on every GPU all month. The reserved figure could then come out above on
demand (q36: 12,994–41,613 against 9,892–29,309 CNY), which no engineer would sign: they commit only for what runs
every hour (the always-on replicas, the steady load's and the N+1 spare, in whole units on sale) and rent the burst
replicas on demand for the hours they run.

That mixed basis is the reserved option wherever the floor is below the peak and it costs no more than committing
for every GPU at either end of the range: it does whenever the extra GPUs run for a smaller share of the month than
the commitment's price ratio (bursts 35 % of the hours, day/night 55 %, against a commitment at 0.7–0.85 of on
demand). Where the floor is the peak, it is the all-reserved figure itself (``monthly`` gives the same product).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.i18n import translate


def monthly(price: float, hours: float, discount: float, overhead: float, floor_gpus: float,
            billed_gpus: float) -> float:
    """One end of the mixed bill a month: the floor's GPUs every hour at the commitment price (``price`` ×
    ``discount``), the rest of the GPUs billed on demand on average (``billed_gpus`` − the floor) at ``price``,
    both with the ``overhead`` share on top."""
    return price * hours * (floor_gpus * discount + max(0.0, billed_gpus - floor_gpus)) * (1 + overhead)


@dataclass(frozen=True)
class Floor:
    """The mixed basis: ``gpus`` reserved (``replicas`` always-on replicas), ``burst`` (low, high) GPUs billed on
    demand on average on top, ``load`` the plan's load shape (it names the on-demand replicas: bursts or peak hours).
    """

    gpus: int
    replicas: int
    burst: tuple[float, float]
    load: str

    def record(self) -> dict[str, Any]:
        """What ``Costs.cloud_reserved_floor`` keeps for the memo (the burst GPUs to four decimals: the memo multiplies
        them out to the cost beside them, and q36's 0.2633 kept as 0.26 left that product 0.2 % short)."""
        return {"gpus": self.gpus, "replicas": self.replicas, "burst_low": round(self.burst[0], 4),
                "burst_high": round(self.burst[1], 4), "load": self.load}


def choose(floor: int, gpus: int, replicas: int | None, billed: tuple[float, float], load: str,
           mixed: tuple[float, float], all_reserved: tuple[float, float]) -> Floor | None:
    """The mixed basis, or None where committing for every GPU stays the reserved option: the floor is the whole
    plan (nothing to rent on demand), no replica count names the floor, or the mixed bill is dearer at either end
    (the extra GPUs run for more of the month than the commitment's price ratio: reserving them pays)."""
    if replicas is None or floor >= gpus or billed[1] <= floor:
        return None
    if mixed[0] > all_reserved[0] or mixed[1] > all_reserved[1]:
        return None
    return Floor(gpus=floor, replicas=replicas, burst=(billed[0] - floor, billed[1] - floor), load=load)


def merged(x: Any, y: Any) -> dict[str, Any] | None:
    """Two nodes' floors together (a mainland and an overseas node, ``two_nodes.merge``): each node's reserved
    GPUs (its floor, or all its GPUs where it has none) and the always-on replicas where both count them; None
    where neither node is on the mixed basis."""
    fx, fy = x.cloud_reserved_floor, y.cloud_reserved_floor
    if fx is None and fy is None:
        return None
    parts = [f if f is not None else {"gpus": c.gpus, "replicas": None, "burst_low": 0.0, "burst_high": 0.0,
                                      "load": None} for f, c in ((fx, x), (fy, y))]
    counted = all(p["replicas"] is not None for p in parts)
    return {"gpus": sum(p["gpus"] for p in parts),
            "replicas": sum(p["replicas"] for p in parts) if counted else None,
            "burst_low": round(sum(p["burst_low"] for p in parts), 4),
            "burst_high": round(sum(p["burst_high"] for p in parts), 4),
            "load": next(p["load"] for p in parts if p["load"] is not None)}


def phrases(record: dict[str, Any], lang: str) -> dict[str, str]:
    """The two halves every label says: which replicas are reserved, which are on demand."""
    n = record.get("replicas")
    floor = translate(lang, "reserve19.floor.count", replicas=n) if n else translate(lang, "reserve19.floor.any")
    rest = translate(lang, "reserve19.rest.peak" if record.get("load") == "diurnal" else "reserve19.rest.burst")
    return {"floor": floor, "rest": rest}


def cost_label(costs: Any, lang: str, cost: str) -> str:
    """The cost table's reserved option: "reserved for the 2 always-on replicas, the burst replicas on demand: …"."""
    return translate(lang, "reserve19.cost.reserved_floor", cost=cost, **phrases(costs.cloud_reserved_floor, lang))


def basis_phrase(costs: Any, on_demand: str) -> dict[str, Any]:
    """The headline's words after a cost on the mixed basis, the all-on-demand figure beside it (a ``{"tr": …}``
    phrase; the halves are phrases too, so each language renders its own)."""
    r = costs.cloud_reserved_floor
    floor = {"tr": "reserve19.floor.count", "replicas": r["replicas"]} if r.get("replicas") else \
        {"tr": "reserve19.floor.any"}
    rest = {"tr": "reserve19.rest.peak" if r.get("load") == "diurnal" else "reserve19.rest.burst"}
    from advisor.plan import od_label42  # the figure named by what it bills (review 32)

    return {"tr": "reserve19.basis.floor", "floor": floor, "rest": rest, "on_demand": on_demand,
            "od": od_label42.phrase(costs)}


def plain_phrase(costs: Any) -> dict[str, Any]:
    """``basis_phrase`` without the all-on-demand figure: a finding's title, page 1 having said it (cst44)."""
    r = costs.cloud_reserved_floor
    floor = {"tr": "reserve19.floor.count", "replicas": r["replicas"]} if r.get("replicas") else \
        {"tr": "reserve19.floor.any"}
    rest = {"tr": "reserve19.rest.peak" if r.get("load") == "diurnal" else "reserve19.rest.burst"}
    return {"tr": "cst44.floor.plain", "floor": floor, "rest": rest}


def peak_formula(costs: Any, lang: str, hours: str, price: str, factor: str) -> str:
    """"; the cheaper option, reserved for the 2 always-on replicas, the peak-hour replicas on demand = (…) = …"
    after the commitment on every GPU, where the plan reserves its peak-hour replicas too (review 29: the mixed month
    page 1 names as the option not taken, with its product); "" otherwise."""
    r, mf = costs.cloud_peak_floor, costs.cloud_monthly_factor
    if r is None or mf is None:
        return ""
    return translate(lang, "res39_peak.formula", reserved=r["gpus"], discount=_r(mf.low, mf.high), grade=mf.grade,
                     burst=_r(r["burst_low"], r["burst_high"]), hours=hours, price=price, currency=costs.currency,
                     factor=factor, cost=_r(r["low"], r["high"]), **phrases(r, lang))


def _n(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def _r(lo: float, hi: float) -> str:
    a, b = _n(lo), _n(hi)
    return a if a == b else f"{a}–{b}"


def formula(costs: Any, lang: str, hours: str, price: str, factor: str) -> str:
    """"; reserved for the always-on replicas … = (2 GPUs × 0.7–0.85 + 0.13–0.39 GPUs on demand) × 730 h × … = …"
    after the on-demand product, with what committing for every GPU would cost beside it; "" off the mixed basis."""
    r, mon, mf = costs.cloud_reserved_floor, costs.cloud_monthly, costs.cloud_monthly_factor
    if r is None or mon is None or mf is None:
        return ""
    every = costs.cloud_reserved_all_monthly
    return translate(lang, "reserve19.formula.floor", reserved=r["gpus"], discount=_r(mf.low, mf.high),
                     grade=mf.grade, burst=_r(r["burst_low"], r["burst_high"]), hours=hours, price=price,
                     currency=costs.currency, factor=factor, cost=_r(mon.low, mon.high), gpus=costs.gpus,
                     every=_r(every.low, every.high) if every is not None else "—", **phrases(r, lang))


__all__ = ["Floor", "basis_phrase", "choose", "cost_label", "formula", "merged", "monthly", "peak_formula", "phrases",
           "plain_phrase"]
