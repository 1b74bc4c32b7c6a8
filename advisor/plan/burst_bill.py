"""What one burst and the month it falls in cost a hybrid plan (issue 25, s23-burst23).

Blind review 12b, q39: "burst cost is averaged over the year (34 GPUs about 17 % of the time: ¥27–72k a month); a real
three-week burst month with 34 on-demand L20s costs several times that and blows the ¥80k monthly budget; the memo
should show the per-burst bill". The hybrid's cost table spreads the rented burst GPUs over the year
(``forms.cost_forms``: GPUs × 730 h × the bursts' share of the hours × the rate × (1 + overhead)); this module undoes
the spreading from the answers' own schedule: one burst is its days × 24 h × the same GPUs, rate and overhead, and the
month a burst falls in pays the owned fleet's running costs (and the priced line, where the total counts it) plus the
burst's days in that month — the whole burst when it lasts a month or less (the heavier case; a burst that straddles
two months splits its bill between them). Pure: it reads a ``Costs`` and the answers, so a rule and the memo's budget
row say the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.plan import burst_path, line_total
from advisor.plan.burst import DAYS_PER_MONTH
from advisor.plan.burst_gpu import booked_months, rented_of
from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange, render
from advisor.plan.sales_only import listed_on_request


@dataclass(frozen=True)
class BurstBill:
    """One burst's bill and the burst month's, in the answers' currency; each a (low, high) range."""

    gpus: int  # GPUs rented for each burst
    days: float  # days one burst lasts
    per_year: int  # bursts a year
    rate: tuple[float, float]  # a rented GPU-hour with the cloud's overhead (egress, storage, management)
    per_burst: tuple[float, float]  # one burst: days × 24 h × GPUs × rate
    averaged: tuple[float, float]  # the cost table's burst row: the bursts spread over the year's months
    average_month: tuple[float, float]  # the month the budget was judged on (the total with a priced line)
    burst_month: tuple[float, float]  # the same month with a whole burst in it instead of the average
    budget: float | None
    # whole months each burst books where the part is sold only by the month through the cloud's sales (``rate`` is
    # then a GPU-month's price); None where it is rented by the hour (``rate`` a GPU-hour's)
    months: int | None = None

    def verdict(self) -> str | None:
        """The budget on both months: "avg_fits" (average within, burst month over), "avg_low" (the average fits at
        its low end only, the burst month at neither), "both_over", "burst_straddles", "both_fit"; None without a
        budget."""
        b = self.budget
        if b is None:
            return None
        avg_lo, avg_hi = self.average_month
        burst_lo, burst_hi = self.burst_month
        if burst_hi <= b:
            return "both_fit"
        if burst_lo <= b:
            return "burst_straddles"
        if avg_hi <= b:
            return "avg_fits"
        return "avg_low" if avg_lo <= b else "both_over"


def bill(costs: Any, answers: Any, form: str, plan_gpu: str | None = None) -> BurstBill | None:
    """The hybrid plan's burst bill from its own costs and the answers' burst schedule; None for any other form, with
    no rented burst, or without both the bursts a year and the days each (an assumed share of the hours gives no
    burst's length to bill). ``plan_gpu``: the plan's own GPU, rented for the bursts where no other part is."""
    hyb = getattr(costs, "hybrid", None)
    per_year, days_each = _schedule(answers)
    if form != "hybrid" or hyb is None or hyb.burst_monthly is None or not hyb.gpus_burst:
        return None
    share = hyb.burst_hours_share
    if per_year is None or days_each is None or not share:
        return None
    billed_hours = HOURS_PER_MONTH * share * hyb.gpus_burst  # the GPU-hours the averaged row bills a month
    rate = (hyb.burst_monthly.low / billed_hours, hyb.burst_monthly.high / billed_hours)
    days = float(days_each)
    per_burst = tuple(r * days * 24 * hyb.gpus_burst for r in rate)
    in_month = min(days, DAYS_PER_MONTH) / days  # a burst longer than a month fills the month it is in
    total = line_total.judged_total(costs)
    if total is None:
        return None
    averaged = (hyb.burst_monthly.low, hyb.burst_monthly.high)
    rented = hyb.burst_gpu or plan_gpu
    if rented and listed_on_request(str(rented)):  # sold by the month (s33-burst39): each burst books whole months
        return _by_month(costs, hyb, answers, averaged, (total.low, total.high), int(per_year), days)
    average = (total.low, total.high)
    month = (average[0] - averaged[0] + per_burst[0] * in_month, average[1] - averaged[1] + per_burst[1] * in_month)
    return BurstBill(gpus=int(hyb.gpus_burst), days=days, per_year=int(per_year), rate=rate,
                     per_burst=(per_burst[0], per_burst[1]), averaged=averaged, average_month=average,
                     burst_month=month, budget=costs.budget_monthly)  # fmt: skip


