"""Page 1's "Weighed and set aside" line: a cheaper hosted API the answers keep out, said after the reasons.

Blind review 24 (q31, q32): "Self-hosted: …; a hosted API would cost less (¥12,158–¥27,425 against ¥44,819–¥83,540)"
stood fifth among the reasons for self-hosting, an argument for the alternative in a list of deciding reasons. The
comparison is now one line of its own under the list (``reasons.set_aside`` keeps it out of the list), in the memo and
on the app's result card alike; the finding itself stays whole in section 7 and in ``--json``.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.plan.api_plain import BUSY_KEY
from advisor.plan.reasons import api_moot, set_aside
from advisor.plan.result import Finding, render

# api43 (blind review 34, q14/q32: "the 'Your decision' box makes a settled self-host recommendation look open"): a
# plan kept for a reason its answers give says that reason as "Why not a hosted API", with the API's price; kept on
# the running of the service (``plain``), the trade stays the owner's decision (q31: the control's month said),
# except where the measured load makes the API no cheaper (``BUSY``, q26: "cut the box to one sentence")
KEY = "api43_set_aside.why"
TOP = "fair35.set_aside.top"
PLAIN = "usage40_set_aside.plain"
BUSY = "api43_set_aside.busy"


def text(findings: Sequence[Finding], lang: str, *, markdown: bool = False) -> str:
    """The line, or "" where no hosted API is set aside (or a blocker an API would not lift makes it moot); opened
    with the reason the answers give first ("Why not a hosted API", api43), in bold in the memo (``markdown``)."""
    if api_moot(findings):
        return ""
    f = next((x for x in findings if set_aside(x)), None)
    if f is None:
        return ""
    p = f.params
    top = p.get("top_amount")
    params = {"hosted": p.get("hosted"), "plan": p.get("plan"), "per": p.get("per"), "first": p.get("first"),
              "top": {"tr": TOP, "top_amount": top} if top not in (None, "") else "",
              "verify": " " + render(lang, "memo.verify_mark") if needs_verify(f) else ""}
    plain = p.get("plain")  # review 25 (q31): the running of the service said as the trade it is (``api_plain``)
    if isinstance(plain, dict) and plain.get("tr") == BUSY_KEY:  # no cheaper at the measured load: no choice left
        out = render(lang, BUSY, {**params, "measured": plain.get("measured"), "busy": plain.get("busy")})
    else:
        out = render(lang, PLAIN, {**params, "plain": plain}) if isinstance(plain, dict) else render(lang, KEY, params)
    note = p.get("api_note")  # what the API changes besides the cost: the data's way, the filing path (cons42, q14)
    if isinstance(note, dict):
        out += render(lang, str(note["tr"]), {k: v for k, v in note.items() if k != "tr"})
    return out if markdown else out.replace("**", "")


def needs_verify(f: Finding) -> bool:
    """The finding rests on a fact no official source confirms (its own flag, or a grade C/U source): the line
    carries the memo's ⚠ as that finding does in section 7 and as page 1's reasons count it (s34-rem36: the API's
    list prices, grade C, stood unmarked on this line alone)."""
    return bool(f.verify or any(s.needs_verify for s in f.sources))


__all__ = ["BUSY", "KEY", "PLAIN", "TOP", "needs_verify", "text"]
