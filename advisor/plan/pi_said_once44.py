"""The PIPL's notice and legal basis said once, inside the sensitive-information finding that already says them
(issue 25, blind review 35: q03 "the two PIPL findings overlap … merge"; q06 "'Financial records are sensitive…' and
'Personal information: notice, and a legal basis' overlap and could be merged"; q14 "the PI notice/legal basis
appears twice").

The sensitive-information finding's own text (its plain, health and finance forms) tells people why the data is
processed, asks separate consent unless counsel confirms another legal basis of Art. 13, and names those bases for
its sector (the care relationship, the contract, a legal duty). The notice finding (``pi.consent_notice``, its
"bases" form) says the same for all personal information, plus what is collected and how long it is kept, and that it
applies on any node. Where both are in the memo, the notice finding's last points are said after the sensitive
finding's text, with its sources, and the notice finding is not listed again. The plan (app, ``--json``) keeps both.
"""

from __future__ import annotations

from typing import Any

NOTICE_TITLE = "plan.rule.pi.consent_notice.bases.title"
SENSITIVE = "pi.sensitive_safeguards"
# the sensitive finding's forms whose text names notice, separate consent and Art. 13's other bases
SAYS_BASES = {
    "plan.rule.pi.sensitive_safeguards.detail",
    "plan.rule.pi.sensitive_safeguards.health.detail",
    "plan.rule.pi.sensitive_safeguards.finance.detail",
}
FOLDED = "rep44.pi.notice_folded"  # what only the notice finding said, after the sensitive finding's text


def findings(every: list[Any]) -> list[Any]:
    """``every`` with the notice finding folded into the sensitive-information finding where that one says it."""
    notice = next((f for f in every if f.title_key == NOTICE_TITLE), None)
    host = next((f for f in every if f.id == SENSITIVE and f.detail_key in SAYS_BASES and not f.detail_more), None)
    if notice is None or host is None:
        return every
    sources = [*host.sources, *(s for s in notice.sources if s not in host.sources)]
    merged = host.model_copy(update={"detail_more": FOLDED, "sources": sources,
                                     "verify": host.verify or notice.verify})
    return [merged if f is host else f for f in every if f is not notice]


__all__ = ["FOLDED", "findings"]
