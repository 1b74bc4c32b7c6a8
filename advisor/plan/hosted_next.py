"""The deprecated API model's next generation on the same list, priced beside it (s31-util32, blind review 20b, q13:
"two L40S rented 24/7 at $2,148–3,057/month … against ~$74/month via Model Studio International; the API is dropped
only because that model is deprecated, and the memo never prices the successor model").

A price row that marks its model deprecated may name the same size's next generation on the same provider's list
(``next`` in ``resources/plan/hosted_api_prices.json``, with its own source). The plan is still kept for the model the
team named (``hosted_tie.outlived``: a deprecated model does not lead a long plan), but the reason now says what the
next generation would cost at the same volume and the condition on which it is the cheaper start: it is a different
model, so only if it passes the team's quality test on its own prompts (the condition q24's other-model lead states).

s32-apinext32 (blind review 21: q22 sent back, q12/q13 edits: "the right headline is 'start on an API (Qwen3-14B
after a quality test …), self-host later'"): where the deprecated model's own API would have led and its next
generation costs no more at the same tokens (``leads``), the next generation leads exactly as q24's other-model API
does (``hosted_lead.start_with``: its month, the quality-test condition, the self-hosted plan as the one to move to).
Costing no more than a month that already passed the lead's cost tests, it passes them too; a dearer next
generation is not weighed here (the keep reason above prices it). The prompts go to the same provider as the
deprecated model's would, so the lead's data terms (the processor contract where the prompts carry personal
information) are the same ones, not the other-model rule's "another model sees the prompts" bar (q10).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices
from advisor.plan.hosted_tie import deprecated_params
from advisor.plan.result import LedApiRates, MoneyRange, Source

KEY = "util32.hosted.why.deprecated_next"
# the Decision's "Why not a hosted API" line with the deprecated model's month said before the reason, so the next
# generation's month that ends the reason is not read as the one "(that API: …)" names
LEAD_KEY = "util32.lead.deprecated_next"
SWITCH_KEY = "apinext32.switch"
LEAD_PREFIX = "apinext32.lead"  # + "lead", "lead_terms", "lead_dpa": the live leads' wordings with the next generation
BASIS_KEY = "apinext32.basis"
SOURCE_KEY = "plan.hostedlead20.src.list"  # the break-even's source in words (the memo cites its number instead)


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


def factor(c: Any, costs: Any) -> tuple[float, float] | None:
    """``month_factor`` at the costs' own tokens a month; None without them or a ``next`` row."""
    out = getattr(costs, "output_tokens_per_month", None)
    if not out:
        return None
    inp = getattr(costs, "input_tokens_per_month", None) or c.input_for(out)
    return month_factor(c, float(out), float(inp))


def leads(c: Any, costs: Any) -> tuple[float, float] | None:
    """The factor (``month_factor``) where the next generation costs no more than the deprecated model's month at
    either end of its rates, so it may lead where that model's own API would have; None elsewhere."""
    k = factor(c, costs)
    return k if k is not None and max(k) <= 1.0 else None


def price_source(c: Any) -> dict[str, Any] | None:
    """The next generation's list in the words of the break-even's source ("API list prices of Qwen3-14B, 2026,
    grade C")."""
    nxt = row(c)
    if nxt is None:
        return None
    return {"tr": SOURCE_KEY, "priced_on": str(nxt["model_name"]), "date": str(nxt["date"]),
            "grade": str(nxt["grade"])}


def led_rates(c: Any, start: Any, conv: float) -> LedApiRates | None:
    """The next generation's rates a million tokens in the answers' currency (``conv`` per USD) where page 1 starts on
    it (``start``: the Decision's ``StartWith``, its key one of the next generation's leads), so the per-million row
    quotes the API the memo leads with, named, and its figures agree with the lead's month and rates (s32-permil33,
    blind review 21, q12/q22: the row quoted Qwen2.5-14B's $0.35 / $1.40 beside a lead on Qwen3-14B's $0.144 /
    $0.574); None elsewhere (the price row's own rates are then the API's)."""
    nxt = row(c)
    if nxt is None or start is None or start.form != "hosted_api" or not str(start.key).startswith(LEAD_PREFIX):
        return None

    def per_m(usd: float) -> MoneyRange:  # to a hundredth of a cent, as ``cost.hosted_api_rates`` rounds the row's
        return MoneyRange(low=round(usd * conv, 4), high=round(usd * conv, 4))

    return LedApiRates(model_name=str(nxt["model_name"]), input=per_m(float(nxt["input"])),
                       output=per_m(float(nxt["output"])), source=source(c))


def source(c: Any) -> Source | None:
    """The next generation's list as a source the memo numbers like every other figure's (s32-permil33, issue 25:
    its rates were cited inline by model, date and grade only, with no entry in the sources list)."""
    nxt = row(c)
    if nxt is None:
        return None
    return Source(title=str(nxt["source"]), url=str(nxt.get("url", "")), date=str(nxt["date"]), grade=nxt["grade"])


def model_name(c: Any) -> str:
    """The next generation's name as its list gives it ("Qwen3-14B"); "" without one."""
    nxt = row(c)
    return str(nxt["model_name"]) if nxt is not None else ""


def switch_clause(c: Any) -> dict[str, Any] | str:
    """The lead's sentence where the next generation leads: the deprecation, then the quality test the switch to it
    takes (q24's condition for another model's API, ``hosted_switch.switch_clause``); "" without a next row."""
    dep, nxt = deprecated_params(c), row(c)
    if dep is None or nxt is None:
        return ""
    # its list rates beside the name, so the lead's month can be rebuilt from the memo's own tokens (review 21b:
    # "the hosted-API monthly cost in the headline can't be rebuilt from the per-token prices and token counts")
    rates = f"${float(nxt['input']):g} / ${float(nxt['output']):g}"
    return {"tr": SWITCH_KEY, **dep, "next": model_name(c), "rates": rates}


def noted_basis(c: Any, basis: Any, costs: Any, money: Any) -> Any:
    """The API's price basis in the weighing finding where the next generation leads page 1: the deprecation, and
    the next generation's month the lead gives (the finding's own figure is the deprecated model's list, q22)."""
    hosted, k = getattr(costs, "hosted_api_monthly", None), factor(c, costs)
    dep = deprecated_params(c)
    if hosted is None or k is None or dep is None:
        return basis
    return {"tr": BASIS_KEY, "basis": basis, **dep, "next": model_name(c),
            "next_month": money(hosted.low * k[0], hosted.high * k[1])}


def reason(c: Any, costs: Any, money: Any) -> dict[str, Any] | None:
    """The keep reason's parameters with the next generation priced ("… its next generation there, Qwen3-14B, lists
    at $0.144 / $0.574 … would cost about $31 a month …"); None where there is none to price. ``money(lo, hi)``
    prints a month in the answers' currency as the memo does."""
    hosted = getattr(costs, "hosted_api_monthly", None)
    if hosted is None:
        return None
    k = factor(c, costs)
    nxt = row(c)
    if k is None or nxt is None:
        return None
    rates = f"${float(nxt['input']):g} / ${float(nxt['output']):g}"
    return {"tr": KEY, "next": str(nxt["model_name"]), "rates": rates,
            "next_month": money(hosted.low * k[0], hosted.high * k[1]), "date": nxt["date"], "grade": nxt["grade"]}


__all__ = ["BASIS_KEY", "SOURCE_KEY", "KEY", "LEAD_KEY", "LEAD_PREFIX", "SWITCH_KEY", "factor", "leads", "led_rates", "source", "model_name", "month_factor", "noted_basis", "price_source", "reason", "row", "switch_clause"]
