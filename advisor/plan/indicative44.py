"""Sizing and cost said to be indicative while a rule may forbid the service outright (vrd44, blind review 35, q07).

q07 (a paid homework app for pupils) may not be licensable at all under 双减. Page 1 already shrinks the hardware and
cost rows to one line (``blocked_brief39``), but sections 2–4 still sized nine L20s in full with no word that they
only hold if the education authority allows the service: "say plainly that sections 2–4 are indicative until the
education authority answers". Where such a blocker stands, page 1's line and the top of sections 2, 3 and 4 say so.
"""

from __future__ import annotations

from advisor.i18n import translate

# who answers, for each blocker that may forbid the service outright (``blocked_brief39.NOT_PERMITTED``'s ids)
UNTIL = {"edu.double_reduction": "vrd44.until.double_reduction"}


def until(found: str | None, lang: str) -> str | None:
    """"the education authority answers on 双减, which decides …" for ``found`` (``blocked_brief39.blocker``'s
    id); None where no such blocker stands."""
    return translate(lang, UNTIL[found]) if found in UNTIL else None


def section_note(found: str | None, lang: str) -> str:
    """The line that opens sections 2–4: indicative until the authority answers, no GPUs ordered before; "" else."""
    who = until(found, lang)
    return translate(lang, "vrd44.indicative.section", until=who) if who else ""


__all__ = ["UNTIL", "section_note", "until"]