def _by_month(costs: Any, hyb: Any, answers: Any, averaged: tuple[float, float], average: tuple[float, float],
              per_year: int, days: float) -> BurstBill | None:
    """The burst bill of a part sold only by the month (``burst_gpu.billed_hours_share``): the cost table's
    year-averaged row × 12 ÷ the months booked a year is one GPU-month's price × the GPUs; a burst books its whole
    months, and the month it falls in pays one of them whole."""
    months_year = booked_months(answers)
    if not months_year:
        return None
    each = max(1, months_year // max(1, per_year))
    month_bill = (averaged[0] * 12 / months_year, averaged[1] * 12 / months_year)  # all the burst's GPUs, a month
    gpus = int(hyb.gpus_burst)
    per_burst = (month_bill[0] * each, month_bill[1] * each)
    month = (average[0] - averaged[0] + month_bill[0], average[1] - averaged[1] + month_bill[1])
    return BurstBill(gpus=gpus, days=days, per_year=per_year, rate=(month_bill[0] / gpus, month_bill[1] / gpus),
                     per_burst=per_burst, averaged=averaged, average_month=average, burst_month=month,
                     budget=costs.budget_monthly, months=each)  # fmt: skip


def _schedule(answers: Any) -> tuple[Any, Any]:
    """(bursts a year, days each) from the answers: the model the engine reads or the dict a result carries."""
    sched = answers.get("burst_schedule") if isinstance(answers, dict) else getattr(answers, "burst_schedule", None)
    if sched is None:
        return None, None
    if isinstance(sched, dict):
        return sched.get("per_year"), sched.get("days_each")
    return sched.per_year, sched.days_each


def without_burst(costs: Any, form: str) -> tuple[float, float] | None:
    """The hybrid's month with nothing rented (the owned fleet alone, with the priced line): what the plan costs where
    the fleet carries the peak by itself; None for any other form."""
    hyb = getattr(costs, "hybrid", None)
    total = line_total.judged_total(costs)
    if form != "hybrid" or hyb is None or hyb.burst_monthly is None or total is None:
        return None
    return total.low - hyb.burst_monthly.low, total.high - hyb.burst_monthly.high


def budget_clause(result: Any, lang: str) -> str:
    """After page 1's budget verdict: the month with a burst in it and what the budget says of it ("" without a
    hybrid burst bill or a budget), so the budget check looks at the burst month too (blind review 12b, q39)."""
    b = bill(result.costs, result.answers, str(getattr(result, "deployment_form", "") or ""),
             getattr(result.hardware, "gpu", None))
    verdict = b.verdict() if b is not None else None
    if b is None or verdict is None:
        return ""
    cur = result.costs.currency
    month = money_range(MoneyRange(low=b.burst_month[0], high=b.burst_month[1]), cur)
    params: dict[str, Any] = {"month": month, "verdict": {"tr": f"burst23.month.{verdict}"}}
    lead = burst_path.lead_finding(result)  # the API takes the overflow: its month first, the rented one as the
    api = lead.params.get("api_month_range") if lead is not None else None  # fallback (issue 25, q39)
    if api is None:
        # s36-hybrid (blind review 27, q39: "one table: base month, burst month rented, burst month on the API"): the
        # rented bursts lead; the API's burst month, where page 1 weighs it, stands beside theirs in the same row
        f = next((x for x in result.findings if x.id == "cost.burst_month"), None)
        weighed = f.params.get("api") if f is not None else None
        if isinstance(weighed, dict) and weighed.get("range"):
            lo, hi = weighed["range"]
            params["api"] = money_range(MoneyRange(low=lo, high=hi), cur)
            return render(lang, "hybrid38_budget.burst_month", params)
        return render(lang, "burst23.budget.burst_month", params)
    params.update(api=money_range(MoneyRange(low=api[0], high=api[1]), cur), rented=lead.params["rented_gpus"],
                  over=lead.params["rented_over"])  # the rented month's verdict as reason 3 says it
    return render(lang, "rem36_burst.budget.burst_month", params)


def budget_head(result: Any, lang: str) -> str:
    """The budget row's verdict for a hybrid with a burst bill: the month without a burst against the budget, in
    place of the cost table's year-averaged month (the bursts' rent spread over 12), which read as "within budget"
    while every burst month broke it (s37-burst39, blind review 28, q39: "the page-1 'within budget' averages the
    burst cost over the year and will mislead"); the burst months follow (``budget_clause``). "" elsewhere."""
    b = bill(result.costs, result.answers, str(getattr(result, "deployment_form", "") or ""),
             getattr(result.hardware, "gpu", None))
    if b is None or b.verdict() is None or b.budget is None:
        return ""
    base = (b.average_month[0] - b.averaged[0], b.average_month[1] - b.averaged[1])
    fits = "within" if base[1] <= b.budget else "straddles" if base[0] <= b.budget else "over"
    return render(lang, "burst39_budget.base", {"month": money_range(MoneyRange(low=base[0], high=base[1]),
                                                                     result.costs.currency),
                                                "verdict": {"tr": f"burst39_budget.base.{fits}"}})


def cost_note(result: Any, lang: str) -> str:
    """Page 1's cost row of a hybrid with a burst bill: that its monthly figure spreads the rented bursts over the
    year, and where the month a burst falls in is judged (the budget row); "" elsewhere (s37-burst39, review 28,
    q39: the averaged month read as the plan's month)."""
    b = bill(result.costs, result.answers, str(getattr(result, "deployment_form", "") or ""),
             getattr(result.hardware, "gpu", None))
    if b is None or b.verdict() is None:
        return ""
    return render(lang, "burst39_cost.spread", {"averaged": money_range(MoneyRange(low=b.averaged[0],
                                                                                   high=b.averaged[1]),
                                                                        result.costs.currency)})


def api_swapped(b: BurstBill, api_burst: Any, month: tuple[float, float]) -> MoneyRange:
    """``month`` (a figure with the rented bursts spread over the year in it) with each burst's overflow on the
    hosted API instead: the rented spread out, one burst's API bill × the bursts a year ÷ 12 in."""
    spread = (api_burst[0] * b.per_year / 12, api_burst[1] * b.per_year / 12)
    return MoneyRange(low=month[0] - b.averaged[0] + spread[0], high=month[1] - b.averaged[1] + spread[1])


def api_led_cost(result: Any, lang: str, running: MoneyRange) -> str:
    """Page 1's cost row where the hosted API leads the bursts (``burst_path.leads``): the month of the path page 1
    leads with, the months without a burst and each burst's overflow on the API averaged over 12, with the network
    line's total as the cost table's is said. The rented fallback's month is the budget row's, right below it
    (``budget_clause``: its burst month, labelled the fallback), not said twice (q39 en stays at 5 pages). "" where
    the API does not lead. ``running``: the cost table's running month (the rented bursts spread over it), of which
    the rented spread is swapped for the API's.

    s37-fleet39 (blind review 28, q39): the row gave the rented plan's month averaged over 12 while page 1 led with
    the API for the bursts, so page 1's cost disagreed with the path it recommended."""
    lead = burst_path.lead_finding(result)
    api = lead.params.get("api_burst_range") if lead is not None else None
    b = bill(result.costs, result.answers, str(getattr(result, "deployment_form", "") or ""),
             getattr(result.hardware, "gpu", None))
    if api is None or b is None:
        return ""
    cur = result.costs.currency

    def swapped(month: tuple[float, float]) -> MoneyRange:
        return api_swapped(b, api, month)

    with_line = result.costs.monthly_with_line is not None
    line = line_total.key_clause(result, lang, swapped(b.average_month) if with_line else None)
    return render(lang, "flt39_cost.api_led", {"running": money_range(swapped((running.low, running.high)), cur),
                                               "line": line})


def billed_note(costs: Any, lang: str) -> str:
    """The words after a hybrid's rented-comparison formula: which GPUs that comparison bills every hour, and what the
    hybrid runs instead ("" where nothing is rented for bursts or the comparison keeps no warm floor). Blind review
    12, q39: "the always-on replica and the N+1 spare around the clock" did not describe this hybrid."""
    hyb, warm, billed = getattr(costs, "hybrid", None), costs.cloud_warm, costs.cloud_billed_gpus
    if hyb is None or not hyb.gpus_burst or warm is None or billed is None:
        return ""
    shown: Any = int(billed) if billed == int(billed) else billed
    # "11 × NVIDIA H20 96GB" where the bursts rent another part; a bare count with its measure word ("8 张", review 34)
    burst: Any = rented_of(costs, "hybrid") or {"tr": "hb43.gpus_n", "n": hyb.gpus_burst}
    return render(lang, "memo.burst23.billed_hybrid", {"billed": str(shown), "gpus": costs.gpus, "warm": warm["gpus"],
                                                       "owned": hyb.gpus_owned, "burst": burst})


__all__ = ["BurstBill", "api_led_cost", "api_swapped", "bill", "billed_note", "budget_clause", "budget_head", "cost_note", "without_burst"]
