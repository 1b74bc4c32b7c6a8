"""Step references that point at the list they name (s42-zhx, blind review 35, q23: "下一步第 7 条" pointed at
item 7 of section 9, while page 1's 下一步 lists three). The memo numbers its steps once: page 1's next steps
are 1…k, section 9's remaining steps go on from k + 1. A "next step N" past page 1's list names section 9 instead:
"第九节第 7 条" / "step 7 in section 9"."""

from __future__ import annotations

import re

from advisor.i18n import translate

# a reference and the section step_where40 may have appended to it ("（见第九节）", " (section 9)"): said once
_REF = {
    "zh_CN": r"下一步第 (\d+) [条步](?:（见第{section}节）)?",
    "en": r"\b([Nn])ext step (\d+)\b(?: \(section {section}\))?",
}


def section_of(markdown: str, lang: str) -> str | None:
    """The remaining steps' section as the memo's heading numbers it ("九" / "9"); None where the memo has none."""
    sep = "、" if lang == "zh_CN" else ". "
    title = translate(lang, "memo.h.next").split(sep, 1)[-1]
    found = re.search(rf"^#+ (\S+?){re.escape(sep)}{re.escape(title)}\s*$", markdown, re.MULTILINE)
    return found.group(1) if found else None


def point_at_lists(markdown: str, lang: str, first_steps: int) -> str:
    """``markdown`` with each "next step N" whose N lies past page 1's ``first_steps`` steps re-pointed at the
    remaining steps' section, where that step is listed."""
    section = section_of(markdown, lang) if lang in _REF else None
    return markdown if section is None else repoint(markdown, lang, first_steps, section)


def repoint(text: str, lang: str, first_steps: int, section: str) -> str:
    """``text`` with each "next step N" past page 1's ``first_steps`` steps named "step N in section ``section``"."""
    pattern = re.compile(_REF[lang].format(section=re.escape(section)))

    def one(match: re.Match[str]) -> str:
        n = int(match.group(2 if lang == "en" else 1))
        if n <= first_steps:
            return match.group(0)
        text = translate(lang, "zhx44.step_in_section", n=n, section=section)
        if lang == "en" and match.group(1) == "N":
            text = text[:1].upper() + text[1:]
        return text

    return pattern.sub(one, text)


__all__ = ["point_at_lists", "repoint", "section_of"]
