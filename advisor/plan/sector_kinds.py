"""Sector words and the classified-protection level a system likely gets: plain functions of the plan's context,
kept out of the rule modules so that the engine can read them without importing a rule module (a rule module
registers its rules on import, and the order of the registry is the order of a memo's findings).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

HEALTH_SECTORS = ("medical", "health", "healthcare")
# a securities, futures or fund-management firm: supervised by the CSRC, not by the banking and insurance regulator
# (s34-duties36, blind review 25 q04: "securities-sector IT rules ... are not mentioned beside 等保"); substrings, so
# "securities", "finance_securities", "futures" and "证券公司" all count
SECURITIES_WORDS = ("securit", "futures", "fund_manag", "fund manag", "证券", "期货", "基金管理")  # (not 基金会, a charity)
# a university, school or research institute: a public institution whose purchases go through its procurement office
# (s34-procure36, blind review 25 q17: "a ¥400k university purchase normally goes through 招标/政府采购"); substrings
EDU_RESEARCH_WORDS = ("education", "universit", "research", "academ", "教育", "高校", "大学", "科研", "研究院", "研究所")
# the words that name a public institution itself, not only its sector: a university, a school, a research institute,
# a public institution (事业单位) — state-funded bodies whose purchases go through government procurement (国办发〔2019〕
# 55号 is for central budget units). The bare sector "education" does not: a private education company shares it
# (s35-duties, issue 25: a private education company was given the institution's procurement step)
INSTITUTION_WORDS = ("universit", "college", "school", "research", "academ", "public_institution", "public institution",
                     "高校", "大学", "学院", "学校", "科研", "研究院", "研究所", "事业单位")
FINANCE_SECTORS = ("finance", "financial", "bank", "insurance", *SECURITIES_WORDS)  # substrings: "banking" too


def is_health(sector: str) -> bool:
    return sector in HEALTH_SECTORS


# The substring tests below are pure functions of the sector's words; a plan asks ``is_finance`` thousands of times
# (every setup's ranking tiers ask ``redundancy_reason``), each a scan of a dozen substrings (issue #27). Bounded.
@lru_cache(maxsize=256)
def is_securities(sector: str) -> bool:
    return any(s in sector for s in SECURITIES_WORDS)


@lru_cache(maxsize=256)
def is_edu_research(sector: str) -> bool:
    return any(s in sector for s in EDU_RESEARCH_WORDS)


def is_public_institution(c: Any) -> bool:
    """A public (state-funded) education or research institution, whose purchases go through its procurement office:
    the sector names the institution (a university, a school, a research institute), or it is the bare education
    sector used as an institution's own tool (its own people: staff, students, researchers). An education-sector
    service offered to the public or to other businesses is a company's (q07's start-up), which buys as any company
    does. (No answer names the entity type: the sector and the audience are what tell them apart.)"""
    if any(w in c.sector for w in INSTITUTION_WORDS):
        return True
    # who uses it, not whether they pay: a fee read here made "do users pay?" an open question of a lab's own tool
    return is_edu_research(c.sector) and c.audience == "internal"


@lru_cache(maxsize=256)
def is_finance(sector: str) -> bool:
    return any(s in sector for s in FINANCE_SECTORS)


def mlps_level(c: Any, region: str) -> int | None:
    """The classified-protection (等保) level a system likely gets (2 or 3), or None where the scheme is left out
    here: a system run in the mainland that serves people beyond the team, or a staff tool holding a hospital's or a
    financial firm's data, is graded and (level 2 and above) filed. Any other staff tool is left out (likely level
    1, which needs no filing), and so is an offline batch job. Level 3 for health or finance, or counted sensitive
    personal information."""
    if region not in ("mainland", "mainland_plus_overseas") or c.is_batch:
        return None
    health, finance = is_health(c.sector), is_finance(c.sector)
    if c.internal_only and not (health or finance):  # (by sector, not by a count of sensitive data: an unknown
        return None  # count is asked of every office tool, and a staff tool's grading is the sector's call)
    return 3 if health or finance or (c.sensitive_subjects or 0) > 0 else 2


__all__ = ["EDU_RESEARCH_WORDS", "FINANCE_SECTORS", "HEALTH_SECTORS", "SECURITIES_WORDS", "is_edu_research", "is_finance",
           "INSTITUTION_WORDS", "is_health", "is_public_institution", "is_securities", "mlps_level"]
