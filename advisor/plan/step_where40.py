"""A finding that names a next step page 1 does not list says where that step is (blind review 29, q28: "'Next step
6' is referenced from the findings while section 1 only lists steps 1–3; fix the numbering").

Page 1 lists the first ``FIRST_STEPS`` next steps; the rest close the memo under their own numbers (section 9). A
finding's "next step 6" is then the right number, but the reader on page 1 cannot find it: the reference says its
section too. The steps' numbers stay one sequence, so the app and ``--json`` (which list every step) keep the text."""

from __future__ import annotations

import re
from typing import Any

from advisor.i18n import translate

# how each language names a next step by its number in the findings' text (the catalogue's "next step {n}" /
# "下一步第 {n} 条|步"); the number is group 1, the rest of the match is kept as it is
STEP_REF = {"en": re.compile(r"\bnext step (\d+)\b(?! \()"),
            "zh_CN": re.compile(r"下一步第 (\d+) ([条步])(?!（)")}


def _section(lang: str) -> str:
    """The remaining steps' section number, as its heading says it ("9. The remaining steps", "九、其余步骤")."""
    heading = translate(lang, "memo.h.next")
    return re.split(r"[.、]", heading, maxsplit=1)[0].strip()


def said_where(rendered: list[dict[str, Any]], lang: str, on_page_one: int) -> None:
    """Each rendered finding's reference to a step past page 1's ``on_page_one`` names that step's section."""
    pattern = STEP_REF.get(lang)
    if pattern is None:
        return
    section = _section(lang)

    def where(m: re.Match[str]) -> str:
        if int(m.group(1)) <= on_page_one:
            return m.group(0)
        return m.group(0) + translate(lang, "misc40_step.in_section", section=section)

    for shown in rendered:
        for field in ("title", "detail"):
            if isinstance(shown.get(field), str):
                shown[field] = pattern.sub(where, shown[field])


__all__ = ["said_where"]
