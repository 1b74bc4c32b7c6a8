"""A plan that waits months on the generative-AI filing (issue 25, blind review 27: q30, q07).

``genai.filing_deadline`` blocks the launch: the plan is what serves after the filing, months away. What runs during
the wait is said (the serving GPUs are rented from launch; a fine-tune's filing needs its security self-assessment's
test runs on the model itself, on one GPU by the hour), and what decides nothing while the plan waits is left out:
the rent-vs-buy payback (a purchase is weighed once the filing is done, on the measured load) and the advice to keep
the weights on local NVMe (a setup detail for launch day).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.genai_paths import genai_kind
from advisor.plan.result import TimelineItem
from advisor.plan.rule_base import RULES, Facts, Finding

BLOCKER = "genai.filing_deadline"
# the extend-deadline fix: the wait said with what runs during it (a fine-tune's test runs, else nothing)
FIX_KEY = "seq39_fix.extend_deadline"  # the launch as one range, the timeline's (review 29, q30 zh)
FIX_KEY_DOSSIER = "seq39_fix.extend_deadline_dossier"
# the fix's monthly figure: the serving GPUs' month, from launch (not a cost of the wait itself)
COST_FROM_LAUNCH = "filedwait38_fix.cost_from_launch"
# page 1's cost row on such a plan: the month is paid from launch
COST_ROW = "filedwait38_cost.from_launch"
# the rent finding's detail on a plan that waits on the filing: the month from launch and the reserved price only
RENT_DETAIL = "filedwait38_rent.waits.detail"


def fix_key(fine_tuned: bool) -> str:
    """A fine-tune files on the model itself (TC260-003 self-assessment, test question banks run on it: the filing's
    finding, ``memo29.genai.path.filing_dossier``): one GPU by the hour for those runs. Else nothing runs."""
    return FIX_KEY_DOSSIER if fine_tuned else FIX_KEY


def waits_facts(f: Facts) -> bool:
    """The filing blocks the launch (its rule fires on these facts)."""
    return isinstance(RULES[BLOCKER].fn(f), Finding)


def waits(result: Any) -> bool:
    """The plan's findings hold the filing's blocker."""
    return any(x.id == BLOCKER and x.severity == "blocker" for x in getattr(result, "findings", []) or [])


# the algorithm filing (算法备案) to make, as a timeline step and beside the gate in next step 1 (q30 zh: "算法备案 is
# missing from the timeline table and the next steps even though it is a pre-launch item")
ALGORITHM_STEP = "algorithm_filing"
ALGORITHM_NEXT = "seq39_next.algorithm"


def algorithm_step(f: Facts) -> TimelineItem | None:
    """The algorithm filing the finding says to make (``genai.algorithm_filing``, its general case: not a filed
    service's check, not an API call's question). The provisions (算法推荐管理规定 Art. 24, the finding's source)
    set only its latest date, 10 working days after going live; in practice it is made before or with the
    generative-AI filing, whose dossier carries its number (blind review 29, q30: "it should be listed as a
    prerequisite"; practice, no source here: "check with the provincial CAC"). So it finishes before launch, inside
    the generative-AI step's days (``within``): it does not move the earliest launch and is not a wait of its own."""
    got = RULES["genai.algorithm_filing"].fn(f)
    if not isinstance(got, Finding) or got.title_key != "plan.rule.genai.algorithm_filing.title":
        return None
    return TimelineItem(id=ALGORITHM_STEP, label_key="seq39_timeline.algorithm", days_low=None, days_high=None,
                        blocking=True, within=genai_kind(f.ctx, f.form), ask_key="seq39_timeline.algorithm_within")
