"""A deadline job that waits on reviews of unknown length: both readings of its clock, and the provider already
approved (blind review 34: q06, q28, q41).

- q06: "the job's 72-hour clock starts only once they are done" (the IT-outsourcing review and the PIPL impact
  assessment, both of unknown length): "If the 72 hours run from now, the deadline is already at risk, so state
  which reading applies." The engine cannot tell which one the business means, so page 1's step says both in one
  sentence: a deadline counted from the data's hand-over after the reviews is met as sized; a calendar deadline
  already running needs the reviews done already, or the deadline is at risk.
- q28: "Feasible as asked: yes, once what next step 1 lists is done" is misleading if the audit's 48 hours already
  run; an outsourcing review of a new provider rarely fits inside them, so the job runs in a financial-cloud
  (金融云) zone or on a provider the bank has already approved under its outsourcing rules (the CBIRC's 2021
  Measures ask for due diligence before an important outsourcing: ``fin.cn_it_outsourcing``'s source). The
  feasibility row carries the same condition, pointing at the step.
- q41: a bank's or insurer's service on rented GPUs: the outsourcing finding names the same choice of provider.

A job with no outsourcing review among its waits (outside banking and insurance) gets the two readings without the
provider clause; a job without a deadline, or a live service, keeps its wording.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.plan.result import render

OUTSOURCING_ID = "fin_outsourcing_review"  # untimed_waits' step for a bank's or insurer's job on a provider's GPUs
CLOCK_KEY = "bt43.next.waits_clock"
APPROVED = "_approved"
OLD_CLOCK_KEY = "batchword38_next.waits_clock"
# the forms that rent GPUs from a provider (a service's outsourcing finding names the approved provider there)
RENTED_FORMS = ("cloud", "hybrid")
# the sector's words that name an insurer (its claim files hold health records: q06)
INSURER_WORDS = ("insur", "claim", "保险", "理赔")


def step_key(key: str, untimed: Sequence[Any]) -> str:
    """The waits step's key for a job with a deadline: both readings of its clock, and with an outsourcing review
    among the waits the provider already approved; ``key`` unchanged for anything else."""
    if key != OLD_CLOCK_KEY:
        return key
    return CLOCK_KEY + (APPROVED if any(getattr(i, "id", None) == OUTSOURCING_ID for i in untimed) else "")


def clock_step(result: Any) -> Any | None:
    """Page 1's waits step with both readings of the job's clock; None where there is none."""
    return next((s for s in result.next_steps if s.id == "waits" and s.key.startswith(CLOCK_KEY)), None)


def feasible_text(result: Any, n: int, lang: str) -> str | None:
    """The feasibility row's condition for such a job: "yes if the 48 hours run from the data's hand-over after what
    next step 1 lists; if they already run, …"; None where the plan has no such step."""
    step = clock_step(result)
    if step is None:
        return None
    # two short sentences, not one conditional inside another (vrd44, blind review 35: q06, q28)
    key = "vrd44.feasible.clock" + (APPROVED if step.key.endswith(APPROVED) else "")
    return render(lang, key, {"n": n, "deadline": step.params.get("deadline", "")})


def rented_clause(form: str, is_batch: bool) -> dict[str, Any] | str:
    """The outsourcing finding's closing sentence on a plan that rents GPUs as a service: the provider to pick. A
    job's waits step says it on page 1 (said once); "" elsewhere."""
    if form not in RENTED_FORMS or is_batch:
        return ""
    return {"tr": "plan.rule.fin.cn_it_outsourcing.bt43.rented"}


def insurer(sector: str) -> bool:
    return any(w in (sector or "").lower() for w in INSURER_WORDS)


__all__ = ["CLOCK_KEY", "OUTSOURCING_ID", "clock_step", "feasible_text", "insurer", "rented_clause", "step_key"]
