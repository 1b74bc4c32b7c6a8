"""A hosted-API memo whose API wins by a wide margin: the self-hosted comparison in one line (issue 25, fourteenth
blind review q15, q16, q27; s25-dates25).

Where the plan is a hosted API costing a fifth of renting the GPUs or less (at its dearest rate, on the volume's high
end), sections 2–3 sized, timed and priced a self-hosted 2 × L20 nobody will run, with H20/A10 comparisons, latency
tables and a bought-and-colocated row ("filler for a 2,000-chat/day shop with no ops staff: cut or collapse to one
line"). The memo then says in one line what serving it yourselves would take and cost; the plan itself (``--json``)
keeps the whole comparison. Only the memo changes here: the plan's decision and its figures do not.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import rent_basis, yardstick_spare
from advisor.plan.hosted_weigh import high_end_factor
from advisor.plan.result import Finding, PlanResult, render

# "Serving it yourselves would take 2 × …" (the one line says it) and "peak load unknown: planned for 2 concurrent
# requests" (a peak sizes GPUs of your own; an API is priced on the tokens)
# the comparison's cheapest month at least this many times the API's dearest (its top rate on the volume's high end):
# a gap no quote for the GPUs is expected to close (a policy, not a sourced figure; q27's ¥511 against ¥4,703 is 9×)
WIDE = 5.0
SELF_HOST_FINDINGS = ("sizing.plan", "sizing.unknown_load")
# the price rows of buying and running servers: no purchase is weighed where the API wins by this margin
OWNING_PRICE_KINDS = ("capex", "colo", "power", "staff")
# the cost rows kept: the API's month, the tokens it is priced on, and the exchange rate it was converted at
KEPT_COST_LABELS = ("memo.cost.hosted_monthly", "memo.cost.tokens", "memo.cost.fx")


def collapsed(result: PlanResult) -> bool:
    """A hosted API's plan whose self-hosted comparison costs at least ``WIDE`` times the API's dearest month."""
    return collapsed_costs(result.deployment_form, result.costs)


def collapsed_costs(form: str | None, c: Any) -> bool:
    """``collapsed`` on a plan's form and cost table (the rules read them before the result is made)."""
    if form != "hosted_api" or c.hosted_api_monthly is None or c.cloud_monthly is None:
        return False
    return bool(c.hosted_api_monthly.high * high_end_factor(c) * WIDE <= c.cloud_monthly.low)


def shown_prices(form: str | None, c: Any) -> list[Any]:
    """The price rows the memo's price table shows: all the plan used, less those of buying and running servers
    where the self-hosted comparison is one line (``collapsed``). The count of weak prices counts these (s25-prices25,
    q15/q16/q27: "5 of 5 prices are grade C or U" beside a table of one row)."""
    if not collapsed_costs(form, c):
        return list(c.prices)
    return [row for row in c.prices if row.kind not in OWNING_PRICE_KINDS]


def sizing_line(result: PlanResult, lang: str, money: Any) -> str:
    """"Serving it yourselves would take 2 × NVIDIA L20 48GB (bf16) at about 4,703–15,299 CNY a month on rented GPUs,
    against 34–73 CNY for the API: not sized further here." (``money``: the memo's money formatter)."""
    hw, c = result.hardware, result.costs
    # the rent's basis, cards × hours × rate at the reserved price (blind review 19, q15: "$224–$378 for a mostly
    # idle rented 4090" with no rate or basis beside it)
    reserved = rent_basis.reserved(c)
    basis = {"tr": "review30.rent_basis.reserved_clause", "basis": reserved} if reserved else ""
    api: Any = money(c.hosted_api_monthly, c.currency)
    # the API's month on the headline's basis: as chats of a few turns where page 1 leads with that (blind reviews 21
    # and 22, q16: "section 2 compares self-hosting against ¥34–73 while the headline uses ¥204–851")
    chats = next((f.params for f in result.findings if f.id == "cost.chat_turns"), None)
    if chats is not None:
        api = {"tr": "memo29.hosted.monthly_chats", "chats": chats["chats"], "n1": chats["n1"], "n2": chats["n2"],
               "single": api}
    return render(lang, "apionly25.sizing.line", {
        # the spare said where it is counted (blind reviews 23/24, q16: "2 × L20 for a 14B that fits on one")
        "gpus": hw.total_gpus, "gpu": hw.gpu_name or hw.gpu or "—",
        "weights": (hw.weights or "—") + yardstick_spare.split_text(result, lang, inside=True),
        "cost": money(c.cloud_monthly, c.currency), "api": api, "basis": basis})


def apply(context: dict[str, Any], result: PlanResult, lang: str, money: Any) -> dict[str, Any]:
    """The memo's context with sections 2–3 in one line and the cost section on the API's rows, where
    ``collapsed``; unchanged otherwise."""
    if not collapsed(result):
        return context
    kept = {translate(lang, k) for k in KEPT_COST_LABELS}
    shown = shown_prices(result.deployment_form, result.costs)
    charts = {k: v for k, v in context["charts"].items() if k not in ("latency", "cost")}
    evidence = context["evidence"]
    if not evidence["measured"]:  # no speed is shown: none is "the self-hosted comparison's" (blind review 19, q15)
        model = result.hardware.model_name or result.hardware.model or "—"
        evidence = {**evidence, "for_plan": "", "none": translate(lang, "review29.evidence.api_only", model=model)}
    return {**context, "binding": "", "gpu_choice": "", "layouts": "", "hardware": [], "command": None,
            "node_commands": [], "node_context": "", "command_by_hand": "", "command_waits": False,
            "self_host_line": sizing_line(result, lang, money), "curve": [], "node_curves": [],
            "node_main_label": "", "no_curve_key": "apionly25.latency.none", "charts": charts, "cost_caption": "",
            "evidence": evidence,
            "costs": [(k, v) for k, v in context["costs"] if k in kept],
            "prices": [p for p, row in zip(context["prices"], result.costs.prices, strict=True)
                       if row in shown]}


def findings(found: list[Finding], result: PlanResult) -> list[Finding]:
    """Section 7's findings less those of the self-hosted setup (``SELF_HOST_FINDINGS``), where ``collapsed``."""
    return [f for f in found if f.id not in SELF_HOST_FINDINGS] if collapsed(result) else found


def cost_text(result: PlanResult, lang: str, single: str) -> str:
    """Page 1's cost led by the month as chats of a few turns, the single-request month ``single`` after it, where
    the plan prices a public chat's requests a day as single requests (blind review 18, q16: "the headline should
    lead with the multi-turn figure (about ¥204–851)"); "" elsewhere (the cost row as it is)."""
    turns = result.finding("cost.chat_turns")
    if turns is None or "chats" not in turns.params:
        return ""
    p = turns.params
    return render(lang, "memo29.key.cost_chats", {"chats": p["chats"], "n1": p["n1"], "cost1": p["cost1"],
                                                  "n2": p["n2"], "cost2": p["cost2"], "single": single})


def turns_clause(result: PlanResult, lang: str) -> str:
    """Page 1's cost followed by the month at a few turns a chat, where the plan prices a public chat's requests a
    day as single requests (``cost.chat_turns``): "; chats of 3 turns, history resent: ¥204–¥365; of 5: ¥511–¥851"
    (round 14, q16: "the situation says 2,000 conversations, not requests: move it into the headline cost")."""
    turns = result.finding("cost.chat_turns")
    if turns is None:
        return ""
    p = turns.params
    return render(lang, "apionly25.key.turns", {"n1": p["n1"], "cost1": p["cost1"], "n2": p["n2"], "cost2": p["cost2"]})
