"""A paid API on cards the team already owns: its cost per million tokens with the cards' capital beside the
running-cost-only figure (issue 25, blind review 26, q18: "the cost per million tokens ('output 0.154–0.521 USD')
counts only power, staff and colocation; for pricing a paid API, add the GPUs' depreciation or opportunity cost, or a
newcomer will underprice").

On the team's own fleet nothing is bought, so the plan's monthly cost (and every per-million figure divided from it)
is power, colocation and staff only: right for what the service adds to the bill, too low as the cost to sell tokens
at. Of the two ways to count the cards, depreciation is chosen (not the rent they would fetch): the plan's price rows
already hold the card's purchase price with its grade (the rows "Prices used" lists), and the plan's horizon is the
span every owned purchase is spread over (``cost.amortisation_months``). The capital a month is the cards the plan
takes × that purchase price (a card and its server share) ÷ those months; split between input and output by GPU time
as the running cost is (``token_cost_split``), at the month's own tokens, and added to the running-only figure.
A price no public source gives (a placeholder: grade U, no address) is said as one, never as fact.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import token_cost_split
from advisor.plan.cost import amortisation_months, usd_range
from advisor.plan.money_text import money_range, number_text
from advisor.plan.result import MoneyRange, PlanResult


def _sells_tokens(result: PlanResult) -> bool:
    """Users pay for an API (as ``hosted_weigh.sells_tokens`` reads the answers)."""
    a = result.answers or {}
    return a.get("use_case") == "api" and a.get("charges_users") is True


def _on_fleet(result: PlanResult) -> bool:
    """Laid out on the cards the answers say the team owns (``memo.on_owned_cards``), nothing bought."""
    lay = result.hardware.layout
    return result.deployment_form != "hosted_api" and lay is not None and lay.basis == "fleet"


def figures(result: PlanResult) -> dict[str, Any] | None:
    """The capital a month and the per-million figures with it, or None where the rule does not apply (not a paid
    API on the team's own cards, no purchase row for the card, no split at the month's tokens)."""
    c = result.costs
    if c is None or not _sells_tokens(result):
        return None
    base = capital(result)
    split = token_cost_split.volume_split(c)
    tin, tout, share = c.input_tokens_per_month, c.output_tokens_per_month, c.prefill_gpu_share
    if base is None or split is None or not tin or not tout or share is None:
        return None
    cap = base["monthly"]
    # the capital split by GPU time as the running cost is: prefill's share over the input tokens, the rest output
    (i_lo, i_hi), (o_lo, o_hi) = split
    inp = (i_lo + cap[0] * share / tin * 1e6, i_hi + cap[1] * share / tin * 1e6)
    out = (o_lo + cap[0] * (1 - share) / tout * 1e6, o_hi + cap[1] * (1 - share) / tout * 1e6)
    return {**base, "input": inp, "output": out}


def capital(result: PlanResult) -> dict[str, Any] | None:
    """The owned cards' purchase spread over the plan's months, where the plan runs on the team's own cards with
    nothing bought: {card, gpus, months, monthly (low, high), grade, date, placeholder}; None elsewhere or where no
    purchase row prices the card. What the cost row sets beside the running month (blind review 28, q18 zh: "the
    headline cost '运行费用每月 1,085–3,664 USD' leaves out colocation and card amortisation ... Put that figure in the
    summary table so the boss doesn't take ~$2k/month as the cost of the service")."""
    c = result.costs
    if c is None or c.per_job or not _on_fleet(result) or not result.hardware.gpu:
        return None
    rows = [p for p in c.prices if p.kind == "capex" and p.gpu == result.hardware.gpu]
    # the owned cards the plan takes; any bought beside them already carry their purchase in the monthly cost
    gpus = (result.hardware.layout.fleet_used or 0) if result.hardware.layout is not None else 0
    if not rows or gpus <= 0:
        return None
    conv = 1.0 if c.currency == "USD" else float(c.fx_rate)
    card = (min(usd_range(r, c.fx_rate)[0] for r in rows) * conv, max(usd_range(r, c.fx_rate)[1] for r in rows) * conv)
    months = amortisation_months(c.horizon_months)
    worst = max(rows, key=lambda r: "ABCU".find(r.grade) if r.grade in "ABCU" else 3)
    placeholder = all(r.grade == "U" and not r.url and not r.user_quote for r in rows)
    return {"card": card, "gpus": gpus, "months": months, "monthly": (card[0] * gpus / months, card[1] * gpus / months),
            "grade": worst.grade, "date": max(r.date for r in rows), "placeholder": placeholder}


def clause(result: PlanResult, lang: str) -> str:
    """The per-million row's closing sentence: the figures above are running costs only, and the figures with the
    cards' purchase spread over the horizon; "" where ``figures`` is None."""
    f = figures(result)
    if f is None:
        return ""
    cur = result.costs.currency

    def rng(v: tuple[float, float]) -> str:
        return money_range(MoneyRange(low=v[0], high=v[1]), cur)

    grade = translate(lang, "ownedcost37_capital.placeholder" if f["placeholder"] else "ownedcost37_capital.grade",
                      grade=f["grade"], mark=" ⚠" if f["grade"] in ("C", "U") else "", date=f["date"])
    return translate(lang, "ownedcost37_capital.with", months=f["months"], card=rng(f["card"]), grade=grade,
                     gpus=number_text(f["gpus"]), monthly=rng(f["monthly"]), input=rng(f["input"]),
                     output=rng(f["output"]), assumed=_assumed_month(result, lang))


def _assumed_month(result: PlanResult, lang: str) -> str:
    """", though its month of tokens is assumed (the day's average taken as the peak ÷ 3): give requests a day
    before pricing on it" where the month the figure divides is the plan's estimate, not the answers' own volume
    (blind review 27, q18: "the monthly token volume is a peak ÷ 3 guess, so the per-million pricing figure should
    carry that caveat"); "" where the answers gave it."""
    c = result.costs
    own = (c.per_million_basis or {}).get("own_volume") or {}
    if not own or own.get("answered", True):
        return ""
    factor = (c.volume_basis or {}).get("factor")
    basis = translate(lang, "misc38_capital.basis_factor", factor=factor) if factor else \
        translate(lang, "misc38_capital.basis_plain")
    return translate(lang, "misc38_capital.assumed", basis=basis)


__all__ = ["capital", "clause", "figures"]
