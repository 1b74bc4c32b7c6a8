"""Page 1's summary table under an API lead says it is the self-hosted plan's (s27-apilead27, blind review 17).

Where the Decision starts on a hosted API (``StartWith.form == "hosted_api"``), the table under it still sizes,
prices and dates the self-hosted setup the lead names as what to move to. Reviewers of q21 ("the headline recommends
an HK front end calling a mainland API at ¥30–69 a month, while the summary table, 'feasible: yes' and the cost rows
describe the self-hosted 2 × A10: a reader cannot tell which is being recommended"), q35, q12 and q13 read those rows
as the recommendation. The table's value column is headed "If you self-host (the plan to move to)" / "若自建（之后
要转到的方案）" in place of "Value": every row under it is then the self-hosted plan's, at no added line. "If you
self-host: " opening each of the five cells was tried first and grew page 1's Decision by 3–8 mm a memo (q21 en:
194 → 201 mm, ``bench/memo_pages.py --sections``), as the hardware and cost cells wrapped once more.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate

KEY = "memo.apilead27.value"


def api_leads(result: Any) -> bool:
    """The Decision opens on a hosted API and names this plan as what to move to (``result.lead_text``'s test)."""
    start = result.start_with
    return bool(result.feasible and start is not None and start.form == "hosted_api" and start.key)


def value_heading(result: Any, lang: str) -> str:
    """The summary table's value column heading: "Value". s35-apipage (review 24: q12, q13, q21, q22 still read the
    table as the wrong plan): under an API lead the hardware and cost rows now say the API first and label the
    self-hosted plan as the fallback (``memo_api_rows``), so the column is no longer headed as the self-hosted plan's."""
    del result  # the heading no longer depends on the lead; kept for the memo's call
    return translate(lang, "memo.table.value")


__all__ = ["KEY", "api_leads", "value_heading"]
