"""Page 1 names the sure fallback where the chosen part rests on a placeholder price and an unsure supply (issue #25,
blind review 26: q19 "the H20 price is a U-grade placeholder (1.2–2.6 USD/h) and it decides H20 over L20 … the
headline should say 'H20 pending a quote; 4×L20 at the listed ¥58.52/h is the sure fallback'"; q42 "the L20
on-demand fallback should be on page 1, not only in next-step 1" and "price the L20 fallback at the reserved rate,
not only on demand").

Where the rented part's price is a placeholder (grade U) and the part is sold only through a cloud's sales or its
supply is export-sensitive, the first alternative the GPU choice lists at a sourced, by-the-hour price
(``sales_wait.start_on``: a setup that meets the same target) is the fallback that can be rented today. Page 1's key
table says it in a row of its own: its setup, its listed price an hour and a month (the month's hours as the cost
model counts them), and its monthly/reserved price where a sourced row of the region gives one; where none does, it
says so and asks for it. Never a price invented.

Also the launch of a plan that is infeasible as asked, but whose closest workable option rents such a part: the
days follow the blockers and the delivery through the cloud's sales (length unknown), not "then 1–5 days" alone
(q19: "'Earliest launch … then 1–5 days' ignores the H20 delivery lead time through the cloud's sales").
"""

from __future__ import annotations

from typing import Any

from advisor.plan import cost as costmod
from advisor.plan import sales_wait
from advisor.plan.data import builtin_rows, facts
from advisor.plan.money_text import number_text
from advisor.plan.result import PlanResult, render
from advisor.plan.sales_only import listed_on_request

COMMITTED_KINDS = ("monthly", "reserved")  # a sourced committed price of the fallback, where a row gives one


def _unsure(gpu_id: str) -> str | None:
    """Why the part's supply is unsure: "sales" (sold through the cloud's sales in some regions only), "export"
    (export-sensitive: US export and Chinese import rules changed), both ("sales_export"), or None."""
    why = [w for w, yes in (("sales", listed_on_request(gpu_id)),
                            ("export", gpu_id in set(facts()["gpu_availability"]["export_sensitive"]))) if yes]
    return "_".join(why) or None


def record(result: PlanResult) -> dict[str, Any] | None:
    """The fallback page 1 names, or None: the rented part's price is sourced, its supply is sure, an API leads
    (its own rows then say the fallback), or the GPU choice lists no sourced alternative by the hour."""
    from advisor.plan.api_lead_steps import leads_with_api

    g, hw = result.gpu_choice, result.hardware
    if g is None or not hw.gpu or g.chosen.gpu != hw.gpu or g.chosen.price_sourced:
        return None
    if result.deployment_form not in sales_wait.RENTED_FORMS or leads_with_api(result):
        return None
    why = _unsure(hw.gpu)
    other = sales_wait.start_on(result)
    if why is None or other is None:
        return None
    alt = next(a for a in g.alternatives if a.gpu_name == other["gpu"])
    month = alt.per_hour * costmod.HOURS_PER_MONTH
    committed = [r for r in builtin_rows() if r.gpu == alt.gpu and r.kind in COMMITTED_KINDS
                 and r.region == result.region and r.grade != "U"]
    return {"gpu": hw.gpu_name or hw.gpu, "why": why, "n": alt.gpus, "other": alt.gpu_name,
            "per_hour": alt.per_hour, "month": round(month), "currency": g.currency,
            "committed": [r.id for r in committed]}


# blockers that hold the launch back for months whatever the hardware: the filing's deadline, 双减 (q07's review 26:
# "The hardware section (3×H20 on a placeholder price) is premature while launch is 6+ months out")
_OFF_HARDWARE = ("genai.filing_deadline", "edu.double_reduction")


def blocked_off_hardware(result: PlanResult) -> bool:
    """An infeasible plan whose blockers are rules, not the part: a fallback GPU on page 1 is premature there (the
    quote step and the launch line still name the part's supply); a plan blocked by its part (q19) keeps the row."""
    blockers = {f.id for f in result.findings if f.severity == "blocker"}
    return not result.feasible and bool(blockers) and blockers <= set(_OFF_HARDWARE)


def key_row(result: PlanResult, lang: str) -> tuple[str, str] | None:
    """Page 1's row: ("Sure fallback", "4 × L20 at its listed price, 58.52 CNY/h on demand (about 42,720 CNY a
    month); …"), or None where ``record`` gives none."""
    fb = record(result)
    if fb is None or blocked_off_hardware(result):
        return None
    committed = render(lang, "supplyrisk37_fallback.committed_none", {}) if not fb["committed"] else ""
    budget = result.costs.budget_monthly
    if budget is not None and fb["month"] > budget:  # a fallback the budget does not hold is no sure one: said
        committed += render(lang, "supplyrisk37_fallback.over_budget", {"budget": number_text(round(budget)),
                                                                        "currency": fb["currency"]})
    text = render(lang, "supplyrisk37_fallback.row", {
        "n": fb["n"], "other": fb["other"], "per_hour": f"{fb['per_hour']:,.2f}", "currency": fb["currency"],
        "month": number_text(fb["month"]), "committed": committed, "gpu": fb["gpu"],
        "why": {"tr": f"supplyrisk37_fallback.why.{fb['why']}", "gpu": fb["gpu"]}})
    return render(lang, "supplyrisk37_fallback.label", {}), text


def launch_after_fix(result: PlanResult, lang: str, days: str) -> str | None:
    """The launch row of a plan infeasible as asked whose closest workable option rents a part sold only through
    the cloud's sales: "only once the blockers are solved and the H20 instances are delivered through the cloud's
    sales (length unknown): then 1–5 days"; None for any other plan."""
    hw = result.hardware
    if result.feasible or result.deployment_form not in sales_wait.RENTED_FORMS or not hw.gpu:
        return None
    if not listed_on_request(hw.gpu):
        return None
    return render(lang, "supplyrisk37_launch.after_fix_sales", {"gpu": hw.gpu_name or hw.gpu, "days": days})


def launch_after_quote(result: PlanResult, lang: str, days: str, first_steps: int) -> str | None:
    """The launch row where the part is priced by a stand-in in a region no provider is known to sell it in and
    nothing else timed or untimed holds the launch: "after the quote and written supply confirmation that next step
    1 asks for (length unknown), then 1–5 days to set up" (q43: "fix 'Earliest launch: in 1–5 days', which ignores
    the quote and the written supply confirmation"); None elsewhere (the row's own text stands)."""
    from advisor.plan import in_region_fallback

    tl = result.timeline
    if not result.feasible or tl.untimed or tl.gate is not None or result.in_region_fallback is None:
        return None
    if not in_region_fallback.hardware_clause(result, lang, first_steps):  # the quote step is not on page 1
        return None
    n = next(i for i, s in enumerate(result.next_steps[:first_steps], start=1) if s.id == "quotes" and s.otherwise)
    return render(lang, "supplyrisk37_launch.after_quote", {"n": n, "days": days})


__all__ = ["key_row", "launch_after_fix", "launch_after_quote", "record"]
