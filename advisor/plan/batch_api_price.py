"""A provider's batch API priced where the price list holds a model it covers at that provider (s33-numbers1, issue
25, blind review 23 on q29: "The memo mentions a 50 %-off batch API for Qwen-Flash/Plus but never prices it: at this
volume it may fit the budget if its completion window can be met, and it should be costed").

``batch_api17.json`` names the models each batch API covers; ``priced_models`` lists those of them (catalog ids) the
hosted price list may hold. Where a row of one of them in the plan's market names the batch provider among its
providers, the job's own tokens (input and output apart, as the hosted API is priced) are priced at that row less the
batch discount, and the model named: it is another model than the plan's, a change of model like the hosted API's
fix. Where no such row is, the note says the batch price is not in the price list: unpriced, never guessed.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices


def job_tokens(c: Any) -> tuple[float, float] | None:
    """(input, output) tokens of an offline job: its requests × the average prompt and answer; None without a count."""
    n = getattr(c, "total_requests", None)
    if not n:
        return None
    return float(n) * float(c.prompt_avg), float(n) * float(c.output_avg)


def priced(row: dict[str, Any], market: str, tokens: tuple[float, float] | None,
           conv: float | None) -> dict[str, Any] | None:
    """The batch API's price for the job on the first covered model the price list holds at that provider:
    ``{"row": price row, "low": …, "high": …}`` in the plan's currency; None where none is priced."""
    if tokens is None or not conv:
        return None
    for model_id in row.get("priced_models", []):
        got = hosted_prices.model_row(model_id, market)
        names = {p.get("name") for p in (got or {}).get("providers", [])}
        if got is None or row["provider"] not in names:
            continue
        (i_lo, i_hi), (o_lo, o_hi) = hosted_prices._usd(got, "input"), hosted_prices._usd(got, "output")
        keep = 1 - float(row["discount_pct"]) / 100
        lo = (tokens[0] / 1e6 * i_lo + tokens[1] / 1e6 * o_lo) * keep * conv
        hi = (tokens[0] / 1e6 * i_hi + tokens[1] / 1e6 * o_hi) * keep * conv
        return {"row": got, "model_id": model_id, "low": lo, "high": hi}
    return None


def cost_text(got: dict[str, Any]) -> str:
    lo, hi = got["low"], got["high"]
    return f"{lo:,.0f}" if round(lo) == round(hi) else f"{lo:,.0f}–{hi:,.0f}"


def priced_clause(row: dict[str, Any], market: str, tokens: tuple[float, float] | None, conv: float | None,
                  currency: str) -> dict[str, Any]:
    """The batch API's price for the job on the first covered model the price list holds at that provider, or the
    words that it is not priced here."""
    got = priced(row, market, tokens, conv)
    if got is None:
        return {"tr": "numbers1_34.batch.unpriced"}
    r = got["row"]
    return {"tr": "numbers1_34.batch.priced", "model": r["model_name"], "cost": cost_text(got), "currency": currency,
            "grade": r.get("grade", "U"), "date": r.get("date", "")}


__all__ = ["cost_text", "job_tokens", "priced", "priced_clause"]
