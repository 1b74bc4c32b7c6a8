"""Page 1's hosted-API paragraph as the owner's decision where the memo's own figures show the API cheaper (issue 25,
s38-usage, blind review 29).

The memo kept its self-hosted plan beside a far cheaper hosted API under labels that read as a side note: "Why not
a hosted API", "A hosted API to check beside it", "Weighed and set aside" (q34: "the API for the mainland share is
'41–116 times less', yet keeps self-hosting pending a rate-limit test. Make that an explicit decision for the
boss"; q35: "¥387 a month against ¥62,946–¥183,261 ... should be shown as explicit options"; q31, q26: "that
trade-off (control vs cost) belongs in the headline"). The paragraph already says the two months, why the plan is
kept and what settles it; its label now says whose decision it is.

Where it applies: the plan is kept while a hosted API costs less at the middle of each range (``hosted_weigh``'s
``cost.hosted_weighed`` test; ``hosted_lead.start_with`` is set only then), except where the API is no real
option on cost: the cards are already owned (an API would leave them idle, the plan's running cost is power) or no
priced provider serves the region (a quote comes first).
"""

from __future__ import annotations

import re
from typing import Any

from advisor.i18n import translate

LABEL = "usage40_choice.label"
# the kept plan's reasons whose paragraph is not a choice on cost (the module's docstring)
# and "asked" (api43, blind review 34, q35/q42): the answers fixed the setup; its paragraph says what that costs
NOT_A_CHOICE = frozenset({"owned", "unserved", "answers", "asked"})
# a token seller's API as a stopgap to resell (``self_host_asked``): whether its terms allow resale, not a choice
# between running the model and buying it
RESALE = ".sells"
_BOLD = re.compile(r"^\*\*[^*\n]+\*\*[：:]?\s*")  # a paragraph's opening label, markdown bold, with its colon


def applies(start: Any) -> bool:
    """``start`` (a plan's ``start_with``) keeps the self-hosted plan beside a cheaper hosted API."""
    return (start is not None and start.form == "this_plan" and bool(start.key) and start.reason not in NOT_A_CHOICE
            and not start.key.endswith(RESALE))


def relabel(text: str, lang: str, label: str = LABEL) -> str:
    """``text`` (markdown: its label in bold) with its opening label said as the owner's decision (or ``label``: the
    alternative of page 1's fork, ``fork42``); as it was where it opens on no label."""
    m = _BOLD.match(text)
    return text if m is None else translate(lang, label) + text[m.end():]


__all__ = ["LABEL", "NOT_A_CHOICE", "RESALE", "applies", "relabel"]
