"""Two findings that say one point, folded into one in the memo (issue 25, blind review 35).

The PIPL's notice and legal basis said once, inside the sensitive-information finding that already says them
(issue 25, blind review 35: q03 "the two PIPL findings overlap … merge"; q06 "'Financial records are sensitive…' and
'Personal information: notice, and a legal basis' overlap and could be merged"; q14 "the PI notice/legal basis
appears twice").

The sensitive-information finding's own text (its plain, health and finance forms) tells people why the data is
processed, asks separate consent unless counsel confirms another legal basis of Art. 13, and names those bases for
its sector (the care relationship, the contract, a legal duty). The notice finding (``pi.consent_notice``, its
"bases" form) says the same for all personal information, plus what is collected and how long it is kept, and that it
applies on any node. Where both are in the memo, the notice finding's last points are said after the sensitive
finding's text, with its sources, and the notice finding is not listed again.

The BGP line said once (q14: "BGP appears in two findings … merge each pair"; q32 "merge the two BGP findings"): the
finding on why a BGP multi-line data centre (``line.bgp``) and the one on the line's bandwidth and price
(``cost.line_bandwidth``) are one point, the line; the memo says the second's title and text after the first's.

The plan (app, ``--json``) keeps every finding whole.
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
LINE, BANDWIDTH = "line.bgp", "cost.line_bandwidth"
FOLD = "rep44.fold"  # another finding's title and text, said after a finding's own


def _fold(every: list[Any], host: Any, guest: Any, more: str, params: dict[str, Any]) -> list[Any]:
    """``every`` with ``guest`` said after ``host``'s text (``more`` with ``params``), its sources cited there."""
    sources = [*host.sources, *(s for s in guest.sources if s not in host.sources)]
    merged = host.model_copy(update={"detail_more": more, "params": {**host.params, **params}, "sources": sources,
                                     "verify": host.verify or guest.verify})
    return [merged if f is host else f for f in every if f is not guest]


def findings(every: list[Any]) -> list[Any]:
    """``every`` with the notice finding folded into the sensitive-information finding where that one says it, and
    the line's bandwidth into the BGP finding."""
    notice = next((f for f in every if f.title_key == NOTICE_TITLE), None)
    host = next((f for f in every if f.id == SENSITIVE and f.detail_key in SAYS_BASES and not f.detail_more), None)
    if notice is not None and host is not None:
        every = _fold(every, host, notice, FOLDED, {})
    line = next((f for f in every if f.id == LINE and not f.detail_more), None)
    width = next((f for f in every if f.id == BANDWIDTH and not (f.detail_more or f.title_wrap)), None)
    if line is not None and width is not None and not set(width.params) & {"fold_title", "fold_detail"}:
        every = _fold(every, line, width, FOLD, {"fold_title": {"tr": width.title_key, **width.params},
                                                 "fold_detail": {"tr": width.detail_key, **width.params}})
    return every


__all__ = ["FOLD", "FOLDED", "findings"]
