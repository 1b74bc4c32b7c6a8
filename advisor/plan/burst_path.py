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


def data_may_go(answers: Any) -> bool:
    """Low-sensitivity data with personal information answered "no" (not assumed)."""
    ds = getattr(answers, "data_sensitivity", None)
    return ds is not None and getattr(ds, "level", None) == "low" and ds.personal_info is False


def leads(api_month: tuple[float, float] | None, rented_month: tuple[float, float], budget: float | None,
          answers: Any) -> bool:
    """The API leads the bursts: the data may go there, its burst month fits the budget, the rented one does not."""
    # s36-hybrid (blind review 27, q39, both languages: "the main burst path is the model API; renting cloud GPUs is
    # only the fallback, so 'own base + rent for the peaks' is half met"): a hybrid's bursts rent GPUs, as the user
    # asked for; the API overflow is the option weighed beside them (``option_clause``), never the headline. No
    # answer rules the rented GPUs out today, so the API leads nowhere; the rule stays for one that would.
    return False


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
    first = ""
    if disagree is not None and disagree.get("count") is not None:
        first = render(lang, "q39h35.form.api.measure", {"count": disagree.get("count")})
    return render(lang, "q39h35.form.api", {"api_month": p["api_month"], "budget": p["budget"],
                                            "rented": p["rented_gpus"], "measure": first})


__all__ = ["FINDING", "TITLE", "data_may_go", "headline_clause", "lead_finding", "lead_params",
           "leads"]
