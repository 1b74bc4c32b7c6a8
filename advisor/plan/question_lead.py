"""An open question's assumption without its "… not given:" lead (issue 25, s22-pages22).

Page 1 lists each answer the recommendation rests on as the question, what was assumed, and what another answer
changes. The assumption's text is shared with section 8, where it opens with what was not given ("Who can reach the
service not given: assumed the public internet …"); after the question itself that lead says the question twice
(16 of 43 advice memos), so the line drops it. A lead that carries figures of its own ("Whether the 16 GPUs'
measured 20 % load …") is kept: the question does not say them.
"""

from __future__ import annotations

import re

_LEADS = {
    "en": re.compile(r"^[^:.;]{1,120} not given: (?=\S)"),
    "zh_CN": re.compile(r"^(?:未填写|未说明)[^：；。]{1,60}："),
}


def without_lead(assumed: str, lang: str) -> str:
    """``assumed`` less its "X not given: " lead, first letter raised; unchanged where the lead has a digit."""
    pattern = _LEADS.get(lang)
    found = pattern.match(assumed) if pattern is not None else None
    if found is None or any(ch.isdigit() for ch in found.group(0)):
        return assumed
    rest = assumed[found.end():]
    return rest[:1].upper() + rest[1:]
