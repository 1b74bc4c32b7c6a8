"""Page 1 of a memo as a reader follows it (pages27, issue 25: page 1 says each fact once).

The earliest-launch and feasible rows name the steps a launch waits for once, in the next step on page 1 that starts
them, and point at it ("after what next step 1 lists (length unknown), then 1–5 days to set up";
``advisor.plan.memo_gate_once``). A test that reads what a row waits for reads the row with the step it points at.
"""

from __future__ import annotations

import re

from advisor.i18n import translate

POINTER = {"en": re.compile(r"what next step (\d+) lists"), "zh_CN": re.compile(r"下一步第 (\d+) 条所列事项")}


def page_one(memo: str) -> str:
    """Section 1 of a Markdown memo (the decision, its rows, the questions and the first next steps)."""
    return memo.split("\n## ")[1]


def next_step_line(memo: str, n: int, lang: str) -> str:
    """Page 1's next step ``n`` as printed ("1. Before launch, settle …")."""
    steps = page_one(memo).split(translate(lang, "memo.next.first"))[1]
    return next(line for line in steps.splitlines() if line.startswith(f"{n}. "))


def pointed_step(row: str, memo: str, lang: str) -> int | None:
    """The number of the page-1 next step ``row`` points at, None where it names its steps itself."""
    m = POINTER[lang].search(row)
    return int(m.group(1)) if m else None


def with_step_pointed_at(row: str, memo: str, lang: str) -> str:
    """``row`` followed by the page-1 next step it points at; ``row`` alone where it points at none."""
    n = pointed_step(row, memo, lang)
    return row if n is None else f"{row} {next_step_line(memo, n, lang)}"
