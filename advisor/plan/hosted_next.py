"""The deprecated API model's next generation on the same list, priced beside it (s31-util32, blind review 20b, q13:
"two L40S rented 24/7 at $2,148–3,057/month … against ~$74/month via Model Studio International; the API is dropped
only because that model is deprecated, and the memo never prices the successor model").

A price row that marks its model deprecated may name the same size's next generation on the same provider's list
(``next`` in ``resources/plan/hosted_api_prices.json``, with its own source). The plan is still kept for the model the
team named (``hosted_tie.outlived``: a deprecated model does not lead a long plan), but the reason now says what the
next generation would cost at the same volume and the condition on which it is the cheaper start: it is a different
model, so only if it passes the team's quality test on its own prompts (the condition q24's other-model lead states).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices
from advisor.plan.hosted_tie import deprecated_params

KEY = "util32.hosted.why.deprecated_next"
# the Decision's "Why not a hosted API" line with the deprecated model's month said before the reason, so the next
# generation's month that ends the reason is not read as the one "(that API: …)" names
LEAD_KEY = "util32.lead.deprecated_next"


def row(c: Any) -> dict[str, Any] | None:
    """The ``next`` entry of the API's price row where that row marks its model deprecated; None elsewhere (a split
    plan's combined row names none)."""
    if c is None or deprecated_params(c) is None:
        return None
    tier = hosted_prices.hosted_rates(c).tier
    nxt = (tier or {}).get("next")
    return nxt if isinstance(nxt, dict) else None


def month_factor(c: Any, output_tokens: float, input_tokens: float) -> tuple[float, float] | None:
    """(low, high): the next generation's month ÷ the deprecated model's at the same tokens, input and output at
    their own rates (the month the memo prints, ``costs.hosted_api_monthly``, × this is the next one's month in the
    answers' currency); None without a ``next`` row or tokens."""
    nxt = row(c)
    if nxt is None or output_tokens <= 0:
        return None
    rates = hosted_prices.hosted_rates(c)
    new = output_tokens * float(nxt["output"]) + input_tokens * float(nxt["input"])
    (i_lo, i_hi), (o_lo, o_hi) = rates.input_usd, rates.output_usd
    old_lo, old_hi = output_tokens * o_lo + input_tokens * i_lo, output_tokens * o_hi + input_tokens * i_hi
    if old_lo <= 0 or old_hi <= 0:
        return None
    return new / old_lo, new / old_hi


def reason(c: Any, costs: Any, money: Any) -> dict[str, Any] | None:
    """The keep reason's parameters with the next generation priced ("… its next generation there, Qwen3-14B, lists
    at $0.144 / $0.574 … would cost about $31 a month …"); None where there is none to price. ``money(lo, hi)``
    prints a month in the answers' currency as the memo does."""
    hosted, out = getattr(costs, "hosted_api_monthly", None), getattr(costs, "output_tokens_per_month", None)
    if hosted is None or not out:
        return None
    inp = getattr(costs, "input_tokens_per_month", None) or c.input_for(out)
    k = month_factor(c, float(out), float(inp))
    nxt = row(c)
    if k is None or nxt is None:
        return None
    rates = f"${float(nxt['input']):g} / ${float(nxt['output']):g}"
    return {"tr": KEY, "next": str(nxt["model_name"]), "rates": rates,
            "next_month": money(hosted.low * k[0], hosted.high * k[1]), "date": nxt["date"], "grade": nxt["grade"]}


__all__ = ["KEY", "LEAD_KEY", "month_factor", "reason", "row"]
