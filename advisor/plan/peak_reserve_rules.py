"""A public service's peak-hour replicas on on-demand stock (issue #25, blind review 27).

s19-reserve19 made the reserved option of a plan scaled to the load commit only for its always-on floor and start the
peak-hour replicas on demand each day (reserved_floor). Reviewers of a public chatbot launching in 10 days (q32) and a
regulated public fintech service (q37) read the risk the memo left unsaid: pay-as-you-go GPU instances can fail to be
created when the zone runs short of the type, and a public service's peak is when that bites (Alibaba Cloud's
elasticity-assurance page; AWS's capacity-reservation page). "Committing all 3 GPUs costs only 20,521–27,634 CNY, well
inside the 80,000 budget, so recommend that."

``scaling.commit38_peak``: for a public or paid service (not internal-only, not a batch job) on rented GPUs whose
reserved option leaves the peak-hour replicas on demand, reserve them too where committing for every GPU keeps the
month (with a priced line) within the budget, the cost said; where it does not, the stock risk is said instead
(variant ``over``). Scheduled bursts keep their own rule (``scaling.burst_reservation``: book them for the dates).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import line_total, peak_reserved39, reserved_price
from advisor.plan.result import Finding, MoneyRange
from advisor.plan.rule_base import Facts, _range, finding, rule

RULE = "scaling.commit38_peak"
NODES_TITLE, NODES_DETAIL = "num44.nodes.title", "num44.nodes.detail"  # two nodes: the stock risk, reserving the option


def figures(f: Facts) -> dict[str, Any] | None:
    """(every GPU committed, the month as planned, the month with every GPU committed and the line, the budget) where
    the rule applies, else None. Where the plan already commits for every GPU (``peak_reserved39``: it fitted), the
    mixed month is the cheaper option it was chosen over and the committed month is page 1's (review 29)."""
    c, costs = f.ctx, f.cost.costs if f.cost is not None else None
    if f.chosen is None or costs is None:
        return None
    if f.form == "cloud" and peak_reserved39.reserved(costs):
        p, every = costs.cloud_peak_floor, costs.cloud_monthly
        total = line_total.judged_total(costs) or every
        return {"every": every, "mixed": MoneyRange(low=p["low"], high=p["high"]), "low": total.low,
                "high": total.high, "budget": c.budget_amount, "line": costs.monthly_with_line is not None,
                "reserved": True}
    if not peak_reserved39.eligible(c, f.form, f.region, costs) and not two_nodes(f, costs):
        return None  # no peak-hour replicas on demand (bursts have their own rule), or not page 1's month
    every, mon = costs.cloud_reserved_all_monthly, costs.cloud_monthly
    total = line_total.judged_total(costs) or mon
    # the month with every GPU committed: the judged total with the mixed cloud month swapped for the committed one
    low, high = total.low + every.low - mon.low, total.high + every.high - mon.high
    return {"every": every, "mixed": mon, "low": low, "high": high, "budget": c.budget_amount,
            "line": costs.monthly_with_line is not None, "reserved": False}


def two_nodes(f: Facts, costs: Any) -> bool:
    """A mainland and an overseas node priced together whose peak-hour replicas start on demand: the plan keeps that
    mixed month (page 1's "all N × GPU" would name one node's part for both), and the rule says the stock risk and
    what reserving both nodes' GPUs costs (cst44, blind review 35, q05: "1.65 GPUs billed on demand on average" for
    a public service, unsaid)."""
    return f.region == "mainland_plus_overseas" and peak_reserved39.eligible(f.ctx, f.form, "mainland", costs)


@rule(RULE, "cost")
def peak_reserve(f: Facts) -> Finding | None:
    """Reserve the peak-hour replicas too where committing for every GPU fits the budget (or no budget is given);
    else say that they rest on on-demand stock."""
    got = figures(f)
    if got is None:
        return None
    budget = got["budget"]
    over = budget is not None and got["high"] > budget
    params: dict[str, Any] = {
        "gpus": int(f.chosen.total_gpus), "gpu": f.chosen.gpu.name,
        "every": _range(got["every"].low, got["every"].high, f), "mixed": _range(got["mixed"].low, got["mixed"].high, f),
        "total": _range(got["low"], got["high"], f),
        "budget": "" if budget is None else {
            "tr": "commit38_peak.budget." + ("over" if over else "within") + ("_line" if got["line"] else ""),
            "budget": _range(budget, budget, f), "total": _range(got["low"], got["high"], f)},
        "fits": None if budget is None else not over,
        "reserved": got["reserved"],  # page 1's month is already the committed one (review 29)
    }
    out = finding(RULE, variant="over" if over else None, **params)
    if got["reserved"] and not over:  # page 1's month: the premium said where the choice is made (rv43, q07)
        gap = reserved_price.premium(f.cost.costs)  # figures() saw them
        if gap is not None:
            plain = "" if budget is None else {"tr": "commit38_peak.budget.within", "budget": _range(budget, budget, f)}
            out = out.model_copy(update={"detail_key": "cst44.commit.detail", "params": {
                **out.params, "premium": _range(gap.low, gap.high, f), "budget": plain,
                "who": reserved_price.who(f.ctx.audience)}})  # whom the peak serves (cst44, q19/q42/q43)
    if f.region == "mainland_plus_overseas":  # both nodes' GPUs, never one node's part named for both (cst44, q05)
        # the plan's month starts the peak-hour replicas on demand, so reserving every GPU is the option beside it
        # with its price, never a recommendation the headline's month contradicts (blind review 36, q05)
        out = out.model_copy(update={"title_key": NODES_TITLE if not over else out.title_key,
                                     "detail_key": "cst44.nodes.over.detail" if over else NODES_DETAIL,
                                     "params": {**out.params, "who": reserved_price.who(f.ctx.audience),
                                                "gpus": int(f.cost.costs.gpus)}})
    mainland = f.region in ("mainland", "mainland_plus_overseas")  # the provider's own page (Alibaba or AWS)
    sources = [s for s in out.sources if ("aliyun" in s.url) == mainland]
    return out.model_copy(update={"sources": sources or out.sources})


def key_clause(result: Any, lang: str) -> str:
    """Page 1's cost row: "; on-demand GPU stock can run out at peaks: reserve all 3 GPUs, ¥20,521–¥27,634 a month,
    within budget" (or the risk, where that is over the budget); "" without the finding, or where the month already
    reserves every GPU (review 29: the basis beside the figure says so, with the cheaper option)."""
    from advisor.i18n import translate

    got = result.finding(RULE)
    if got is None:
        return ""
    from advisor.plan.money_text import money_range

    p, c = got.params, result.costs
    if p.get("reserved"):  # page 1's month already reserves every GPU: its basis says so and why (reserved_price)
        return ""
    key = "open" if p.get("fits") is None else "within" if p["fits"] else "over"
    # two nodes keep the mixed month as the plan's: reserving all is the option, said as one (review 36, q05)
    prefix = "num44.key" if got.title_key == NODES_TITLE else "commit38_peak.key"
    # in the row's own money style ("20,521–27,634 CNY"), as the figures beside it
    return translate(lang, f"{prefix}.{key}", gpus=p["gpus"],
                     every=money_range(c.cloud_reserved_all_monthly, c.currency))


__all__ = ["RULE", "figures", "key_clause", "peak_reserve"]
