"""Which path a hybrid's bursts take: a hosted API of the same model for the overflow, or GPUs rented for each burst
(s33-numbers1, issue 25, blind review 23 on q39).

q39: "A burst month costs ¥58,288–¥174,752 against the budget of ¥80,000, while an API burst costs ¥20,727–¥41,455
per burst for low-sensitivity data with no personal information. API overflow should be the recommended burst path,
not a footnote, since it also avoids month-long H20 commitments for 21-day bursts." The burst-month finding
(``burst_bill_rules.cost_burst_month``) already priced both; the API leads where all three hold:

- the data may go to a provider as answered: low sensitivity, personal information answered "no" (an assumed "no"
  is no permission);
- the month with the bursts' overflow on the API fits the monthly budget at its high end;
- the month with the rented burst does not (its high end is over the budget).

The rented part then stays the alternative, sized and priced as before. Pure: it reads the finding's params, which the
rule fills (``lead_params``), so page 1's headline and the next step say the same figures.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import render

FINDING = "cost.burst_month"
TITLE = "numbers1_34.burst_month.api.title"  # the finding's title where the API leads
FALLBACK_DETAIL = "flt39_burst.fallback.detail"  # its detail: the rented bursts' bill read as the fallback's


def data_may_go(answers: Any) -> bool:
    """Low-sensitivity data with personal information answered "no" (not assumed)."""
    ds = getattr(answers, "data_sensitivity", None)
    return ds is not None and getattr(ds, "level", None) == "low" and ds.personal_info is False


def leads(api_month: tuple[float, float] | None, rented_month: tuple[float, float], budget: float | None,
          answers: Any, by_month: bool = True) -> bool:
    """The API leads the bursts: the data may go there, its burst month fits the budget, the rented one does not.

    Both months are the month a burst falls in (the owned fleet's running costs plus that burst's bill, whole), never
    a year's average: a month-long rental bought for a 21-day burst is judged on the month that pays it."""
    # s37-burst39 (blind review 28, q39, both languages: "measure num_requests_running first, make API overflow the
    # primary burst path, and keep the H20 monthly rental as the fallback"; "the API overflow looks like the better
    # default than a month of sales-only H20 bought for 21 days of use"). Review 27 had read the API-first path as
    # "half met" for an owned-base + rent plan, and s36 turned the API lead off everywhere; review 28 read that as a
    # headline its own numbers contradict. The rule is back: where the data may go and only the API's burst month
    # fits the budget the API leads, the rented GPUs stay the named fallback (sized, priced, benchmarked before the
    # order), and step 1's count still gates both. Elsewhere (sensitive data, no budget, both fit or neither) the
    # rented GPUs lead as the user asked.
    # s38-burst40 (blind review 29, q39, both languages: "the memo's primary path is the model API and rented H20 is
    # only the fallback, so the base-plus-cloud-GPU hybrid is only partly the recommendation"; review 28 had objected
    # to the month of H20 billed for 21 days, not to renting for the bursts). Where the bursts rent a part by the hour
    # (``by_month`` False: ``burst_gpu.hourly_first``), the hybrid the user asked for leads, its bursts' hours billed,
    # and the hosted API is weighed beside it as the cheaper option where it is (``hybrid38_form.api``); the API
    # leads only over a part that books a whole month for each burst.
    if api_month is None or budget is None or not by_month or not data_may_go(answers):
        return False
    return api_month[1] <= budget < rented_month[1]


def lead_params(api_month: str, api_burst: str, rented: Any, straddles: bool, by_month: bool) -> dict[str, Any]:
    """The params the finding carries where the API leads: read back by page 1's headline and the step.
    ``by_month``: the rented part is sold only through the cloud's sales, by the month."""
    return {"api_lead": True, "api_month": api_month, "api_burst": api_burst, "rented_gpus": rented,
            "rented_basis": {"tr": "burst39.form.basis.month"} if by_month else "",
            "rented_over": {"tr": "numbers1_34.rented_over.straddles" if straddles else "numbers1_34.rented_over.all"}}


def lead_finding(result: Any) -> Any:
    """The burst-month finding where the API leads the bursts, else None."""
    return next((x for x in getattr(result, "findings", []) or []
                 if x.id == FINDING and x.params.get("api_lead")), None)  # fmt: skip


def headline_clause(result: Any, lang: str, disagree: dict[str, Any] | None) -> str:
    """Page 1's recommendation where the API leads: one decision with one condition (blind review 24, q39: "the
    headline gives three answers: API overflow, 11 rented H20, or neither"): the overflow above the owned base goes to
    the API, its burst month within the budget, once step 1 has counted the requests in flight (``disagree``: the
    fleet-load finding's params, where nvidia-smi's reading and the plan's curve disagree); the rented part only
    where the API falls short, its size and month said below (reasons, section 7, the order step); "" where the
    API does not lead."""
    f = lead_finding(result)
    if f is None:
        return ""
    p = f.params
    # s37-burst39 (blind review 28, q39: "lead with step 1 (count vllm:num_requests_running) as the gate"): the count
    # named first, with the threshold under which nothing leaves the owned GPUs; the rented fallback after the API,
    # ramp-tested before it is ordered ("the 11 H20 = 34 L20 equivalence rests on unmeasured H20 throughput")
    first = ""
    if disagree is not None and disagree.get("count") is not None:
        key = "burst39_form.api.measure" if disagree.get("carry") is not None else "burst39_form.api.measure_plain"
        first = render(lang, key, {"count": disagree.get("count"), "carry": disagree.get("carry")})
    return render(lang, "burst39_form.api", {"api_month": p["api_month"], "budget": p["budget"],
                                             "rented": p["rented_gpus"], "basis": p.get("rented_basis", ""),
                                             "measure": first})

__all__ = ["FALLBACK_DETAIL", "FINDING", "TITLE", "data_may_go", "headline_clause", "lead_finding", "lead_params",
           "leads"]
