"""A hosted API's availability judged per region the service serves (issue 25, blind review 25).

q34 (en): "The memo concedes a hosted API is 'about 30–51 times less' … Its reason for keeping self-hosting, that the
International listing marks Qwen2.5-14B deprecated, does not apply to the mainland 60 %, which 百炼 and SiliconFlow
serve in-region. That comparison needs to be settled"; (zh): "The mainland Bailian/SiliconFlow listing is not
deprecated, so give the real reasons … or reopen the option."

A plan split between a mainland node and an overseas one prices each user group's tokens on its own region's list
(``hosted_prices.split_rows``). Where only the overseas list marks the model deprecated, the deprecation keeps the API
out for the overseas users alone: page 1's "Why not a hosted API" then says so of them, and for the mainland users
prices the mainland list against the mainland node, with what taking it needs (a filed provider on mainland servers
under a processing contract, its rate limits at their share of the peak, its speed on the team's prompts). The
engine's reason for keeping the API out is the deprecation alone here (``hosted_weigh.choice`` is "deprecated", so
nothing in the answers bars it), so the mainland users' API is the cheaper option to check first, not set aside.

Blind review 26 (q34): "the boss now receives two answers" — the line said "serve the mainland users from it and keep
only the overseas node" beside the two-node recommendation, and its ¥158–¥331 (the mainland share) read against
section 7's ¥782–¥955 (all users) without labels. The two-node plan stays the decision; the mainland users' API is
said as an option to test, its figure labelled as their share beside all users' month. Blind review 31 (q34): "bench
a filed mainland API for a day before taking a monthly/1-year commitment on the mainland node": the test comes
before the commitment, with the rule that decides (both measurements hold: the API; else the node as planned).
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import fair35_lead, hosted_prices, hosted_where
from advisor.plan.money_text import symbol_range
from advisor.plan.result import PlanResult, StartWith
from advisor.plan.volume_low_end import FLOOR

KEY = "apiweigh36.lead.split_deprecated"


def split_deprecated(c: Any) -> tuple[dict[str, Any], dict[str, Any], float] | None:
    """(mainland row, overseas row, mainland share) where only the overseas list marks the model deprecated."""
    split = hosted_prices.split_rows(c)
    if split is None:
        return None
    home, away, share = split
    return split if away.get("deprecated") and not home.get("deprecated") else None


def apply(start: StartWith | None, c: Any, result: PlanResult) -> StartWith | None:
    """``start`` with the Decision's line judged per region (``KEY``) where the deprecation applies to the overseas
    list alone and the mainland node is costed; else ``start`` unchanged."""
    if start is None or start.reason != "deprecated" or len(result.nodes) < 2:
        return start
    split = split_deprecated(c)
    node = next((n for n in result.nodes if n.region == "mainland"), None)
    costs = result.costs
    if split is None or node is None or node.monthly is None or not costs.output_tokens_per_month:
        return start
    home, away, share = split
    conv = costs.fx_rate if c.currency == "CNY" else 1.0
    tin, tout = float(costs.input_tokens_per_month or 0) * share, float(costs.output_tokens_per_month) * share
    (i_lo, i_hi), (o_lo, o_hi) = hosted_prices._usd(home, "input"), hosted_prices._usd(home, "output")
    lo, hi = (tin * i_lo + tout * o_lo) / 1e6 * conv, (tin * i_hi + tout * o_hi) / 1e6 * conv
    if hi <= 0 or hi >= node.monthly.low:  # not cheaper than the mainland node: the yardstick line stands
        return start
    whole = costs.hosted_api_monthly  # all users' month, section 7's figure: both labelled so neither is misread
    if whole is None:
        return start
    # s39-tokens41 (blind review 31): a month on the busiest hour's floor priced up to the volume's high end, as
    # section 7 prices it (``hosted_weigh``)
    high = float(costs.output_tokens_per_month_high or 0)  # ``hosted_weigh.high_end_factor``'s ratio
    top = high / costs.output_tokens_per_month \
        if (costs.volume_basis or {}).get(FLOOR) and high > costs.output_tokens_per_month else 1.0
    params = {**start.params,
              "away": hosted_where.names(away), "pct": round(share * 100),
              "home": hosted_where.names(home), "home_month": symbol_range(lo, hi * top, c.currency),
              "all_month": symbol_range(whole.low, whole.high * top, c.currency),
              "node_month": symbol_range(node.monthly.low, node.monthly.high, c.currency),
              "home_times": fair35_lead.times(lo, hi * top, node.monthly.low, node.monthly.high),
              "home_peak": max(1, math.ceil(c.peak * share - 1e-9))}
    return start.model_copy(update={"key": KEY, "params": params})


__all__ = ["KEY", "apply", "split_deprecated"]
