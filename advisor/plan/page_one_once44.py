"""What page 1's paragraphs say is not said again, word for word, in section 7 (issue 25, blind review 35: q43 "the
hosted-API paragraph in section 1 repeats the findings verbatim; keep it once"; q07 "the 'Sooner, on a filed
model's API' paragraph and its finding repeat the same numbers; cut one").

Page 1 weighs the hosted API (or a one-server choice, the edge risks, the registration route) in a paragraph of its
own, and the finding behind it said the same clauses again in section 7: "This plan is kept: the cards are already
bought, so what counts is …" (q39), "An API served from Singapore misses your target here: …" (q43). Here each
sentence of a finding's text is read clause by clause (the parts between a colon or a semicolon); a clause page 1
says word for word, long enough to be a claim rather than a phrase, is left out, and a sentence left with only its
short lead-in ("This plan is kept:") goes with it. The rest of the finding, its title and its sources stay; the app
and ``--json`` keep the finding whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

CLAIM_BYTES = 50  # a clause this long (UTF-8 bytes: about 17 Chinese characters) is a claim, not a phrase
LEAD_IN_BYTES = 30  # what is left of a sentence this short is its lead-in ("This plan is kept"): dropped with it
_SENTENCE = {"en": re.compile(r"(?<=\.)\s+(?=[A-Z(])"), "zh_CN": re.compile(r"(?<=。)")}
_CLAUSE = {"en": re.compile(r"(: |; )"), "zh_CN": re.compile(r"([：；])")}
_END = {"en": ".", "zh_CN": "。"}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("**", "")).strip()


def _said(clause: str, page: str) -> bool:
    core = _norm(clause).rstrip(".。")
    return len(core.encode()) >= CLAIM_BYTES and core in page


def _clauses(sentence: str, lang: str) -> tuple[list[str], list[str]]:
    """(the clauses, the separator before each: "" for the first), split at a colon or semicolon outside brackets (a
    source's date and grade inside "(…; … (2026, grade C): …)" belong to the clause they follow)."""
    pattern = _CLAUSE.get(lang, _CLAUSE["en"])
    clauses, seps, depth, start, at = [], [""], 0, 0, 0
    while at < len(sentence):
        ch = sentence[at]
        depth += 1 if ch in "(（" else -1 if ch in ")）" and depth else 0
        m = pattern.match(sentence, at) if depth == 0 else None
        if m:
            clauses.append(sentence[start:at])
            seps.append(m.group(1))
            at = start = m.end()
            continue
        at += 1
    clauses.append(sentence[start:])
    return clauses, seps


def _sentence(sentence: str, page: str, lang: str) -> str:
    """``sentence`` less its clauses ``page`` says; "" where only a lead-in would be left."""
    end = _END.get(lang, ".")
    clauses, seps = _clauses(sentence, lang)
    kept: list[tuple[str, str]] = []
    gap = None  # the separator before the first clause of a run left out: the next kept clause takes it
    for i, (sep, c) in enumerate(zip(seps, clauses, strict=True)):
        if _said(c, page):
            gap = sep if gap is None else gap
            continue
        kept.append((gap if gap is not None and i else sep, c))
        gap = None
    if len(kept) == len(clauses):
        return sentence
    if not kept or (len(kept) == 1 and len(kept[0][1].encode()) <= LEAD_IN_BYTES):
        return ""
    text = kept[0][1] + "".join(sep + c for sep, c in kept[1:])
    text = text.rstrip()
    return text if text.endswith((".", "。", ")", "）")) else text.rstrip(".。;；:：,，") + end


def detail(text: str, page_one: Sequence[str], lang: str) -> str:
    """A finding's text less what ``page_one``'s paragraphs say word for word (see above)."""
    page = _norm(" ".join(p for p in page_one if p))
    if not page:
        return text
    splitter = _SENTENCE.get(lang, _SENTENCE["en"])
    sentences = [s for s in splitter.split(text) if s]
    kept = [k for s in sentences if (k := _sentence(s, page, lang))]
    return ("" if lang == "zh_CN" else " ").join(kept) if len(kept) != len(sentences) or kept != sentences else text


def said_once(rendered: list[dict[str, Any]], page_one: Sequence[str], lang: str) -> None:
    """Each rendered finding's detail less what page 1's paragraphs say (in place)."""
    for r in rendered:
        r["detail"] = detail(r["detail"], page_one, lang)


__all__ = ["detail", "said_once"]
