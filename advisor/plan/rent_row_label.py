"""The cost table's rent row named for what it prices (s33-tokens33, blind review 21, q02 zh: "the row labelled
'云 GPU 服务器，每月' actually prices a 4090 rental marketplace (1.14–1.98 CNY/h), not a cloud VM").

The rent of the plan's own GPUs is costed on whichever rows the price book holds for them; for a consumer card
(an office 4090 D) those are a GPU marketplace's hourly rentals (``price_rows.MARKETPLACE``: machines of many
owners, no data-centre contract), which the label "Cloud GPU servers" misnames. Where every rent row of the plan's
GPU is a marketplace's, the row says so; otherwise (a cloud provider's row among them) it keeps its label.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.price_rows import MARKETPLACE

RENT_KINDS = frozenset({"on_demand", "reserved", "spot"})


def marketplace_only(result: Any) -> bool:
    """Every rent row of the plan's GPU is a GPU marketplace's (none of a cloud provider; the user's quote is not)."""
    gpu = getattr(result.hardware, "gpu", None)
    rows = [r for r in (result.costs.prices if result.costs is not None else []) if r.gpu == gpu and r.kind in RENT_KINDS]
    return bool(rows) and all(r.provider == MARKETPLACE and not r.user_quote for r in rows)


def relabel(rows: list[tuple[str, str]], result: Any, lang: str) -> list[tuple[str, str]]:
    """``rows`` with the cloud month's label naming a GPU marketplace where that is what it prices."""
    if not marketplace_only(result):
        return rows
    cloud = translate(lang, "memo4.cost.cloud_monthly")
    named = translate(lang, "ovs44.cost.market_stand_in" if stand_in_floor(result) else "tokens33.cost.cloud_market")
    return [(named if label == cloud else label, value) for label, value in rows]


def stand_in_floor(result: Any) -> bool:
    """The marketplace's rows stand in for the region's data centres (another region's rows × the uplift): the month
    is a floor until a data centre quotes, never "the node's monthly cost" (blind review 35, q20: "a RunPod US
    marketplace × 1.2 price labelled as the cost, while next step 1 says 'not a GPU marketplace'")."""
    pb = result.costs.price_basis if result.costs is not None else None
    return pb is not None and bool(pb.stand_in) and bool(pb.stand_in_marketplace)


__all__ = ["RENT_KINDS", "marketplace_only", "relabel", "stand_in_floor"]
