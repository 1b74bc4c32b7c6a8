"""Whether renting a failed owned server's cards is a cover an engineer would accept (issue 25, blind review 20,
q26 en and zh: "N+1 holds only per replica inside 2 servers. A server failure leaves 4 of 8 replicas, '67 % of the 6
the peak needs'. The cover is renting 8 H20 on demand, a part whose cloud supply is limited and sold through sales
… so I would want a third server or written acceptance of degraded service").

``own_like`` covers a failed server by renting its cards for the repair days where that is cheaper at the middle of
the prices. That is a cover only where the rented GPU is a sourced offer sold generally. Where its rent row is a
placeholder (grade U, not the user's quote), or its supply is uncertain (an export-sensitive part on the mainland, or
a cloud family sold in some regions only through the cloud's sales: ``instance_on_request``), the memo says why the
rent is unsure and names the two covers left: one more server (its price from the plan's own purchase rows, and the
replicas it leaves with one server down) or the customers' written acceptance of degraded service for repair days
nobody has measured (``server_repair28.json``: an assumption, grade U).

Only where one server's loss leaves the peak short (``placement_rules.server_loss``): otherwise the rent is not
what holds the peak up.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import own_like
from advisor.plan.data import facts
from advisor.plan.fleet_next_replica import carried_by
from advisor.plan.instance_on_request import listed_on_request
from advisor.plan.rule_base import Facts, _money, _range

RENT_KINDS = ("on_demand", "monthly", "reserved")  # the rows a failed server's cards would be rented on


def _doubt(f: Facts, ch: Any) -> str | None:
    """Why renting the chosen part is unsure: "both", "price", "supply", or None (a sourced, generally sold offer)."""
    costs = f.cost.costs if f.cost is not None else None
    gid = ch.gpu.id
    rows = [r for r in (costs.prices if costs is not None else []) if r.gpu == gid and r.kind in RENT_KINDS]
    placeholder = not any(r.user_quote or r.grade != "U" for r in rows)
    sensitive = f.region in ("mainland", "mainland_plus_overseas") and \
        gid in set(facts()["gpu_availability"]["export_sensitive"])
    supply = sensitive or listed_on_request(gid)
    if placeholder and supply:
        return "both"
    return "price" if placeholder else "supply" if supply else None


def unsure(f: Facts, spread: Any) -> dict[str, Any] | None:
    """The figures of a rented server cover the memo must not count on (see the module's text), or None.
    ``spread``: ``placement_rules.server_loss(f)``, passed in (the placement rule reads this module)."""
    ch = getattr(f, "chosen", None)
    lay = None if ch is None else ch.layout
    costs = f.cost.costs if f.cost is not None else None
    if ch is None or lay is None or costs is None or not own_like.by_rent(ch) or lay.spare_units:
        return None
    doubt = _doubt(f, ch)
    if doubt is None or spread is None or costs.bare_metal_capex is None or lay.units < 1:
        return None
    like = costs.own_like or {}
    per_server = max(1, lay.unit_gpus // max(1, lay.tp))
    capex = costs.bare_metal_capex
    days = own_like.repair_facts()["repair_days"]
    month_more = float(like.get("month_mid") or 0) + float(like.get("other_month") or 0)
    # the share of the peak said in requests the replicas left carry, not in replicas (review 23, ``server_carry``)
    carried = carried_by(f.ctx, ch, spread.left)
    peak = max(1, int(f.ctx.peak or 0))
    return {"doubt": doubt, "gpu": ch.gpu.name, "unit_gpus": lay.unit_gpus, "left": spread.left,
            "replicas": spread.replicas, "need": spread.carrying, "pct": round(100 * carried / peak),
            "carried": carried, "peak": peak,
            # one more server of the size bought, priced pro rata on the plan's own purchase rows
            "capex": _range(capex.low / lay.units, capex.high / lay.units, f),
            "other": _money(float(f"{float(like.get('other_month') or 0):.3g}"), f),
            # with it, one server down leaves the other servers' replicas (each server filled as the plan fills it)
            "left_more": lay.units * per_server,
            "dearer": bool(like) and month_more >= float(like.get("rent_mid") or 0),
            "month_more": _money(float(f"{month_more:.3g}"), f),
            "rent": _money(float(f"{float(like.get('rent_mid') or 0):.3g}"), f),
            "days_low": days["low"], "days_high": days["high"]}  # fmt: skip


__all__ = ["unsure"]
