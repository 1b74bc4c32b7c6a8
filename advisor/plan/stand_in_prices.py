"""Whether owning against renting rests on stand-in prices, and whether the two months are then a tie (issue 25,
round 13: q31 bought at ¥58.9k a month owning against ¥60k renting, both priced on grade-U placeholders, and the memo
said "owning is cheaper at the middle of the ranges"; the reviewers: "a coin flip on placeholder prices … re-run it
against the customer's actual cloud bill").

A price is a stand-in where no public, dated figure was found (grade U, not the user's own quote), or where a sourced
purchase price of an export-sensitive part predates the last change of its export and import rules (today's price
and supply may differ: ``placeholder_purchase``'s stale case). Where either side of the comparison rests on one and
the two month ranges overlap, the prices cannot say which side is cheaper: a tie on these prices, decided by the
customer's cloud bill and the vendors' quotes.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.data import facts

PRICE_KINDS = ("on_demand", "reserved", "capex")  # the rows that price renting and buying the GPUs


def stale_capex(prices: list[Any]) -> list[Any]:
    """The purchase rows (sourced, not the user's quote) that price an export-sensitive part before its export and
    import rules last changed."""
    avail = facts()["gpu_availability"]
    sensitive, changed = set(avail["export_sensitive"]), str(avail["export_rules_changed"]["date"])
    return [r for r in prices if r.kind == "capex" and r.grade != "U" and not r.user_quote
            and r.gpu in sensitive and r.date < changed]  # fmt: skip


def stand_ins(prices: list[Any]) -> list[Any]:
    """The rows among ``prices`` that price renting or buying the GPUs on a stand-in: placeholders (grade U, not a
    quote) and stale purchase rows."""
    return [r for r in prices if r.kind in PRICE_KINDS and r.grade == "U" and not r.user_quote] + stale_capex(prices)


def overlap(owned: tuple[float, float], rent: tuple[float, float]) -> bool:
    """The two month ranges (low, high) share some of their span."""
    return owned[0] <= rent[1] and rent[0] <= owned[1]


def tie(owned: tuple[float, float] | None, rent: tuple[float, float] | None, prices: list[Any]) -> bool:
    """Owning's month ``owned`` and renting's ``rent`` overlap and either rests on a stand-in price: neither side is
    shown cheaper on these prices."""
    if owned is None or rent is None or None in owned or None in rent:
        return False
    return overlap(owned, rent) and bool(stand_ins(prices))


def costs_tie(costs: Any) -> bool:
    """``tie`` on a plan's cost table: bare metal's month against the rent it prints (monthly/reserved)."""
    own, rent = costs.bare_metal_monthly, costs.cloud_monthly
    if own is None or rent is None:
        return False
    return tie((own.low, own.high), (rent.low, rent.high), costs.prices)


__all__ = ["PRICE_KINDS", "costs_tie", "overlap", "stale_capex", "stand_ins", "tie"]
