"""An infeasible plan's alternatives block names the shorter regulatory route beside the closest workable option:
a filed model's hosted API, which takes only the registration (登记), with its time and the entrusted-processing
contract the prompts' personal information needs (s35-duties, blind review 26, q07: "For a start-up, the most useful
alternative is buried in a finding: a filed model's hosted API ('¥1,050–¥2,700 against ¥11,759–¥34,308 a month')
would take only the registration ('about 90–120 days'). It should sit beside the self-hosted 'closest workable
option', with the entrusted-processing contract it needs for children's data").

Said where the plan is infeasible, the generative-AI filing's months are among its blockers (``genai.filing_deadline``)
and the weighed API opens the registration (``cost.hosted_weighed`` carries ``hosted_processor``'s registration
clause: a public service in the mainland, not filed, hosting an open-weight model unchanged). Every figure is the
finding's: its prices and months, the same ranges as section 7. The contract is PIPL Art. 21's (entrusted
processing), with the Art. 55 assessment first where the data is sensitive; no fresh consent for the entrustment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.i18n import translate
from advisor.plan import api_fallback_split, closest_api
from advisor.plan.data import duration
from advisor.plan.result import Finding, PlanResult, render

KEY = "duties37_route"
WEIGHED = "cost.hosted_weighed"
STILL = "usage39_route.still"  # the blockers the route leaves in place (s36-apiplace, said first: s37-usage39)
HEAD = "usage39_route"  # the line, with what it still does not clear first
WITH_REGISTRATION = "plan.apisg23.with_registration"  # the weighed API's text with the registration clause after it


def _pi_clause(answers: dict[str, Any], lang: str) -> str:
    """What the provider would be processing and under which contract: "" where no personal information is in play."""
    sens = answers.get("data_sensitivity") or {}
    if not sens.get("personal_info"):
        return ""
    sensitive = bool(sens.get("sensitive_pi_subjects_per_year")) or answers.get("minors") is True
    whose = "minors" if answers.get("minors") is True else "people"
    return translate(lang, f"{KEY}.pi.{whose}.{'sensitive' if sensitive else 'personal'}")


def line(result: PlanResult, lang: str, why: Sequence[dict[str, Any]] = ()) -> str:
    """Page 1's line under the closest workable option, or "" where the route does not apply. What it still does not
    clear comes first (s37-usage39, blind review 28 q07: "should say up front that it still misses 60 days and does
    not clear 双减"): the deadline it misses, and the reasons above (``why``, page 1's numbered reasons) it leaves."""
    if result.feasible or result.finding("genai.filing_deadline") is None or closest_api.fix(result) is not None:
        return ""  # (the API as the closest option itself: page 1 names it there)
    weighed = result.finding(WEIGHED)
    reg = weighed.params.get("registration") if weighed is not None else None
    if weighed is None or not isinstance(reg, dict) or not weighed.params.get("hosted"):
        return ""
    answers = result.answers or {}
    deadline = result.timeline.deadline_days
    late = deadline is not None and duration("genai_registration")[0] > deadline  # still misses it: said first
    still = still_applies(why, lang)
    head = translate(lang, f"{HEAD}.head.{'both' if late and still else 'late' if late else 'still'}", deadline=deadline,
                     still=still) if late or still else ""
    per = weighed.params.get("per")
    plan = weighed.params.get("plan")  # a phrase where it is the GPUs alone beside a line (``gpus_alone40``)
    if isinstance(plan, dict):
        plan = render(lang, str(plan["tr"]), plan)
    return translate(lang, f"{HEAD}.line", head=head, reg=reg.get("reg"), filing=reg.get("filing"),
                     hosted=weighed.params["hosted"], plan=plan,
                     per=render(lang, str(per["tr"]), {}) if isinstance(per, dict) else "",
                     pi=_pi_clause(answers, lang))


def said_once(rendered: list[dict[str, Any]], findings: Sequence[Finding], route: str, lang: str) -> None:
    """Section 7's weighed API less its registration clause where ``route``, page 1's line, says it (``rendered``:
    the memo's findings, in ``findings``' order); the finding keeps it in ``--json``."""
    if not route:
        return
    for shown, f in zip(rendered, findings, strict=True):
        base = f.params.get("base")
        if f.id == WEIGHED and f.detail_key == WITH_REGISTRATION and isinstance(base, dict):
            shown["detail"] = render(lang, str(base["tr"]), {k: v for k, v in base.items() if k != "tr"})


def still_applies(why: Sequence[dict[str, Any]], lang: str) -> str:
    """"reasons 1 (双减), 4 and 5 above still apply" (``why``: page 1's numbered reasons, the route said after them):
    the region's and the law's reasons, which hold on the API path too (``api_fallback_split``), every one but the
    generative-AI filing's own, which the route changes (s36-apiplace, review 27 q07: "it still misses 60 days, and
    双减, B25 and children's data going to a provider all still apply. Say so, or move it down"); a blocker with a
    short name is named beside its number (s37-usage39, review 28 q07: "does not clear 双减"); "" where none."""
    nums = [_numbered(i, f, lang) for i, f in enumerate(why, 1)
            if api_fallback_split.holds_on_either(f) and not str(f.get("id", "")).startswith("genai.")]
    if not nums:
        return ""
    joined = nums[0] if len(nums) == 1 else (
        translate(lang, "answers.list_sep").join(nums[:-1]) + translate(lang, "answers.list_and") + nums[-1])
    return translate(lang, STILL, nums=joined, n=len(nums))


SHORT = {"edu.double_reduction": "usage39_route.short.double_reduction"}  # reasons said by name as well


def _numbered(i: int, f: dict[str, Any], lang: str) -> str:
    """A reason's number, with its short name where it has one ("1 (双减)")."""
    key = SHORT.get(str(f.get("id", "")))
    return translate(lang, "usage39_route.named", num=i, name=translate(lang, key)) if key else str(i)


__all__ = ["HEAD", "KEY", "SHORT", "STILL", "WEIGHED", "line", "said_once", "still_applies"]
