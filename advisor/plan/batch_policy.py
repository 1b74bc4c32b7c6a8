"""What an offline batch job may run on: spot capacity and consumer cards, judged by the deadline's slack and the data.

A batch with a hard deadline (an audit, a filing) is sized to finish with margin (batch_rate.DEADLINE_MARGIN). Spot
(preemptible) GPUs are 30–45 % cheaper but can be reclaimed at any time: a reclaimed replica loses the work since its
last saved progress and needs a new machine, the weights again and a warm-up (one more setup). They suit a job whose
deadline leaves room for that on top of the margin, and whose data may sit on capacity the provider reassigns at will.

Data that is sensitive personal information under the PIPL (financial accounts, medical records, identity numbers,
…) or marked highly sensitive stays off consumer cards rented on GPU marketplaces (AutoDL-style: machines of many
owners, consumer GeForce parts whose licence excludes data-centre use) and off spot capacity: data-centre parts on
on-demand instances of a mainland cloud, under the provider's security terms.
"""

from __future__ import annotations

from advisor.plan.batch_rate import DEADLINE_MARGIN, setup_hours
from advisor.plan.context import Ctx

# Sectors whose personal information is mostly sensitive personal information under PIPL art. 28 (financial accounts,
# medical health, identity): a bank's loan files hold account numbers and ID card numbers whatever count was entered.
SENSITIVE_SECTORS = (
    "finance",
    "financial",
    "bank",
    "banking",
    "insurance",
    "securities",  # a securities or futures firm's client accounts (s34-duties36)
    "futures",
    "medical",
    "health",
    "healthcare",
)
# Work a preempted replica loses: what it did since its progress was last saved (an engineer checkpoints the job's
# output often; an hour is the planning figure), on top of a new machine's setup.
LOST_WORK_HOURS = 1.0


def sensitive_data(c: Ctx) -> bool:
    """The job's data is sensitive: marked high, sensitive personal information counted, or personal information in
    a sector where it is mostly sensitive (finance, health)."""
    if c.level == "high" or (c.sensitive_subjects or 0) > 0:
        return True
    return c.personal_info and any(s in c.sector for s in SENSITIVE_SECTORS)


def preemption_hours() -> float:
    """Hours one preemption costs a replica: the work since its last save and a new machine's longest setup."""
    return LOST_WORK_HOURS + setup_hours()[1]


def spot_verdict(c: Ctx, billed_high: float | None) -> str:
    """ "ok" when spot capacity suits this job; else why not: "sensitive" (the data) or "tight" (the deadline leaves
    no room for a preemption beyond the margin)."""
    if sensitive_data(c):
        return "sensitive"
    deadline = c.batch_hours or 0.0
    if billed_high is None or billed_high + preemption_hours() > deadline * (1 - DEADLINE_MARGIN):
        return "tight"
    return "ok"


def consumer_cards_allowed(c: Ctx) -> bool:
    """Consumer cards (GeForce, rented on marketplaces) for a batch job: only for data that is not sensitive."""
    return not sensitive_data(c)
