"""A plan at the edge: its risks named together on page 1, and the commitment made conditional on what removes them
(s36-longctx; blind review 27, q10 both languages: "0% headroom, no redundancy, P99 TTFT '24.7 s' within the
predictor's error, H800s that cannot be bought new, and '¥67,121–¥178,017' on a placeholder price that straddles the
¥150,000 budget"; "the boss must see three risks side by side in the headline").

Each risk is already a finding or a page-1 figure, said where it belongs (the headroom in the sizing finding, the
thin first-token margin in ``memo_one_server.thin_ttft``, the single server in ``sizing.single_point``, the straddle
in ``cost.budget_straddles``, the legacy part in ``gpu.not_sold_new``). Scattered over page 1's paragraphs and
section 7 they read one at a time; where ``MIN_RISKS`` or more hold at once, page 1 gathers them in one short line,
each with its figure, and names what removes them: a written quote (with the supply for the whole period for a part
not sold new, and the replacement time where no spare is kept) and a pressure test on the real prompts. The upgrade
paragraph then leaves out the headroom and first-token clauses the line says (``memo_one_server``, ``lean``)."""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.memo_one_server import thin_ttft
from advisor.plan.money_text import number_text
from advisor.plan.result import PlanResult, render

MIN_RISKS = 3  # one or two edge risks are said where they belong; three or more at once are the plan's shape
NO_HEADROOM = 0.005  # "0 %" as the memo rounds it
PRICED_KINDS = ("on_demand", "monthly", "reserved", "capex")


def _finding(result: PlanResult, fid: str) -> Any:
    return next((f for f in result.findings if f.id == fid), None)


def _placeholder_priced(result: PlanResult) -> bool:
    """The GPUs' own price rows are placeholders (grade U, no quote of the user's)."""
    rows = [p for p in (result.costs.prices if result.costs is not None else []) if p.kind in PRICED_KINDS]
    return bool(rows) and any(p.grade == "U" and not p.user_quote for p in rows)


def risks(result: PlanResult) -> list[dict[str, Any]]:
    """The plan's edge risks, each a ``{"tr": key, ...}`` phrase with its figure, in the order a reader weighs them:
    capacity at the peak, the first-token margin, redundancy, money, supply."""
    cap, out = result.capacity, []
    if cap is not None and cap.headroom is not None and cap.headroom < NO_HEADROOM and cap.peak_concurrency:
        out.append({"tr": "longctx38_risk.headroom", "peak": cap.peak_concurrency})
    thin = thin_ttft(result)
    if isinstance(thin, dict):
        out.append({**thin, "tr": "longctx38_risk.ttft"})
    point = _finding(result, "sizing.single_point")
    if point is not None:
        out.append({"tr": "longctx38_risk.no_spare", "one": point.params.get("one") or {"tr": "plan.capacity16.unit.server"}})
    straddle = _finding(result, "cost.budget_straddles")
    if straddle is not None and "cost" in straddle.params and "budget" in straddle.params:
        key = "longctx38_risk.budget_placeholder" if _placeholder_priced(result) else "longctx38_risk.budget"
        out.append({"tr": key, "cost": straddle.params["cost"], "budget": straddle.params["budget"]})
    legacy = _finding(result, "gpu.not_sold_new")
    if legacy is not None:
        out.append({"tr": "longctx38_risk.legacy", "gpu": legacy.params.get("gpu", "")})
    return out


def _daytime_step(result: PlanResult) -> dict[str, Any] | None:
    """The quote step's day-only figures (``daytime_price``, carried by ``spare_over_budget.replacement_step``), or
    None where the step asks for no day-only price."""
    step = next((s for s in result.next_steps if s.id == "replacement_time"
                 and s.key == "longctx38_next.replacement_day"), None)
    return None if step is None or "day_monthly" not in step.params else step.params


def conditions(result: PlanResult, found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What removes the risks: the written quote (supply and replacement terms where they apply) and the pressure
    test on the real prompts (where the margin at the peak is the risk)."""
    kinds = {str(r["tr"]).rsplit(".", 1)[1] for r in found}
    conds: list[dict[str, Any]] = []
    if kinds & {"no_spare", "budget", "budget_placeholder", "legacy"}:
        supply, replace = "legacy" in kinds, "no_spare" in kinds
        variant = "both" if supply and replace else "supply" if supply else "replace" if replace else "plain"
        conds.append({"tr": f"longctx38_cond.quote.{variant}"})
        day = _daytime_step(result)
        if day is not None and replace:  # blind review 29 (q10): the day-only price a condition of signing too
            conds.append({"tr": "layout40_cond.daytime", "day": day["day"], "day_monthly": day["day_monthly"]})
    if kinds & {"headroom", "ttft"}:
        avg = (result.answers or {}).get("prompt_tokens", {}) or {}
        avg = avg.get("avg") if isinstance(avg, dict) else None
        conds.append({"tr": "longctx38_cond.bench.avg", "avg": number_text(avg)} if avg else
                     {"tr": "longctx38_cond.bench"})
    return conds


def line(result: PlanResult, lang: str, key: str = "longctx38_risks.line") -> str:
    """Page 1's "Risks" line, or "" where fewer than ``MIN_RISKS`` hold (or the plan is not feasible: its blockers
    lead instead). ``key``: the line's wording (``edge_gate41.edge_key``: labelled conditional where the plan holds
    only at the edge)."""
    if not result.feasible:
        return ""
    found = risks(result)
    if len(found) < MIN_RISKS:
        return ""
    sep = translate(lang, "longctx38_risks.sep")
    said = sep.join(render(lang, str(r["tr"]), {k: v for k, v in r.items() if k != "tr"}) for r in found)
    conds = translate(lang, "longctx38_risks.and").join(
        render(lang, str(c["tr"]), {k: v for k, v in c.items() if k != "tr"}) for c in conditions(result, found))
    return translate(lang, key, risks=said, conds=conds)




LOW_USE = 0.5  # the GPU-use row's high end at or under which a day-only bill is worth a quote (half the hours idle)


def daytime_price(costs: Any, c: Any) -> dict[str, Any] | None:
    """The quote step's ask for hourly or daytime-only pricing, with what the plan's own day/night split would bill:
    a daily-peak load (``Ctx.load`` "diurnal") on rented GPUs used at most ``LOW_USE`` of the month, whose servers
    stay on all month (no spare, nothing scales down). The busy share of the hours is the split the plan costs its
    volume on (``usage_share.day_hours``); the figures scale the cost table's own month, so they agree with it
    (review 27, q10 en: "ask for daytime-only or hourly pricing of the single server"). None where it does not
    apply."""
    from advisor.plan import (
        usage_share,  # the engine's modules: imported where the step is built, not by the memo
    )

    if c is None or costs is None or getattr(c, "load", None) != "diurnal":
        return None
    monthly, demand = costs.cloud_monthly, costs.cloud_on_demand_monthly
    if monthly is None or demand is None:
        return None
    low, high = usage_share.printed(costs, c)
    day = usage_share.day_hours(c)
    if high > LOW_USE or not 0 < day < 1:
        return None
    from advisor.plan.money_text import symbol_range

    cur = costs.currency
    return {"util": usage_share.printed_pct(costs, c), "day": f"{day * 100:.0f}",
            "day_monthly": symbol_range(monthly.low * day, monthly.high * day, cur),
            "day_demand": symbol_range(demand.low * day, demand.high * day, cur),
            "monthly": symbol_range(monthly.low, monthly.high, cur)}


__all__ = ["MIN_RISKS", "conditions", "daytime_price", "line", "risks"]
