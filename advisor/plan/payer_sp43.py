"""Who pays an owned server's running costs when the budget is one-off only: the payer named as the organisation the
answers describe has it (blind review 34, q17 zh: "请明确由谁承担（设施/物业或业主的日常运行预算）" put a landlord's
物业/业主 in a university lab's memo). A university, school or research institute: the department's or lab's running
budget, or the university's facilities office (学院、实验室或学校后勤); a hospital: its facilities office or the using
department; a small office's box on its LAN: the office's running budget (r35, q01: a 30-person firm has no facilities
department); any other organisation in the neutral form (the facilities department or the using department).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from advisor.plan.sector_kinds import is_health, is_public_institution

PREFIX = "sp43.payer"


# a box on the office LAN that at most this many people use at once: a small office's (q01's 30-person law firm, 6 at
# once), whose running costs come out of the office's own budget, not a facilities department's (r35, q01)
SMALL_OFFICE_PEAK = 20
OFFICE = "ctx44.payer.office"


def payer_key(sector: str, audience: str, reach: str | None = None, peak: int | None = None) -> str:
    """The payer's i18n key for an organisation of ``sector`` serving ``audience``; a small office's box on its LAN
    (``reach`` lan, at most ``SMALL_OFFICE_PEAK`` at once) is paid from the office's running budget."""
    who = SimpleNamespace(sector=(sector or "general").lower(), audience=audience)
    if is_public_institution(who):
        return f"{PREFIX}.education"
    if is_health(who.sector):
        return f"{PREFIX}.health"
    if reach == "lan" and peak is not None and 0 < peak <= SMALL_OFFICE_PEAK:
        return OFFICE
    return f"{PREFIX}.general"


def from_answers(answers: dict[str, Any] | None) -> str:
    """``payer_key`` of the answers as given (a plan's echo): the audience as the context assumes it when unanswered
    (a batch's internal, else business)."""
    a = answers or {}
    ds = a.get("data_sensitivity") or {}
    audience = a.get("audience") or ("internal" if a.get("use_case") == "offline_batch" else "business")
    peak = a.get("peak_concurrency")
    return payer_key(str(ds.get("sector") or "general"), str(audience), a.get("reach"),
                     int(peak) if peak is not None else None)


__all__ = ["OFFICE", "PREFIX", "SMALL_OFFICE_PEAK", "from_answers", "payer_key"]
